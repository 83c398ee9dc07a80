package io.troupe.operators.sql;

import io.troupe.operators.plan.Plan;

import java.util.ArrayList;
import java.util.List;

/** What the planner's tests read of a plan's shape: its hash joins, its filters and the tables it scans. */
public final class PlanShape {

    private PlanShape() {
    }

    /** The hash joins of {@code plan}, top down; each one's second child is its build side. */
    public static List<Plan> joins(Plan plan) {
        List<Plan> joins = new ArrayList<>();
        if (plan.label().startsWith("Hash Join")) {
            joins.add(plan);
        }
        plan.children().forEach(c -> joins.addAll(joins(c)));
        return joins;
    }

    /** The filters of {@code plan} (HAVING included), top down. */
    public static List<Plan> filters(Plan plan) {
        List<Plan> found = new ArrayList<>();
        if (plan.label().startsWith("Filter") || plan.label().startsWith("Having")) {
            found.add(plan);
        }
        plan.children().forEach(c -> found.addAll(filters(c)));
        return found;
    }

    /** The tables {@code plan} scans, left to right: the first is where its probe pipeline starts. */
    public static List<String> scans(Plan plan) {
        List<String> tables = new ArrayList<>();
        if (plan.label().startsWith("Scan ")) {
            tables.add(plan.label().split(" ")[1]);
        }
        plan.children().forEach(c -> tables.addAll(scans(c)));
        return tables;
    }
}
