package io.troupe.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A bad argument to any command of {@code bin/troupe} gets one line on stderr, naming the command and
 * what was wrong, and exit status 2, before any work starts: nothing on stdout, no file written, no
 * stack trace.
 */
class BadArgumentsTest {

    @Test
    @Timeout(60)
    void demo() {
        assertBad("troupe demo: --rows must be in 1..2147483647 (an INT32 column), got -5", "demo", "--rows", "-5");
        assertBad("troupe demo: --rows must be in 1..2147483647 (an INT32 column), got 0", "demo", "--rows", "0");
        assertBad("troupe demo: --workers must be in 0..256, got 300", "demo", "--workers", "300");
        assertBad("troupe demo: Invalid value for option '--rows': 'many' is not a long", "demo", "--rows", "many");
        assertBad("troupe demo: Unknown options: '--rowz', '5'", "demo", "--rowz", "5");
    }

    @Test
    @Timeout(60)
    void bench(@TempDir Path dir) throws IOException {
        String out = dir.resolve("results").toString();
        assertBad("troupe bench: --workers must be in 0..256, got 300", "bench", "--workers", "1,300", "--out", out);
        assertBad("troupe bench: --runs must be at least 1, got -2", "bench", "--runs", "-2", "--out", out);
        assertBad("troupe bench: --warmups must be 0 or more, got -1", "bench", "--warmups", "-1", "--out", out);
        assertBad("troupe bench: --scale must be a positive scale factor, got Infinity", "bench", "--scale",
                "Infinity", "--out", out);
        assertBad("troupe bench: unknown workload 'w4' in --workload (known: w1, w2, w3, star, tpch, tpcds)", "bench", "--workload", "w4",
                "--out", out);
        assertBad("troupe bench: --lessons needs --ablation (or run troupe ablation)", "bench", "--lessons", "s1",
                "--out", out);
        assertBad("troupe bench: --nodes takes NxW (N node JVMs with W workers each, e.g. 2x1), got '2x'", "bench",
                "--nodes", "1x2,2x", "--out", out);
        assertBad("troupe bench: --nodes 0x1: N (node JVMs) must be in 1..32, got 0", "bench", "--nodes", "0x1",
                "--out", out);
        assertBad("troupe bench: --nodes 3x300: W (workers per node) must be in 1..256, got 300", "bench", "--nodes",
                "3x300", "--out", out);
        assertBad("troupe bench: --nodes 2x0: W (workers per node) must be in 1..256, got 0", "bench", "--nodes",
                "2x0", "--out", out);
        assertBad("troupe bench: --nodes does not go with --ablation (its settings run in one JVM)", "bench",
                "--ablation", "--nodes", "2x1", "--out", out);
        assertBad("troupe bench: --node-heap must be a size like 512m or 2g, got '2 GB'", "bench", "--nodes", "2x1",
                "--node-heap", "2 GB", "--out", out);
        assertBad("troupe bench: --node-set sets the node JVMs of --nodes, and none was given", "bench",
                "--node-set", "troupe.cluster.data-term-length=1m", "--out", out);
        assertBad("troupe bench: --node-set takes troupe.* settings, got 'pekko.loglevel'", "bench", "--nodes", "2x1",
                "--node-set", "pekko.loglevel=DEBUG", "--out", out);
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        assertBad("troupe bench: --out " + file + " is not a writable directory", "bench", "--out", file.toString());
        assertFalse(Files.exists(dir.resolve("results")), "no argument passed: nothing was made");
    }

    @Test
    @Timeout(60)
    void ablation(@TempDir Path dir) throws IOException {
        String out = dir.resolve("results").toString();
        for (String command : List.of("ablation", "bench --ablation")) {
            String[] words = command.split(" ");
            String name = "troupe " + words[0];
            assertBad(name + ": --workers must be in 1..256 in an ablation (0, the leader alone, runs no workers "
                    + "whose settings differ), got 0", args(words, "--workers", "0,2", "--out", out));
            assertBad(name + ": unknown lesson 's4' in --lessons (known: s1, s2, s3)",
                    args(words, "--lessons", "s1,s4", "--out", out));
            assertBad(name + ": --runs must be at least 1, got 0", args(words, "--runs", "0", "--out", out));
            assertBad(name + ": --rows must be in 1..2147483647 (an INT32 column), got -5",
                    args(words, "--rows", "-5", "--out", out));
            Path file = Files.writeString(dir.resolve("a-file"), "x");
            assertBad(name + ": --out " + file + " is not a writable directory",
                    args(words, "--lessons", "s2", "--out", file.toString()));
        }
        assertFalse(Files.exists(dir.resolve("results")), "no argument passed: nothing was made");
    }

    @Test
    @Timeout(60)
    void generate(@TempDir Path dir) throws IOException {
        assertBad("troupe generate: --scale must be a positive scale factor, got -1.0", "generate", "--benchmark",
                "tpch", "--scale", "-1");
        assertBad("troupe generate: --threads must be in 1..1024, got 5000", "generate", "--benchmark", "tpch",
                "--threads", "5000");
        assertBad("troupe generate: unknown benchmark 'tpcx'", "generate", "--benchmark", "tpcx");
        assertBad("troupe generate: Missing required option: '--benchmark=B'", "generate", "--scale", "1");
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        Path below = file.resolve("sub");
        assertBad("troupe generate: --out " + below + " is not a writable directory", "generate", "--benchmark",
                "tpch", "--scale", "0.01", "--out", below.toString());
    }

    @Test
    @Timeout(60)
    void node(@TempDir Path dir) throws IOException {
        String run = dir.resolve("run").toString();
        assertBad("troupe node: --seed: a seed node is host:port, got 'localhost'", "node", "--seed", "localhost",
                "--run-dir", run);
        assertBad("troupe node: --workers must be in 0..256, got -1", "node", "--workers", "-1", "--run-dir", run);
        assertBad("troupe node: troupe.cluster.port must be in 0..65535, got 70000", "node", "--port", "70000",
                "--run-dir", run);
        assertBad("troupe node: --port must be in 1..65535 for a node", "node", "--port", "0", "--run-dir", run);
        assertBad("troupe node: troupe.cluster.data-port must be in 0..65535, got 65536", "node", "--data-port",
                "65536", "--run-dir", run);
        assertBad("troupe node: troupe.cluster.host is 127.0.0.1, a loopback address (the default), but seed node"
                + " 10.1.2.3:25520 is on another host", "node", "--seed", "10.1.2.3:25520", "--run-dir", run);
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        assertBad("troupe node: --run-dir " + file + " is not a writable directory", "node", "--port", "1",
                "--run-dir", file.toString());
        assertBad("troupe node: --tables " + file + ": not a directory", "node", "--tables", file.toString(),
                "--run-dir", run);
        Path tables = Files.createDirectories(dir.resolve("tables"));
        Files.writeString(tables.resolve("t.csv"), "id INT32\nx\n");
        assertBad("troupe node: " + tables.resolve("t.csv") + ":2: column 1 (id INT32): not an integer: 'x'", "node",
                "--tables", tables.toString(), "--run-dir", run);
        Path good = Files.createDirectories(dir.resolve("good"));
        Files.writeString(good.resolve("t.csv"), "id INT32\n1\n");
        assertBad("troupe node: --partitioned needs --part I/N", "node", "--partitioned", "t",
                "--tables", good.toString(), "--run-dir", run);
        assertBad("troupe node: --partitioned needs --tables or --generate", "node", "--partitioned", "t",
                "--part", "1/2", "--run-dir", run);
        assertBad("troupe node: --generate takes BENCHMARK:SF (tpch or tpcds, a positive scale factor), got 'tpch'",
                "node", "--generate", "tpch", "--run-dir", run);
        assertBad("troupe node: --generate takes BENCHMARK:SF (tpch or tpcds, a positive scale factor), got"
                + " 'tpcx:1'", "node", "--generate", "tpcx:1", "--run-dir", run);
        assertBad("troupe node: --part takes I/N with 1 <= I <= N (this node's part of N), got '3/2'", "node",
                "--partitioned", "t", "--part", "3/2", "--tables", good.toString(), "--run-dir", run);
        assertBad("troupe node: --partitioned takes NAME or NAME:COLUMN, got 't:'", "node", "--partitioned", "t:",
                "--part", "1/2", "--tables", good.toString(), "--run-dir", run);
        assertBad("troupe node: --partitioned names table u, which the node does not load; it loads [t]", "node",
                "--partitioned", "u", "--part", "1/2", "--tables", good.toString(), "--run-dir", run);
        assertBad("troupe node: table t has no column k to partition by", "node", "--partitioned", "t:k",
                "--part", "1/2", "--tables", good.toString(), "--run-dir", run);
        assertFalse(Files.exists(dir.resolve("run")), "no argument passed: nothing was made");
    }

    @Test
    @Timeout(60)
    void clusterStart(@TempDir Path dir) {
        String run = dir.resolve("run").toString();
        assertBad("troupe cluster: a cluster command is missing, one of: start, status, stop", "cluster");
        assertBad("troupe cluster start: Missing required option: '--nodes=N'", "cluster", "start", "--run-dir", run);
        assertBad("troupe cluster start: --nodes must be in 1..32, got 0", "cluster", "start", "--nodes", "0",
                "--run-dir", run);
        assertBad("troupe cluster start: --base-port must leave 3 ports in 1..65535, got 65534", "cluster", "start",
                "--nodes", "3", "--base-port", "65534", "--run-dir", run);
        assertBad("troupe cluster start: --heap must be a size like 512m or 2g, got 'lots'", "cluster", "start",
                "--nodes", "3", "--heap", "lots", "--run-dir", run);
        assertBad("troupe cluster start: --set takes troupe.* settings, got 'pekko.loglevel'", "cluster", "start",
                "--nodes", "3", "--set", "pekko.loglevel=DEBUG", "--run-dir", run);
        assertBad("troupe cluster start: --tables " + dir.resolve("none") + ": not a directory", "cluster", "start",
                "--nodes", "3", "--tables", dir.resolve("none").toString(), "--run-dir", run);
        assertBad("troupe cluster start: --partitioned needs --tables or --generate", "cluster", "start",
                "--nodes", "3", "--partitioned", "orders", "--run-dir", run);
        assertBad("troupe cluster start: table lineitem has no column o_orderkey to partition by", "cluster", "start",
                "--nodes", "3", "--generate", "tpch:1", "--partitioned", "lineitem:o_orderkey", "--run-dir", run);
        // Settings errors name the key, as a node would report them, before any JVM starts.
        assertBad("troupe cluster start: troupe.cluster.split-brain-resolver.stable-after must be a duration (500ms,"
                + " 3s), got 'soon'", "cluster", "start", "--nodes", "3", "--set",
                "troupe.cluster.split-brain-resolver.stable-after=soon", "--run-dir", run);
        assertBad("troupe cluster start: unknown setting troupe.cluster.seeds (did you mean troupe.cluster.host?)",
                "cluster", "start", "--nodes", "3", "--set", "troupe.cluster.seeds=x", "--run-dir", run);
        assertBad("troupe cluster start: troupe.batch-size must be in 1..1048576, got 0", "cluster", "start",
                "--nodes", "3", "--set", "troupe.batch-size=0", "--run-dir", run);
        assertFalse(Files.exists(dir.resolve("run")), "no argument passed: nothing was made");
    }

    @Test
    @Timeout(60)
    void clusterStatusAndStopWithoutACluster(@TempDir Path dir) {
        for (String command : List.of("status", "stop")) {
            CliRun r = CliRun.of(new TroupeCli(), "cluster", command, "--run-dir", dir.toString());
            assertEquals(1, r.exitCode(), r.err());
            assertEquals("troupe cluster " + command + ": no cluster in " + dir + " (no cluster.properties): bin/troupe"
                    + " cluster start", r.err().trim());
            assertEquals("", r.out());
        }
    }

    @Test
    void noOrAnUnknownCommand() {
        assertBad("troupe: a command is missing, one of: demo, bench, ablation, generate");
        assertBad("troupe: Unmatched argument at index 0: 'benhc'", "benhc");
    }

    /** Runs {@code args} through bin/troupe's command line: exit 2, the one line, nothing else anywhere. */
    private static void assertBad(String line, String... args) {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        CliRun r;
        // demo prints to System.out (picocli's writer is for usage and errors): nothing may come there either.
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            r = CliRun.of(new TroupeCli(), args);
        } finally {
            System.setOut(saved);
        }
        String what = String.join(" ", args) + ": " + r.err();
        assertEquals(2, r.exitCode(), what);
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), what);
        assertTrue(lines.get(0).startsWith(line), what);
        assertTrue(lines.get(0).endsWith(" (see --help)"), what);
        assertEquals("", r.out() + printed.toString(StandardCharsets.UTF_8), what);
    }

    private static String[] args(String[] command, String... more) {
        String[] all = new String[command.length + more.length];
        System.arraycopy(command, 0, all, 0, command.length);
        System.arraycopy(more, 0, all, command.length, more.length);
        return all;
    }
}
