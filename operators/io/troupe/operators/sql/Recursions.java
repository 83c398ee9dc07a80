package io.troupe.operators.sql;

import io.troupe.operators.plan.Plan;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.core.Spool;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.schema.TransientTable;
import org.apache.calcite.util.Util;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * WITH RECURSIVE as Calcite converts it: a {@link RepeatUnion} of the non-recursive term and the recursive term, each
 * under a TableSpool that writes the transient table named after the query, which the recursive term reads by a
 * {@link TableScan} (rel/core/RepeatUnion.java, marked experimental). Lowered to {@link Plan#recursiveUnion}: the
 * spools go, and each scan of the transient table inside the recursive term becomes the union's work table.
 * Calcite's own iteration limit (none unless its planner sets one) is not Troupe's: {@code troupe.sql.recursion-limit}
 * is. Not threadsafe: one per lowering, which it follows into nested recursions.
 */
final class Recursions {

    /** The work table of each recursive term being lowered, by the transient table's name in lower case. */
    private final Map<String, WorkTable> workTables = new HashMap<>();

    /** A work table's plan, and the union whose field names its columns have. */
    record WorkTable(Plan plan, RepeatUnion union) {
    }

    /**
     * The plan of {@code union}: its terms lowered by {@code named} (an input lowered and projected to the union's
     * field names and types), the recursive one while {@link #workTable} answers for the transient table.
     */
    Plan lower(RepeatUnion union, BiFunction<RelNode, RelNode, Plan> named) {
        String name = name(union.getTransientTable().getQualifiedName());
        Plan seed = named.apply(unspooled(union.getSeedRel()), union);
        return seed.recursiveUnion(name, union.all, workTable -> {
            WorkTable outer = workTables.put(name.toLowerCase(Locale.ROOT), new WorkTable(workTable, union));
            try {
                return named.apply(unspooled(union.getIterativeRel()), union);
            } finally {
                if (outer == null) {
                    workTables.remove(name.toLowerCase(Locale.ROOT));
                } else {
                    workTables.put(name.toLowerCase(Locale.ROOT), outer);
                }
            }
        });
    }

    /**
     * The work table that {@code scan} reads: a scan of a recursive query's transient table inside its recursive
     * term; null for a table's scan.
     *
     * @throws UnsupportedSqlException for a transient table read outside its recursive term
     */
    WorkTable workTable(TableScan scan) {
        if (scan.getTable().unwrap(TransientTable.class) == null) {
            return null;
        }
        String name = name(scan.getTable().getQualifiedName());
        WorkTable workTable = workTables.get(name.toLowerCase(Locale.ROOT));
        if (workTable == null) {
            throw new UnsupportedSqlException("a read of the recursive query " + name + " outside its recursive term");
        }
        return workTable;
    }

    /**
     * {@code e} said plainly where it is Calcite's failure to convert a recursive query whose recursive term makes
     * other types than the non-recursive term's (its validator takes their common type, its converter keeps the
     * terms' own): PostgreSQL refuses such a query too, asking for a cast. Any other error as it is.
     */
    static Throwable mismatchedTypes(AssertionError e) {
        String message = e.getMessage();
        if (message == null || !message.startsWith("Conversion to relational algebra failed to preserve datatypes")
                || !message.contains("RepeatUnion")) {
            return e;
        }
        String[] lines = message.split("\n");
        return new UnsupportedSqlException("a WITH RECURSIVE whose recursive term makes other types than its"
                + " non-recursive term (Calcite's types: " + (lines.length > 4 ? lines[2] + " and " + lines[4] : message)
                + "): cast the non-recursive term's columns to the types the recursive term makes");
    }

    private static String name(List<String> qualified) {
        return Util.last(qualified);
    }

    /** A term without the spool over it: the spool writes the transient table, which the work table replaces. */
    private static RelNode unspooled(RelNode term) {
        return term instanceof Spool spool ? spool.getInput() : term;
    }
}
