package io.troupe.operators.sql;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A Troupe and DuckDB holding the same tables, for the SQL tests that compare the two. */
public record SqlEngines(Troupe troupe, DuckDbOracle duck) implements AutoCloseable {

    /** Over the {@link SqlTables} of {@code seed}. */
    public static SqlEngines start(long seed) throws Exception {
        return over(SqlTables.generate(seed));
    }

    public static SqlEngines over(List<Table> tables) throws Exception {
        Troupe troupe = Troupe.start(TroupeSettings.load());
        tables.forEach(troupe::register);
        DuckDbOracle duck = new DuckDbOracle();
        duck.load(tables);
        return new SqlEngines(troupe, duck);
    }

    /** Asserts that {@code plan}, run with 2 workers, returns DuckDB's rows of {@code sql}, as multisets, and some. */
    public void assertSameRows(String sql, Plan plan) throws Exception {
        List<List<Object>> expected = duck.query(sql).rows();
        List<List<Object>> actual = DuckDbOracle.normalise(
                troupe.execute(plan, QueryOptions.defaults().withWorkers(2)).rows());
        assertFalse(expected.isEmpty(), sql);
        assertNull(ResultComparator.compare(expected, actual, false), () -> sql + "\n" + troupe.explain(plan));
    }

    /**
     * Asserts that {@code sql}, run with {@code workers} workers in session time zone {@code zone}, returns DuckDB's
     * rows of {@code duckSql} in that zone (in order when {@code ordered}, else as multisets).
     */
    public void assertSameRowsInZone(String sql, String duckSql, String zone, int workers, boolean ordered)
            throws Exception {
        duck.execute("SET TimeZone = '" + zone + "'");
        List<List<Object>> expected = duck.query(duckSql).rows();
        QueryResult result = troupe.sql(sql, QueryOptions.defaults().withWorkers(workers)
                .withTimeout(Duration.ofSeconds(60)).withTimeZone(ZoneId.of(zone)));
        List<List<Object>> actual = DuckDbOracle.normalise(result.rows());
        assertNull(ResultComparator.compare(expected, actual, ordered), () -> sql + " in " + zone);
    }

    @Override
    public void close() throws Exception {
        troupe.close();
        duck.close();
    }
}
