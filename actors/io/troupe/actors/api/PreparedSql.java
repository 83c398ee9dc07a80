package io.troupe.actors.api;

import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.sql.PreparedPlan;

import static io.troupe.operators.Arguments.notNull;

/**
 * A SQL statement prepared once ({@link Troupe#prepareSql}) and run many times, each time with the values of
 * its parameters ({@code ?}, in order): Calcite parses, validates and plans it once; each execution only puts
 * the values into the plan ({@link PreparedPlan#bind}) and runs it as {@link Troupe#execute} does.
 *
 * <pre>{@code
 * PreparedSql byStatus = troupe.prepareSql("SELECT id, amount FROM orders WHERE qty > ? AND status = ?");
 * QueryResult open = byStatus.execute(5, "open");
 * QueryResult closed = byStatus.execute(QueryOptions.defaults().withWorkers(2), 3, "closed");
 * }</pre>
 *
 * A wrong count of values, or a value that does not fit its parameter's type (the type of what it is compared
 * with or stands for), is a {@link io.troupe.operators.sql.SqlException} naming the parameter, before anything
 * runs. Immutable and threadsafe: executions may run at once from many threads.
 */
public final class PreparedSql {

    private final Troupe troupe;
    private final PreparedPlan prepared;

    PreparedSql(Troupe troupe, PreparedPlan prepared) {
        this.troupe = troupe;
        this.prepared = prepared;
    }

    /** The statement, its parameters and their types. */
    public PreparedPlan prepared() {
        return prepared;
    }

    /** Runs the statement with {@code values} and {@link QueryOptions#defaults()}, returning all its rows. */
    public QueryResult execute(Object... values) {
        return troupe.execute(plan(values));
    }

    /** Runs the statement with {@code values} and {@code options}, returning all its rows. */
    public QueryResult execute(QueryOptions options, Object... values) {
        notNull(options, "PreparedSql.execute", "options");
        return troupe.execute(plan(values), options);
    }

    /** The plan with {@code values} in place of the parameters, to run, stream or explain like any other. */
    public Plan plan(Object... values) {
        return prepared.bind(values);
    }

    /** EXPLAIN of the statement as it runs with {@code values} ({@link Troupe#explain(Plan)}). Runs nothing. */
    public String explain(Object... values) {
        return troupe.explain(plan(values));
    }

    @Override
    public String toString() {
        return prepared.sql();
    }
}
