package io.troupe.cli.loadtest;

import io.troupe.actors.wire.RemoteFailure;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** What loadtest reads: query files, table files, durations and rates, and the errors each names. */
class LoadInputsTest {

    private static String error(Runnable read) {
        return assertThrows(IllegalArgumentException.class, read::run).getMessage();
    }

    @Test
    void shouldReadPlanFilesWithTheirSqlNamedByPathUnderTheDirectory(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("b.plan"), "-- the count\nseries x 1 10 | aggregate : count(*) as n\n");
        Files.writeString(dir.resolve("b.sql"), "select count(*) as n from generate_series(1, 10);\n");
        Files.writeString(dir.resolve("sub/a.plan"), "series x 1 3 | filter x > 1");
        Files.writeString(dir.resolve("notes.txt"), "not a plan");
        List<LoadQuery> queries = QueryFiles.read(dir);

        assertEquals(List.of("b", "sub/a"), queries.stream().map(LoadQuery::name).toList());
        assertEquals("select count(*) as n from generate_series(1, 10)", queries.get(0).sql());
        assertNull(queries.get(1).sql());
        assertEquals("Hash Aggregate count(*) AS n", queries.get(0).plan().label());
        assertEquals(List.of("a"), QueryFiles.read(dir.resolve("sub/a.plan")).stream().map(LoadQuery::name).toList());

        assertEquals("--queries " + dir.resolve("notes.txt") + ": expected a .plan file (one plan, see "
                        + "docs/plan-format.md) or a directory of them",
                error(() -> QueryFiles.read(dir.resolve("notes.txt"))));
        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertEquals("--queries " + empty + ": no .plan files in the directory", error(() -> QueryFiles.read(empty)));
        Files.writeString(dir.resolve("sub/c.plan"), "series x 1 3\n| sort x dsc");
        assertEquals(dir.resolve("sub/c.plan") + ":2:10: expected '|' or the end of the plan but found 'dsc'",
                error(() -> QueryFiles.read(dir)));
    }

    @Test
    void shouldReadCsvTablesWithTheirTypedHeader(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("orders.csv"),
                "id INT64 NOT NULL, amount DECIMAL(7,2),day date,note VARCHAR\n1,2.50,2024-01-31,\"a, b\"\n2,,,\n");
        List<Table> tables = TableFiles.read(dir);

        assertEquals(1, tables.size());
        Table orders = tables.get(0);
        assertEquals("orders", orders.name());
        assertEquals(Schema.of(Field.of("id", DataType.INT64).withNullable(false),
                Field.of("amount", DataType.decimal(7, 2)), Field.of("day", DataType.DATE),
                Field.of("note", DataType.VARCHAR)), orders.schema());
        assertEquals(2, orders.rowCount());

        Files.writeString(dir.resolve("bad.csv"), "id INT64,amount\n1,2\n");
        assertEquals(dir.resolve("bad.csv") + ":1: expected 'name TYPE [NOT NULL]', found: amount",
                error(() -> TableFiles.read(dir)));
        Files.writeString(dir.resolve("bad.csv"), "id INT32\nx\n");
        assertEquals(dir.resolve("bad.csv") + ":2: column 1 (id INT32): not an integer: 'x'",
                error(() -> TableFiles.read(dir)));
        assertEquals("--tables " + dir.resolve("orders.csv") + ": not a directory",
                error(() -> TableFiles.read(dir.resolve("orders.csv"))));
    }

    /** What {@link TableFiles#write} writes reads back the same: random values of every type, NULLs, awkward text. */
    @Test
    void shouldReadBackEveryValueItWrote(@TempDir Path dir) throws Exception {
        Schema schema = Schema.of(Field.of("i", DataType.INT32).withNullable(false), Field.of("l", DataType.INT64),
                Field.of("d", DataType.decimal(9, 2)), Field.of("day", DataType.DATE), Field.of("f", DataType.FLOAT64),
                Field.of("b", DataType.BOOLEAN), Field.of("s", DataType.VARCHAR));
        Random random = new Random(20_261_203L);
        String[] texts = {"", "plain", "a, b", "say \"hi\"", "two\nlines", "  spaced  ", "\u00e9t\u00e9", "NULL"};
        TableBuilder builder = new TableBuilder("mixed", schema, 100);
        for (int row = 0; row < 1_000; row++) {
            builder.addRow(random.nextInt(), nullOr(random, random.nextLong()),
                    nullOr(random, BigDecimal.valueOf(random.nextInt(2_000_000_000) - 1_000_000_000L, 2)),
                    nullOr(random, LocalDate.ofEpochDay(random.nextInt(40_000) - 20_000)),
                    nullOr(random, random.nextInt(10) == 0 ? Double.NaN : random.nextGaussian() * 1e6),
                    nullOr(random, random.nextBoolean()), nullOr(random, texts[random.nextInt(texts.length)]));
        }
        Table written = builder.build();
        TableFiles.write(written, dir);
        List<Table> read = TableFiles.read(dir);

        assertEquals(1, read.size());
        assertEquals(schema, read.get(0).schema());
        assertEquals(new QueryResult(schema, written.chunks()).rows(),
                new QueryResult(schema, read.get(0).chunks()).rows());
        // A node's troupe.cluster.table-chunk-rows: the same rows, in chunks of that many.
        Table small = TableFiles.read(dir, 7).get(0);
        assertEquals(143, small.chunks().size());
        assertEquals(6, small.chunks().get(142).size());
        assertEquals(new QueryResult(schema, written.chunks()).rows(), new QueryResult(schema, small.chunks()).rows());
    }

    private static Object nullOr(Random random, Object value) {
        return random.nextInt(8) == 0 ? null : value;
    }

    @Test
    void shouldParseDurationsAndRates() {
        assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
        assertEquals(Duration.ofSeconds(30), Durations.parse("30s"));
        assertEquals(Duration.ofSeconds(30), Durations.parse("30"));
        assertEquals(Duration.ofSeconds(90), Durations.parse("1.5m"));
        assertEquals(Duration.ofHours(2), Durations.parse("2h"));
        assertEquals(Duration.ZERO, Durations.parse("0s"));
        assertEquals("expected a duration like 500ms, 30s, 1.5m or 2h, got '-1s'", error(() -> Durations.parse("-1s")));
        assertEquals("1.5s", Durations.format(Duration.ofMillis(1500)));
        assertEquals("250ms", Durations.format(Duration.ofMillis(250)));

        assertEquals(20.0, Rates.parse("20/s"));
        assertEquals(0.5, Rates.parse("0.5/s"));
        assertEquals(1.5, Rates.parse("90/m"));
        assertEquals(7.0, Rates.parse("7"));
        assertEquals("expected a positive rate of queries like 20/s, 0.5/s or 90/m, got 'fast'",
                error(() -> Rates.parse("fast")));
        assertEquals("20", Rates.format(20.0));
        assertEquals("0.5", Rates.format(0.5));
    }

    @Test
    void shouldNameErrorKinds() {
        assertEquals("timeout", ErrorKinds.of(new QueryCancelledException("query 7 timed out after 1 s")));
        assertEquals("cancelled", ErrorKinds.of(new QueryCancelledException("cancelled: bye")));
        assertEquals("failed", ErrorKinds.of(new QueryFailedException("division by zero")));
        assertEquals("timeout", ErrorKinds.of(new SQLTimeoutException("too slow")));
        assertEquals("SQLException", ErrorKinds.of(new SQLException("syntax error")));
    }

    @Test
    void shouldNameTheErrorKindsOfACluster() {
        // As ClusterQueryStream reports the node that ran the query lost, and a node's own failure.
        assertEquals(ErrorKinds.NODE_LOST, ErrorKinds.of(new QueryFailedException("query 12: node 127.0.0.1:2552 "
                + "was lost while streaming (it stopped, or left the cluster)")));
        // As ServedQuery fails a spread query whose other node left, sent back over the wire.
        String peerLeft = "query 12 failed: node 127.0.0.1:2553 left the cluster while it ran its part";
        assertEquals(ErrorKinds.NODE_LOST, ErrorKinds.of(new QueryFailedException("query 12 failed on node "
                + "127.0.0.1:2552: " + peerLeft, new RemoteFailure(QueryFailedException.class.getName(), peerLeft))));
        assertEquals("timeout", ErrorKinds.of(new QueryFailedException("query 12 failed on node 127.0.0.1:2552: "
                + "query 3 timed out after 1 s", new RemoteFailure(QueryCancelledException.class.getName(),
                "query 3 timed out after 1 s"))));
        assertEquals("rejected", ErrorKinds.of(new QueryFailedException("query 12 failed on node 127.0.0.1:2552: "
                + "full", new RemoteFailure("io.troupe.actors.api.QueryRejectedException", "full"))));
        assertEquals("failed", ErrorKinds.of(new QueryFailedException("query 12 failed on node 127.0.0.1:2552: "
                + "division by zero", new RemoteFailure("io.troupe.operators.TroupeException", "division by zero"))));
        assertEquals("no node", ErrorKinds.of(new IllegalStateException("no node of Troupe cluster 'troupe' takes "
                + "queries now")));
    }
}
