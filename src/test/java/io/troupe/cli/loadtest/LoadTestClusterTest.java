package io.troupe.cli.loadtest;

import io.troupe.actors.cluster.ClusterQueries;
import io.troupe.cli.CliRun;
import io.troupe.cli.TestClusters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code loadtest --cluster SEED} against a real local cluster of 2 node JVMs (as
 * {@code bin/troupe cluster start --nodes 2 --tables DIR} starts it) loading small CSV tables. With DuckDB
 * loading the same CSV files as the peer, every answer of the cluster must equal DuckDB's (the load test's
 * results check), every query completes and none fails; a workload or query over a table or column the
 * cluster lacks is refused with one line before any load; a node killed mid-run shows as "node lost" among
 * the errors while the survivor goes on. The cluster is stopped by its pids in the finally; no timing is
 * asserted.
 */
class LoadTestClusterTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void shouldLoadARunningClusterAsDuckDbAnswersAndCountALostNode() throws Exception {
        Path tables = ClusterQueries.writeTables(dir.resolve("tables"), 20_261_205L);
        StringBuilder t = new StringBuilder("i INT32 NOT NULL\n");
        for (int i = 1; i <= 2000; i++) {
            t.append(i).append('\n');
        }
        Files.writeString(tables.resolve("t.csv"), t);
        Path queries = Files.createDirectories(dir.resolve("queries"));
        Files.writeString(queries.resolve("a.plan"), "scan orders | join scan customers on orders.customer = "
                + "customers.id\n| aggregate by customers.region : sum(orders.amount) as total, count(*) as n\n");
        Files.writeString(queries.resolve("a.sql"), "select c.region, sum(o.amount), count(*) from orders o "
                + "join customers c on o.customer = c.id group by c.region");
        Files.writeString(queries.resolve("b.plan"), "scan orders | aggregate : count(*) as n, max(id) as top");
        Files.writeString(queries.resolve("b.sql"), "select count(*), max(id) from orders");

        TestClusters.Running cluster = TestClusters.start(2, dir.resolve("run"), tables, List.of(), Map.of());
        try {
            String seed = cluster.nodeIds().get(0);
            Path out = dir.resolve("out");
            CliRun r = CliRun.of(command(), "--cluster", seed, "--workload", "w1", "--queries", queries.toString(),
                    "--tables", tables.toString(), "--peer", "duckdb", "--clients", "2", "--duration", "3s",
                    "--warmup", "500ms", "--interval", "500ms", "--workers", "1", "--out", out.toString());
            assertEquals(0, r.exitCode(), r.out() + r.err());
            assertTrue(r.out().contains("the cluster's 2 nodes (" + String.join(", ", cluster.nodeIds())
                    + ") with 1 worker each"), r.out());
            assertTrue(r.err().contains("have the tables read: t (i int32), orders ("), r.err());
            // The answers both engines gave on every run (a different one fails the run): W1 over t is its count.
            assertTrue(r.out().contains("  w1: 1 row, checksum 2000\n"), r.out());
            assertTrue(r.out().contains("  b: 1 row, checksum "), r.out());
            assertTrue(r.out().contains("cluster against duckdb in the same run"), r.out());
            List<Map<String, String>> rows = LoadTestCommandTest.csv(out);
            for (String engine : List.of(ClusterTarget.ID, "duckdb")) {
                for (String query : List.of("w1", "a", "b", LoadRecorder.ALL)) {
                    Map<String, String> total = LoadTestCommandTest.total(rows, engine, query);
                    long completed = Long.parseLong(total.get("completed"));
                    assertTrue(completed > 0, engine + "/" + query);
                    assertEquals(0, Long.parseLong(total.get("errors")), engine + "/" + query);
                    assertEquals(Long.parseLong(total.get("issued")), completed, engine + "/" + query);
                }
            }
            assertTrue(rows.stream().anyMatch(x -> x.get("scope").equals("interval")
                    && x.get("engine").equals(ClusterTarget.ID)), "interval rows");

            // A workload over a table the cluster lacks, a query over a column it lacks: one line, no load.
            String missing = badArgument("--cluster", seed, "--workload", "w1,w2");
            assertTrue(missing.startsWith("--cluster " + seed + ": the cluster cannot give table pgbench_accounts, "
                    + "which workload w2 reads: query "), missing);
            assertTrue(missing.contains("unknown table 'pgbench_accounts'; known tables: [customers, orders, t]"),
                    missing);
            Path unfit = Files.writeString(dir.resolve("unfit.plan"), "scan orders | project price");
            String column = badArgument("--cluster", seed, "--queries", unfit.toString());
            assertTrue(column.startsWith("--cluster " + seed + ": " + unfit + " does not fit the cluster's tables "
                    + "(orders (id int64, customer int32, "), column);
            assertTrue(column.contains("unknown column 'price'"), column);

            // A node killed while the load runs: the queries it took part in fail as "node lost"; the survivor
            // answers the rest alone, as before (the results check still holds).
            Path lossOut = dir.resolve("loss");
            StringWriter err = new StringWriter();
            StringWriter stdout = new StringWriter();
            LoadTestCommand command = command();
            CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> CliRun.execute(command, stdout, err,
                    "--cluster", seed, "--queries", queries.toString(), "--clients", "2", "--duration", "30s", "--warmup", "0s",
                    "--workers", "1", "--out", lossOut.toString()));
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!err.toString().contains("loadtest: b: cluster alone")) {
                assertFalse(run.isDone(), "the run ended before its load: " + stdout + err);
                assertTrue(System.nanoTime() < deadline, "no preflight within 2 minutes: " + err);
                TimeUnit.MILLISECONDS.sleep(50);
            }
            cluster.kill(1);
            int code = run.get(4, TimeUnit.MINUTES);
            assertEquals(0, code, stdout + "\n" + err);
            assertTrue(stdout.toString().contains(ErrorKinds.NODE_LOST), stdout.toString());
            List<Map<String, String>> lossRows = LoadTestCommandTest.csv(lossOut);
            long completed = lossRows.stream().filter(x -> x.get("scope").equals("total")
                    && x.get("query").equals(LoadRecorder.ALL)).mapToLong(x -> Long.parseLong(x.get("completed")))
                    .sum();
            assertTrue(completed > 0, "the survivor answered: " + lossRows);
        } finally {
            System.out.println("LoadTestClusterTest: " + cluster.stop().strip().replace('\n', ';'));
        }
    }

    /** The load test with the nodes' fast failure detector, as the cluster's nodes have it. */
    private static LoadTestCommand command() {
        LoadTestCommand command = new LoadTestCommand();
        command.clusterConfig = TestClusters.fastDetector();
        command.tty = false;
        return command;
    }

    /** Runs a load test that must be refused; returns its one line without the command and the help hint. */
    private String badArgument(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        Path out = dir.resolve("refused");
        all.addAll(List.of("--out", out.toString()));
        CliRun r = CliRun.of(command(), all.toArray(new String[0]));
        assertEquals(2, r.exitCode(), String.join(" ", args) + ": " + r.out() + r.err());
        assertFalse(Files.exists(out.resolve("latency.csv")), "nothing ran");
        List<String> lines = r.err().lines().filter(l -> l.startsWith("troupe loadtest: ")).toList();
        assertEquals(1, lines.size(), r.err());
        String line = lines.get(0);
        assertTrue(line.endsWith(" (see --help)"), line);
        return line.substring("troupe loadtest: ".length(), line.length() - " (see --help)".length());
    }
}
