package io.troupe.operators.sql;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Catalog;

/**
 * The first statement of a cold JVM, planned with the default bound on ordering joins, for
 * {@link SqlJoinOrderTest}: prints {@code plan: } and the plan's EXPLAIN on one line (lines joined by {@code |}).
 * Arguments: the star tables' seed ({@link StarTables}) and the statement.
 */
public final class ColdJoinOrder {

    private ColdJoinOrder() {
    }

    public static void main(String[] args) {
        Catalog catalog = new Catalog();
        StarTables.generate(Long.parseLong(args[0])).forEach(catalog::register);
        Plan plan = new SqlPlanner(catalog, TroupeSettings.load().sql().joinOrderLimit(), java.time.ZoneOffset.UTC).plan(args[1]);
        System.out.println("plan: " + oneLine(plan, catalog));
    }

    static String oneLine(Plan plan, Catalog catalog) {
        return String.join(" | ", plan.explain(catalog).lines().toList());
    }
}
