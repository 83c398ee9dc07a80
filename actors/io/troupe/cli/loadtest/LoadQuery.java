package io.troupe.cli.loadtest;

import io.troupe.operators.plan.Plan;

/**
 * One query of a load test. Immutable.
 *
 * @param name   its name in reports: a workload's id (w1) or a plan file's path without .plan
 * @param plan   what Troupe runs
 * @param sql    the same query in SQL, for a peer; null when it has none
 * @param origin where it came from, for messages: the plan file, or the workload
 */
record LoadQuery(String name, Plan plan, String sql, String origin) {
}
