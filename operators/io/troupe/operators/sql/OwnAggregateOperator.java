package io.troupe.operators.sql;

import io.troupe.operators.expr.ScalarFunction;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.udf.OwnAggregate;

import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.Optionality;

import java.util.Locale;
import java.util.function.IntFunction;

/**
 * An aggregate of one's own ({@link OwnAggregate}) as Calcite's validator sees it: its operands checked and typed by
 * its registered signature as a registry function's are ({@link RegistryFunction}), its result the registered type,
 * nullable. {@link #lower} makes a call of it the plan's call by name, which the Troupe binds when it runs the plan.
 * DISTINCT, FILTER and ORDER BY in the call are refused.
 *
 * <p>Immutable and threadsafe.
 */
final class OwnAggregateOperator extends SqlAggFunction {

    private final OwnAggregate own;

    private OwnAggregateOperator(OwnAggregate own, ScalarFunction signature) {
        super(own.name().toUpperCase(Locale.ROOT), null, SqlKind.OTHER_FUNCTION,
                binding -> SqlTypes.toSql(own.result(), true, binding.getTypeFactory()),
                (binding, returnType, operandTypes) -> RegistryFunction.inferOperandTypes(signature, binding,
                        operandTypes),
                new RegistryFunction.Operands(signature), SqlFunctionCategory.USER_DEFINED_FUNCTION, false, false,
                Optionality.FORBIDDEN);
        this.own = own;
    }

    static OwnAggregateOperator of(OwnAggregate own) {
        return new OwnAggregateOperator(own, own.signature());
    }

    /** The plan's call of this aggregate, its arguments the input's columns {@code column} gives. */
    Expr lower(AggregateCall call, IntFunction<Expr> column) {
        if (call.isDistinct() || call.hasFilter() || !call.getCollation().getFieldCollations().isEmpty()) {
            throw new UnsupportedSqlException("DISTINCT, FILTER or ORDER BY in a call of " + own + ", an aggregate "
                    + "of one's own (in " + call + ")");
        }
        return Expr.call(own.name(), call.getArgList().stream().map(column::apply).toArray(Expr[]::new));
    }
}
