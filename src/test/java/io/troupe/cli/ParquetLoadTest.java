package io.troupe.cli;

import io.troupe.oracle.DuckDbOracle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code troupe sql --load DIR} over a folder with Parquet files that DuckDB writes: each is the table of its
 * name, queried as DuckDB answers the same query over the same file; a folder with one bad Parquet file fails
 * naming it, before any table is registered.
 */
class ParquetLoadTest {

    private static final String QUERY = "SELECT carrier, COUNT(*) AS flights, SUM(delay) AS delay, MIN(departed) AS first"
            + " FROM flights GROUP BY carrier ORDER BY carrier";

    @Test
    void shouldLoadEachParquetFileAsTheTableOfItsName(@TempDir Path dir) throws Exception {
        String expected;
        try (DuckDbOracle duck = new DuckDbOracle()) {
            duck.execute("COPY (SELECT ['AA', 'UA', 'DL'][1 + i % 3] AS carrier, (i * 7 % 90)::DECIMAL(6,1) AS delay,"
                    + " TIMESTAMP '2024-01-01' + INTERVAL (i) MINUTE AS departed FROM range(5000) AS r(i)) TO '"
                    + dir.resolve("flights.parquet") + "' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 2048)");
            duck.execute("COPY (SELECT 'AA' AS code, 'American' AS name) TO '" + dir.resolve("carriers.parquet")
                    + "' (FORMAT parquet)");
            StringBuilder csv = new StringBuilder("carrier,flights,delay,first\n");
            String inDuckDb = QUERY.replace("FROM flights", "FROM '" + dir.resolve("flights.parquet") + "'");
            for (List<Object> row : duck.query("SELECT carrier, flights, delay, first::VARCHAR FROM (" + inDuckDb
                    + ") ORDER BY carrier").rows()) {
                csv.append(row.get(0)).append(',').append(row.get(1)).append(',')
                        .append(((java.math.BigDecimal) row.get(2)).setScale(1)).append(',')
                        .append(row.get(3)).append('\n');
            }
            expected = csv + "code,name\nAA,American\n";
        }
        CliRun r = CliRun.of(new TroupeCli(), "sql", "--load", dir.toString(), "--format", "csv",
                "-c", QUERY + "; SELECT code, name FROM carriers");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(expected, r.out());
    }

    @Test
    void shouldFailNamingTheBadFileBeforeRegisteringAnyTable(@TempDir Path dir) throws Exception {
        try (DuckDbOracle duck = new DuckDbOracle()) {
            duck.execute("COPY (SELECT 1 AS id) TO '" + dir.resolve("good.parquet") + "' (FORMAT parquet)");
            duck.execute("COPY (SELECT [1, 2] AS tags) TO '" + dir.resolve("nested.parquet") + "' (FORMAT parquet)");
        }
        Files.writeString(dir.resolve("text.parquet"), "id\n1\n");
        CliRun r = CliRun.of(new TroupeCli(), "sql", "--load", dir.toString(), "-c", "SELECT id FROM good");
        assertEquals(1, r.exitCode());
        assertTrue(r.err().contains(dir.resolve("nested.parquet") + ": column tags: LIST is not supported yet"), r.err());
        assertEquals("", r.out());
    }
}
