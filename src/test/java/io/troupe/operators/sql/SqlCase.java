package io.troupe.operators.sql;

import org.junit.jupiter.api.DynamicTest;

import java.util.List;
import java.util.stream.Stream;

/**
 * A statement for Troupe and DuckDB's statement of the same meaning (mostly the same text), compared in order or as
 * multisets: the cases of the type tests ({@code UuidSqlTest}, {@code BlobSqlTest}), run in UTC at each worker count.
 */
record SqlCase(String sql, String duckSql, boolean ordered) {

    /** One dynamic test per case and worker count, asserting that both engines return the same rows. */
    static Stream<DynamicTest> tests(SqlEngines engines, List<SqlCase> cases, int... workers) {
        return cases.stream().flatMap(c -> java.util.Arrays.stream(workers).mapToObj(w -> DynamicTest.dynamicTest(
                w + " workers: " + c.sql(), () -> engines.assertSameRowsInZone(c.sql(), c.duckSql(), "UTC", w,
                        c.ordered()))));
    }
}
