package io.troupe.operators.sql;

import io.troupe.operators.expr.FunctionRegistry;
import io.troupe.operators.expr.ScalarFunction;

import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.validate.SqlNameMatcher;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Calcite's operators with the {@link FunctionRegistry}'s functions over them: a function call whose
 * name the registry has ({@code sqrt(x)}, {@code ROUND(x, 2)}, {@code pow(a, b)}) resolves to the
 * registry's {@link RegistryFunction} alone, even where Calcite has an operator of that name, so that
 * the validator types it as Troupe computes it; everything else is looked up in {@code base}. A call
 * that Calcite's parser binds to an operator of its own (SUBSTRING, TRIM ...) is looked up by name
 * again when it is validated, and so becomes the registry's too, except where Calcite's operator
 * keeps itself (CEIL and FLOOR): {@link RexLowering} lowers those to the registry by name, cast to
 * the type Calcite gave them where the registry's differs. A Troupe's functions of its own are such a table over
 * the built-in one ({@link SqlPlanner}).
 *
 * <p>Immutable and threadsafe.
 */
final class RegistryOperatorTable implements SqlOperatorTable {

    /** The registry's operators by lower-case name. */
    private final Map<String, RegistryFunction> functions = new LinkedHashMap<>();
    private final SqlOperatorTable base;

    RegistryOperatorTable(List<ScalarFunction> registry, SqlOperatorTable base) {
        for (ScalarFunction f : registry) {
            for (String name : f.names()) {
                functions.put(name, new RegistryFunction(name, f));
            }
        }
        this.base = base;
    }

    @Override
    public void lookupOperatorOverloads(SqlIdentifier opName, SqlFunctionCategory category, SqlSyntax syntax,
                                        List<SqlOperator> operatorList, SqlNameMatcher nameMatcher) {
        if (syntax == SqlSyntax.FUNCTION && opName.isSimple()) {
            RegistryFunction f = functions.get(opName.getSimple().toLowerCase(Locale.ROOT));
            if (f != null) {
                operatorList.add(f);
                return;
            }
        }
        base.lookupOperatorOverloads(opName, category, syntax, operatorList, nameMatcher);
    }

    @Override
    public List<SqlOperator> getOperatorList() {
        List<SqlOperator> all = new ArrayList<>(functions.values());
        for (SqlOperator op : base.getOperatorList()) {
            if (op.getSyntax() != SqlSyntax.FUNCTION || !functions.containsKey(op.getName().toLowerCase(Locale.ROOT))) {
                all.add(op);
            }
        }
        return all;
    }
}
