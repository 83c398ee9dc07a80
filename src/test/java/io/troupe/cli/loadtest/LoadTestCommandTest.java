package io.troupe.cli.loadtest;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.RunningQuery;
import io.troupe.cli.CliRun;
import io.troupe.operators.plan.Plan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.troupe.operators.plan.Expr.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code troupe loadtest} end to end at tiny sizes: the files it writes and what they say, counts
 * that add up, DuckDB agreeing with Troupe, bad arguments, and the soak passing on a healthy run and
 * failing on a leak. No timing is asserted.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LoadTestCommandTest {

    private static final Pattern HGRM_COUNT = Pattern.compile("Total count\\s*=\\s*(\\d+)");

    /** latency.csv's rows as maps from the header's names. */
    static List<Map<String, String>> csv(Path dir) throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve("latency.csv"));
        assertEquals(LoadReport.CSV_HEADER, lines.get(0));
        String[] names = lines.get(0).split(",");
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            assertEquals(names.length, cells.length, line);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < names.length; i++) {
                row.put(names[i], cells[i]);
            }
            rows.add(row);
        }
        return rows;
    }

    static Map<String, String> total(List<Map<String, String>> rows, String engine, String query) {
        return rows.stream().filter(r -> r.get("scope").equals("total") && r.get("engine").equals(engine)
                        && r.get("query").equals(query)).findFirst()
                .orElseThrow(() -> new AssertionError(engine + "/" + query));
    }

    private static long number(Map<String, String> row, String column) {
        return Long.parseLong(row.get(column));
    }

    private static long hgrmCount(Path file) throws IOException {
        Matcher m = HGRM_COUNT.matcher(Files.readString(file));
        assertTrue(m.find(), file + " has no total count");
        return Long.parseLong(m.group(1));
    }

    @Test
    void shouldRunAClosedLoopBesideDuckDbAndWriteFilesThatAddUp(@TempDir Path out) throws Exception {
        CliRun r = CliRun.of(new LoadTestCommand(), "--workload", "w1,w2", "--rows", "2000", "--clients", "2",
                "--duration", "1s", "--rounds", "2", "--warmup", "300ms", "--interval", "200ms", "--workers", "1",
                "--peer", "duckdb", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        // Two rounds an engine, alternating: troupe, duckdb, then duckdb, troupe.
        List<String> rounds = r.err().lines().filter(l -> l.contains(" round ")).map(l -> l.split(" ")[1] + " "
                + l.split(" ")[3]).distinct().toList();
        assertEquals(List.of("troupe 1/2", "duckdb 1/2", "duckdb 2/2", "troupe 2/2"), rounds, r.err());
        assertTrue(r.out().contains("1s in 2 rounds, the engines alternating after a 300ms warm-up"), r.out());

        List<Map<String, String>> rows = csv(out);
        for (String engine : List.of("troupe", "duckdb")) {
            for (String query : List.of("w1", "w2", LoadRecorder.ALL)) {
                Map<String, String> t = total(rows, engine, query);
                // Closed loop: every query that started ended, completed or failed; none is late.
                assertEquals(number(t, "issued"), number(t, "completed") + number(t, "errors"), engine + "/" + query);
                assertEquals(0, number(t, "unstarted"));
                assertEquals(0, number(t, "errors"), engine + "/" + query + " errors");
                assertTrue(number(t, "completed") > 0, engine + "/" + query);
                // The intervals add up to the total.
                long inIntervals = rows.stream().filter(x -> x.get("scope").equals("interval")
                        && x.get("engine").equals(engine) && x.get("query").equals(query))
                        .mapToLong(x -> number(x, "completed")).sum();
                assertEquals(number(t, "completed"), inIntervals, engine + "/" + query);
                // The second round's intervals follow the first's on one time axis.
                List<Double> starts = rows.stream().filter(x -> x.get("scope").equals("interval")
                        && x.get("engine").equals(engine) && x.get("query").equals(query))
                        .map(x -> Double.parseDouble(x.get("from_s"))).toList();
                assertEquals(starts.stream().sorted().toList(), starts, engine + "/" + query);
                assertTrue(starts.get(starts.size() - 1) >= 0.5, engine + "/" + query + ": " + starts);
                double p50 = Double.parseDouble(t.get("latency_p50_ms"));
                double p99 = Double.parseDouble(t.get("latency_p99_ms"));
                double max = Double.parseDouble(t.get("latency_max_ms"));
                assertTrue(0 < p50 && p50 <= p99 && p99 <= max, engine + "/" + query + ": " + t);
            }
            assertEquals(number(total(rows, engine, "w1"), "completed")
                    + number(total(rows, engine, "w2"), "completed"),
                    number(total(rows, engine, LoadRecorder.ALL), "completed"));
        }
        assertEquals(number(total(rows, "troupe", LoadRecorder.ALL), "completed"),
                hgrmCount(out.resolve("latency.hgrm")));
        assertEquals(number(total(rows, "duckdb", LoadRecorder.ALL), "completed"),
                hgrmCount(out.resolve("latency-duckdb.hgrm")));
        assertEquals(number(total(rows, "duckdb", "w2"), "completed"),
                hgrmCount(out.resolve("latency-duckdb-w2.hgrm")));
        BufferedImage png = ImageIO.read(out.resolve("loadtest.png").toFile());
        assertNotNull(png);
        assertTrue(png.getWidth() > 600 && png.getHeight() > 400, png.getWidth() + "x" + png.getHeight());

        // Both engines returned W1's and W2's answers on every run (a wrong one fails the run).
        assertTrue(r.out().contains("  w1: 1 row, checksum 2000\n"), r.out());
        assertTrue(r.out().contains("  w2: 0 rows, checksum 0\n"), r.out());
        assertTrue(r.out().contains("troupe against duckdb in the same run"), r.out());
        assertTrue(r.out().contains("closed loop, 2 clients"), r.out());
        assertTrue(r.err().contains("loadtest: w1: duckdb alone: 1 rows"), r.err());
        assertTrue(r.err().contains("loadtest: troupe warm-up"), r.err());
    }

    @Test
    void shouldIssueWhatTheScheduleMakesDueInAnOpenLoop(@TempDir Path out) throws Exception {
        CliRun fixed = CliRun.of(new LoadTestCommand(), "--workload", "w2", "--rows", "1000", "--rate", "20/s",
                "--duration", "2s", "--warmup", "0s", "--clients", "2", "--workers", "0", "--out", out.toString());
        assertEquals(0, fixed.exitCode(), fixed.err());
        Map<String, String> t = total(csv(out), "troupe", LoadRecorder.ALL);
        // Due every 50 ms for 2 s: 40, each either started or counted late.
        assertEquals(40, number(t, "issued") + number(t, "unstarted"), t.toString());
        assertEquals(number(t, "issued"), number(t, "completed") + number(t, "errors"));
        assertTrue(fixed.out().contains("open loop at 20/s (evenly spaced), 2 clients"), fixed.out());

        CliRun poisson = CliRun.of(new LoadTestCommand(), "--workload", "w2", "--rows", "1000", "--rate", "20/s",
                "--arrival", "poisson", "--seed", "7", "--duration", "2s", "--warmup", "0s", "--clients", "2",
                "--workers", "0", "--out", out.toString());
        assertEquals(0, poisson.exitCode(), poisson.err());
        Arrivals schedule = Arrivals.poisson(20, 7);
        long due = 0;
        while (schedule.next().offsetNanos() < Duration.ofSeconds(2).toNanos()) {
            due++;
        }
        t = total(csv(out), "troupe", LoadRecorder.ALL);
        assertEquals(due, number(t, "issued") + number(t, "unstarted"), t.toString());
        assertTrue(poisson.out().contains("open loop at 20/s (Poisson, seed 7)"), poisson.out());
    }

    /** A directory with tables/orders.csv and queries/{a,b}.plan with their .sql. */
    private static Path plans(Path dir, String sqlOfB) throws IOException {
        Path tables = Files.createDirectories(dir.resolve("tables"));
        StringBuilder csv = new StringBuilder("id INT64 NOT NULL,customer INT32,amount DECIMAL(9,2)\n");
        for (int i = 1; i <= 300; i++) {
            csv.append(i).append(',').append(i % 7 == 0 ? "" : String.valueOf(i % 13)).append(',').append(i * 3)
                    .append(".25\n");
        }
        Files.writeString(tables.resolve("orders.csv"), csv);
        Path queries = Files.createDirectories(dir.resolve("queries"));
        Files.writeString(queries.resolve("a.plan"), "-- revenue by customer\nscan orders\n"
                + "| filter customer is not null\n| aggregate by customer : sum(amount) as revenue, count(*) as n\n");
        Files.writeString(queries.resolve("a.sql"), "select customer, sum(amount) as revenue, count(*) as n "
                + "from orders where customer is not null group by customer;\n");
        Files.writeString(queries.resolve("b.plan"), "scan orders | aggregate : count(*) as n, max(id) as top");
        Files.writeString(queries.resolve("b.sql"), sqlOfB);
        return dir;
    }

    @Test
    void shouldRunPlanFilesOverCsvTablesAndAgreeWithDuckDb(@TempDir Path dir) throws Exception {
        Path in = plans(dir, "select count(*) as n, max(id) as top from orders");
        Path out = dir.resolve("out");
        CliRun r = CliRun.of(new LoadTestCommand(), "--queries", in.resolve("queries").toString(), "--tables",
                in.resolve("tables").toString(), "--clients", "2", "--duration", "500ms", "--warmup", "0s",
                "--workers", "1", "--peer", "duckdb", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        // a: customers 0..12 with a non-NULL one; b: 300 rows, top id 300.
        assertTrue(r.out().contains("  a: 13 rows, checksum "), r.out());
        assertTrue(r.out().contains("  b: 1 row, checksum 600\n"), r.out());
        List<Map<String, String>> rows = csv(out);
        for (String engine : List.of("troupe", "duckdb")) {
            for (String query : List.of("a", "b")) {
                Map<String, String> t = total(rows, engine, query);
                assertEquals(number(t, "issued"), number(t, "completed") + number(t, "errors"));
                assertEquals(0, number(t, "errors"), engine + "/" + query);
            }
        }
    }

    @Test
    void shouldFailWhenDuckDbAnswersAQueryDifferently(@TempDir Path dir) throws Exception {
        Path in = plans(dir, "select count(*) + 1 as n, max(id) as top from orders");
        CliRun r = CliRun.of(new LoadTestCommand(), "--queries", in.resolve("queries").toString(), "--tables",
                in.resolve("tables").toString(), "--duration", "500ms", "--warmup", "0s", "--peer", "duckdb",
                "--workers", "1", "--out", dir.resolve("out").toString());
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().contains("loadtest: FAILED: b: results disagree: duckdb with 1 worker returned 1 rows, "
                + "checksum 601, but troupe with 1 worker returned 1 rows, checksum 600"), r.err());
        assertFalse(Files.exists(dir.resolve("out/latency.csv")), "no load ran");
    }

    private static String badArgument(Path out, String... args) {
        List<String> all = new ArrayList<>(Arrays.asList(args));
        all.addAll(List.of("--out", out.toString()));
        CliRun r = CliRun.of(new LoadTestCommand(), all.toArray(new String[0]));
        assertEquals(2, r.exitCode(), String.join(" ", args) + ": " + r.err());
        assertFalse(Files.exists(out.resolve("latency.csv")), "nothing ran");
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), r.err());
        String line = lines.get(0);
        String prefix = "troupe loadtest: ";
        String suffix = " (see --help)";
        assertTrue(line.startsWith(prefix) && line.endsWith(suffix), line);
        return line.substring(prefix.length(), line.length() - suffix.length());
    }

    @Test
    void shouldRejectBadArgumentsWithOneLineBeforeAnyWork(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        assertEquals("--clients must be in 1..1024, got 0", badArgument(out, "--workload", "w1", "--clients", "0"));
        assertEquals("--duration must be more than 0", badArgument(out, "--workload", "w1", "--duration", "0s"));
        assertTrue(badArgument(out, "--workload", "w1", "--duration", "soon")
                .endsWith("expected a duration like 500ms, 30s, 1.5m or 2h, got 'soon'"));
        assertTrue(badArgument(out, "--workload", "w1", "--rate", "0/s")
                .endsWith("expected a positive rate of queries like 20/s, 0.5/s or 90/m, got '0/s'"));
        assertEquals("--arrival poisson needs --rate (a closed loop has no schedule)",
                badArgument(out, "--workload", "w1", "--arrival", "poisson"));
        assertEquals("--arrival must be fixed or poisson, got 'bursty'",
                badArgument(out, "--workload", "w1", "--rate", "5", "--arrival", "bursty"));
        assertEquals("unknown workload 'w9' in --workload (known: w1, w2, w3, star)", badArgument(out, "--workload", "w9"));
        assertEquals("nothing to run: give --workload w1,w2,w3 and/or --queries FILE|DIR", badArgument(out));
        assertEquals("--workers must be in 0..256, got 300", badArgument(out, "--workload", "w1", "--workers", "300"));
        assertEquals("unknown peer 'postgres' in --peer (known: duckdb, none)",
                badArgument(out, "--workload", "w1", "--peer", "postgres"));
        assertEquals("--soak needs a --warmup: its baseline is read after the warm-up, once pools and caches have "
                        + "grown", badArgument(out, "--workload", "w1", "--soak", "--warmup", "0s"));
        assertEquals("--queries " + dir.resolve("none.plan") + ": no such file or directory",
                badArgument(out, "--queries", dir.resolve("none.plan").toString()));

        Path plan = dir.resolve("bad.plan");
        Files.writeString(plan, "scan t\n| filter (a > 1\n| limit 3\n");
        assertEquals(plan + ":3:1: expected ')' but found '|'", badArgument(out, "--queries", plan.toString()));
        Path good = dir.resolve("q/good.plan");
        Files.createDirectories(good.getParent());
        Files.writeString(good, "series x 1 10 | aggregate : count(*) as n");
        assertEquals(good + " has no companion good.sql for --peer duckdb to run",
                badArgument(out, "--queries", good.getParent().toString(), "--peer", "duckdb"));
        Path unknown = dir.resolve("unknown.plan");
        Files.writeString(unknown, "series x 1 10 | project y");
        assertTrue(badArgument(out, "--queries", unknown.toString())
                .startsWith(unknown + ": troupe cannot run it alone: unknown column 'y'"));
        Path tables = Files.createDirectories(dir.resolve("tables"));
        Files.writeString(tables.resolve("t.csv"), "a INT32,b DECMAL(7,2)\n1,2.00\n");
        assertEquals(tables.resolve("t.csv") + ":1: column b: unknown type: DECMAL(7,2)",
                badArgument(out, "--queries", good.toString(), "--tables", tables.toString()));

        // --cluster: what needs an embedded Troupe, or a peer without the cluster's tables, is refused up front.
        assertEquals("--cluster: a seed node is host:port, got 'localhost'",
                badArgument(out, "--cluster", "localhost", "--workload", "w1"));
        assertEquals("--rows and --scale size the data of an embedded Troupe; with --cluster the tables are the "
                + "nodes' own (cluster start --tables DIR or --generate)",
                badArgument(out, "--cluster", "127.0.0.1:1", "--workload", "w1", "--rows", "100"));
        assertEquals("--soak reads the embedded Troupe's resources; it does not go with --cluster (the nodes' are in "
                + "their JVMs)", badArgument(out, "--cluster", "127.0.0.1:1", "--workload", "w1", "--soak"));
        assertEquals("--tables with --cluster is the copy of the cluster's tables that --peer duckdb loads; the nodes "
                + "load their own (cluster start --tables DIR)",
                badArgument(out, "--cluster", "127.0.0.1:1", "--workload", "w1", "--tables", tables.toString()));
        assertEquals("--peer duckdb with --cluster needs --tables DIR: the CSV files the cluster's nodes loaded, for "
                + "the peer to load the same", badArgument(out, "--cluster", "127.0.0.1:1", "--workload", "w1",
                "--peer", "duckdb"));
        Files.writeString(tables.resolve("t.csv"), "a INT32\n1\n");
        assertEquals("--peer duckdb with --cluster loads only --tables " + tables + ", which has no "
                + "pgbench_accounts.csv (workload w2 reads table pgbench_accounts)", badArgument(out, "--cluster",
                "127.0.0.1:1,127.0.0.1:2", "--workload", "w2", "--peer", "duckdb", "--tables", tables.toString()));

        Path file = Files.writeString(dir.resolve("a-file"), "x");
        assertTrue(badArgument(file, "--workload", "w1").startsWith("--out " + file + " is not a writable directory"));
    }

    @Test
    void shouldPassTheSoakOnAHealthyRun(@TempDir Path out) throws Exception {
        CliRun r = CliRun.of(new LoadTestCommand(), "--workload", "w2", "--rows", "1000", "--clients", "2",
                "--duration", "1s", "--warmup", "1s", "--workers", "2", "--soak", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.out() + r.err());
        for (String gauge : List.of("heap after GC", "live threads", "running queries", "live workers", "open channels",
                "Aeron publications in use", "memory held by queries", "queries waiting to be admitted", "spill files",
                "spill bytes held")) {
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith("  ok      " + gauge + " ")), gauge + ": " + r.out());
        }
    }

    @Test
    void shouldFailTheSoakLoudlyWhenAThreadAndAQueryAreLeaked(@TempDir Path out) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<RunningQuery> leaked = new AtomicReference<>();
        Thread leak = new Thread(() -> {
            try {
                release.await(2, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "leaked-by-the-test");
        LoadTestCommand command = new LoadTestCommand();
        command.soakSettle = Duration.ofSeconds(1);
        command.beforeSoakCheck = troupe -> {
            leak.start();
            leaked.set(troupe.submit(Plan.series("x", 1, Long.MAX_VALUE).aggregate(List.of(), count().as("n")),
                    QueryOptions.defaults().withWorkers(1)));
        };
        try {
            CliRun r = CliRun.of(command, "--workload", "w2", "--rows", "1000", "--duration", "500ms",
                    "--warmup", "500ms", "--workers", "1", "--soak", "--out", out.toString());
            assertEquals(1, r.exitCode(), r.out() + r.err());
            // One line per resource that did not come back, naming it with its value before and after
            // (the leaked query also holds the memory it was admitted with).
            List<String> failed = r.err().lines().filter(l -> l.startsWith("loadtest: FAILED: soak: ")).toList();
            assertEquals(4, failed.size(), r.err());
            Matcher threads = Pattern.compile(
                    "loadtest: FAILED: soak: live threads (\\d+) -> (\\d+) \\(may grow by 0\\)").matcher(failed.get(0));
            assertTrue(threads.matches(), failed.get(0));
            assertEquals(Long.parseLong(threads.group(1)) + 1, Long.parseLong(threads.group(2)), failed.get(0));
            assertEquals("loadtest: FAILED: soak: running queries 0 -> 1 (may grow by 0)", failed.get(1));
            assertEquals("loadtest: FAILED: soak: live workers 0 -> 1 (may grow by 0)", failed.get(2));
            assertTrue(failed.get(3).startsWith("loadtest: FAILED: soak: memory held by queries 0.0 MiB -> "), failed.get(3));
            assertTrue(r.out().contains("  FAILED  running queries 0 -> 1 (may grow by 0)"), r.out());
            assertTrue(r.out().contains("  ok      heap after GC "), r.out());
        } finally {
            release.countDown();
            if (leaked.get() != null) {
                leaked.get().cancel("test over");
            }
            leak.join(TimeUnit.SECONDS.toMillis(10));
        }
    }
}
