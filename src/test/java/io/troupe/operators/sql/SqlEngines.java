package io.troupe.operators.sql;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;

import org.junit.jupiter.api.DynamicTest;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A Troupe and DuckDB holding the same tables, for the SQL tests that compare the two. */
public record SqlEngines(Troupe troupe, DuckDbOracle duck) implements AutoCloseable {

    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(60);

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

    /**
     * One test per query and worker count (0 and 2): each query returns DuckDB's rows of it in UTC, as multisets
     * ({@code multisets}) or in order ({@code ordered}).
     */
    public Stream<DynamicTest> sameRowsTests(List<String> multisets, List<String> ordered) {
        Stream<DynamicTest> unordered = multisets.stream().flatMap(sql -> Stream.of(0, 2).map(workers ->
                DynamicTest.dynamicTest(workers + " workers: " + sql,
                        () -> assertSameRowsInZone(sql, sql, "UTC", workers, false))));
        Stream<DynamicTest> inOrder = ordered.stream().flatMap(sql -> Stream.of(0, 2).map(workers ->
                DynamicTest.dynamicTest(workers + " workers, ordered: " + sql,
                        () -> assertSameRowsInZone(sql, sql, "UTC", workers, true))));
        return Stream.concat(unordered, inOrder);
    }

    /** Troupe's rows of {@code sql}, run with 2 workers, normalised as DuckDB's are. */
    public List<List<Object>> troupeRows(String sql) {
        return DuckDbOracle.normalise(troupe.sql(sql, QueryOptions.defaults().withWorkers(2)
                .withTimeout(QUERY_TIMEOUT)).rows());
    }

    /** DuckDB's rows of {@code sql}. */
    public List<List<Object>> duckRows(String sql) throws Exception {
        return duck.query(sql).rows();
    }

    /** The first value of Troupe's first row of {@code sql}, as the Java API gives it. */
    public Object troupeValue(String sql) {
        return troupe.sql(sql, QueryOptions.defaults().withTimeout(QUERY_TIMEOUT)).rows().get(0).get(0);
    }

    /** The SQL name of the type of Troupe's first column of {@code sql}. */
    public String troupeType(String sql) {
        return troupe.sql(sql, QueryOptions.defaults().withTimeout(QUERY_TIMEOUT)).schema().field(0).type().sqlName();
    }

    /** The type of DuckDB's first column of {@code sql}, as DuckDB names it ({@code DECIMAL(38,2)}, {@code DOUBLE}). */
    public String duckType(String sql) throws Exception {
        return duck.query(sql).columnTypes().get(0);
    }

    /** Asserts that Troupe fails {@code sql} with a message holding {@code part}. */
    public void assertFails(String sql, String part) {
        RuntimeException e = assertThrows(RuntimeException.class, () -> troupeRows(sql), sql);
        assertTrue(e.getMessage().contains(part), () -> sql + ": " + e.getMessage());
    }

    @Override
    public void close() throws Exception {
        troupe.close();
        duck.close();
    }
}
