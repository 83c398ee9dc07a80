package io.troupe.operators.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql2rel.SqlRexContext;

import java.util.ArrayList;
import java.util.List;

/**
 * SQL's {@code %} over any numbers, as DuckDB takes it: a DOUBLE operand makes a DOUBLE remainder (PostgreSQL has no
 * {@code %} of a DOUBLE). Calcite's takes exact numbers only and casts a DOUBLE to DECIMAL(18,15), which failed
 * {@code 7000 % CAST(4500.5 AS DOUBLE)} ("value 4500.5 is out of range for type decimal(18,15)") and cut a DOUBLE's
 * bits. Exact operands keep Calcite's type; Troupe's {@code mod} computes either. Stateless; threadsafe.
 */
final class Remainder {

    /** {@code %}, found by name in place of the standard operator when the validator checks a call. */
    static final SqlOperator OPERATOR = new SqlBinaryOperator(SqlStdOperatorTable.PERCENT_REMAINDER.getName(),
            SqlKind.MOD, SqlStdOperatorTable.PERCENT_REMAINDER.getLeftPrec(), true, binding -> {
                RelDataType a = binding.getOperandType(0);
                RelDataType b = binding.getOperandType(1);
                if (!SqlTypeUtil.isApproximateNumeric(a) && !SqlTypeUtil.isApproximateNumeric(b)) {
                    return ReturnTypes.NULLABLE_MOD.inferReturnType(binding);
                }
                return binding.getTypeFactory().createTypeWithNullability(
                        binding.getTypeFactory().createSqlType(SqlTypeName.DOUBLE), a.isNullable() || b.isNullable());
            }, InferTypes.FIRST_KNOWN, OperandTypes.NUMERIC_NUMERIC);

    private Remainder() {
    }

    /** A call of {@link #OPERATOR} as the standard {@code %} of the validated type, as RexLowering lowers MOD. */
    static RexNode convert(SqlRexContext cx, SqlCall call) {
        List<RexNode> operands = new ArrayList<>();
        for (SqlNode operand : call.getOperandList()) {
            operands.add(cx.convertExpression(operand));
        }
        return cx.getRexBuilder().makeCall(call.getParserPosition(), cx.getValidator().getValidatedNodeType(call),
                SqlStdOperatorTable.PERCENT_REMAINDER, operands);
    }
}
