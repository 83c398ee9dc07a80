package io.troupe.golden;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.cluster.ClusterQueryStream;
import io.troupe.cli.TestClusters;
import io.troupe.cli.loadtest.TableFiles;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.PlanParser;
import io.troupe.operators.plan.PlanParser.ParsedPlan;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The golden files of {@link GoldenTest} on a real cluster: three node JVMs on this host sharing one
 * standalone media driver (what {@code bin/troupe cluster start} runs), started once for the class and
 * stopped by their pids after it, each loading every file's tables from CSV files (what
 * {@code node --tables} reads), queried from this JVM through a {@code TroupeCluster} client. Every query
 * spreads over the three nodes. A query case must return the file's expected rows and column types,
 * checked as GoldenTest checks them ({@link GoldenTest#assertRows}: in order where the plan sorts, as a
 * multiset for rowsort, an unordered LIMIT by its row count); an error case must fail with GoldenTest's
 * message ({@link GoldenTest#assertErrorMessage}). DuckDB's agreement with the expected rows is
 * GoldenTest's to check.
 *
 * <h2>The tables</h2>
 * The cluster has one catalog for all files. A table name that every file declares alike keeps its name; one
 * that files declare differently is loaded once per such file as {@code NAME__GROUP_FILE}, and that file's
 * plans scan it with its own name as alias ({@code scan t | ...} runs as {@code scan t__expr_edges as t | ...}),
 * so columns keep their qualifiers. The nodes load in chunks of 2 rows
 * ({@code troupe.cluster.table-chunk-rows}; the default, 16384, would leave each replicated table in one
 * chunk, read by one node) and run batches of 3 rows, as GoldenTest's parallel settings cut tables small
 * so that every worker gets morsels. {@code emp} is partitioned by the hash of {@code dept} (NULLs
 * included), {@code l} round robin, {@code r} by the hash of {@code a}; the rest are replicated.
 *
 * <p>One message differs from one JVM's by construction: "unknown table 'x'; known tables: [...]" lists
 * the catalog's tables, which in the cluster are every file's; the case expects the cluster's list there.
 *
 * <h2>Which cases</h2>
 * A run takes {@value #SAMPLE} cases drawn at random from all files, and prints its seed;
 * {@code -Dtroupe.golden.cluster.seed=S} replays a run, {@code -Dtroupe.golden.cluster.cases=all} runs
 * every case, {@code =join/inner.test} one file's and {@code =join/inner.test:14} one case. The seed also
 * draws each case's workers (1 or 2 a node) and its coordinator, from the seed and the case alone, so a
 * case replays alike in a sample, in all and alone.
 */
class GoldenClusterTest {

    private static final int NODES = 3;
    private static final int SAMPLE = 60;
    /** How long a case may take to start, and then between two batches; a bound, not a measurement. */
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Rows per chunk of the nodes' tables. */
    private static final int CHUNK_ROWS = 2;
    private static final Map<String, String> NODE_SETTINGS = Map.of(
            "troupe.cluster.table-chunk-rows", String.valueOf(CHUNK_ROWS),
            "troupe.batch-size", "3");
    private static final List<String> PARTITIONED = List.of("emp:dept", "l", "r:a");
    /** {@code scan NAME [as}, skipping strings and comments, in plan text (docs/plan-format.md). */
    private static final Pattern SCAN = Pattern.compile("'(?:[^']|'')*'|--[^\\n]*|\\b(scan)(\\s+)(\\w+)(\\s+as\\b)?",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern KNOWN_TABLES = Pattern.compile("known tables: \\[[^\\]]*\\]");

    /** One case to run: its file, the file's table renames (lower-case name to cluster name), the case. */
    private record Selected(GoldenFile file, Map<String, String> renames, GoldenCase c) {
        String where() {
            return file.name() + ".test:" + c.line();
        }
    }

    @TempDir
    static Path dir;

    private static long seed;
    private static List<Selected> selected;
    /** The cluster's tables, lower-case and sorted, as a node's catalog names them. */
    private static List<String> clusterTables;
    private static TestClusters.Running cluster;

    @BeforeAll
    @Timeout(300)
    static void startCluster() throws IOException, InterruptedException {
        String seedText = System.getProperty("troupe.golden.cluster.seed", "");
        seed = seedText.isEmpty() ? ThreadLocalRandom.current().nextLong() : Long.parseLong(seedText);
        List<GoldenFile> files = new ArrayList<>();
        for (Path path : GoldenTest.files()) {
            files.add(GoldenFile.read(GoldenTest.ROOT, path));
        }
        Map<GoldenFile, Map<String, String>> renames = writeTables(files, Files.createDirectories(dir.resolve("tables")));
        selected = select(files, renames, System.getProperty("troupe.golden.cluster.cases", ""));
        System.out.printf("GoldenClusterTest: %d cases, seed %d (-Dtroupe.golden.cluster.seed=%d replays them)%n",
                selected.size(), seed, seed);
        long start = System.nanoTime();
        cluster = TestClusters.start(NODES, dir.resolve("run"), dir.resolve("tables"), PARTITIONED, NODE_SETTINGS);
        System.out.printf(Locale.ROOT, "GoldenClusterTest: %d nodes up and listed by the client in %.1f s%n", NODES,
                (System.nanoTime() - start) / 1e9);
    }

    @AfterAll
    static void stopCluster() throws InterruptedException {
        if (cluster != null) {
            System.out.print("GoldenClusterTest: " + cluster.stop());
        }
    }

    /**
     * Writes every file's tables as CSV for the nodes, renaming those declared differently in several files,
     * and checks that each reads back as it was: a value the files cannot carry would fail here, naming it.
     *
     * @return per file, its renamed tables: lower-case name to the cluster's name
     */
    private static Map<GoldenFile, Map<String, String>> writeTables(List<GoldenFile> files, Path tables)
            throws IOException {
        Map<String, List<TableDef>> byName = new HashMap<>();
        for (GoldenFile file : files) {
            for (TableDef t : file.tables()) {
                byName.computeIfAbsent(t.name().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(t);
            }
        }
        Map<GoldenFile, Map<String, String>> renames = new LinkedHashMap<>();
        Map<String, Table> written = new LinkedHashMap<>();
        for (GoldenFile file : files) {
            Map<String, String> renamed = new HashMap<>();
            for (TableDef t : file.tables()) {
                String key = t.name().toLowerCase(Locale.ROOT);
                String name = t.name();
                if (byName.get(key).stream().anyMatch(other -> !sameContent(t, other))) {
                    name = t.name() + "__" + file.name().replace('/', '_');
                    renamed.put(key, name);
                }
                Table built = t.build(TableBuilder.DEFAULT_CHUNK_ROWS);
                written.putIfAbsent(name.toLowerCase(Locale.ROOT), new Table(name, built.schema(), built.chunks()));
            }
            renames.put(file, renamed);
        }
        for (Table t : written.values()) {
            TableFiles.write(t, tables);
        }
        for (Table read : TableFiles.read(tables, CHUNK_ROWS)) {
            Table wrote = written.get(read.name().toLowerCase(Locale.ROOT));
            assertEquals(wrote.schema(), read.schema(), read.name() + ": columns read back from CSV");
            assertEquals(byContent(new QueryResult(wrote.schema(), wrote.chunks()).rows()),
                    byContent(new QueryResult(read.schema(), read.chunks()).rows()),
                    read.name() + ": rows read back from CSV");
        }
        clusterTables = List.copyOf(new TreeSet<>(written.keySet()));
        return renames;
    }

    private static boolean sameContent(TableDef a, TableDef b) {
        return a.schema().equals(b.schema()) && byContent(a.rows()).equals(byContent(b.rows()));
    }

    /** {@code rows} with each BLOB's byte[] wrapped, so that rows compare by their bytes. */
    private static List<List<Object>> byContent(List<List<Object>> rows) {
        return rows.stream().map(row -> row.stream().map(v -> v instanceof byte[] b ? (Object) ByteBuffer.wrap(b) : v)
                .toList()).toList();
    }

    /** The cases {@code which} names (see the class comment), in file order. */
    private static List<Selected> select(List<GoldenFile> files, Map<GoldenFile, Map<String, String>> renames,
                                         String which) {
        List<Selected> all = new ArrayList<>();
        for (GoldenFile file : files) {
            for (GoldenCase c : file.cases()) {
                all.add(new Selected(file, renames.get(file), c));
            }
        }
        if (which.equals("all")) {
            return all;
        }
        if (which.isEmpty()) {
            List<Integer> indexes = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                indexes.add(i);
            }
            Collections.shuffle(indexes, new Random(seed));
            return indexes.subList(0, Math.min(SAMPLE, indexes.size())).stream().sorted().map(all::get).toList();
        }
        List<Selected> named = all.stream().filter(s -> which.contains(":") ? s.where().equals(which)
                : (s.file().name() + ".test").equals(which)).toList();
        assertTrue(!named.isEmpty(), "-Dtroupe.golden.cluster.cases=" + which + " names no case: give all, a file"
                + " (join/inner.test) or a case (join/inner.test:14, the line of its query or statement header)");
        return named;
    }

    @TestFactory
    Stream<DynamicTest> goldenCasesOnACluster() {
        return selected.stream().map(s -> {
            Random draws = new Random(seed ^ s.where().hashCode());
            int workers = 1 + draws.nextInt(2);
            int coordinator = draws.nextInt(NODES);
            String name = s.where() + " [node " + (coordinator + 1) + " of " + NODES + ", workers " + workers + "]";
            return DynamicTest.dynamicTest(name, () -> run(s, workers, coordinator, name + ", seed " + seed));
        });
    }

    private static void run(Selected s, int workers, int coordinator, String where) throws InterruptedException {
        GoldenCase c = s.c();
        ParsedPlan parsed = PlanParser.parse(clusterPlan(c.planText(), s.renames()), c.planLine(),
                s.file().name() + ".test");
        GoldenTest.assertOrderDefined(c, parsed, where);
        String expectedError = c.kind() == GoldenCase.Kind.ERROR ? clusterError(c.errorText()) : null;
        QueryOptions options = QueryOptions.defaults().withWorkers(workers).withTimeout(WAIT);
        try (ClusterQueryStream stream = cluster.client().stream(parsed.plan(), options,
                cluster.nodeIds().get(coordinator))) {
            QueryResult result = read(stream, where);
            if (expectedError != null) {
                throw GoldenTest.ranInsteadOfFailing(expectedError, where, result.rowCount());
            }
            assertEquals(NODES, stream.nodes(), where + ": the query spreads over every node of the host");
            GoldenTest.assertRows(c, parsed, result, true, where, () -> "plan as the cluster ran it:\n"
                    + clusterPlan(c.planText(), s.renames()));
        } catch (QueryFailedException e) {
            if (expectedError == null) {
                throw new AssertionError(where + ": the cluster failed the query: " + e.getMessage() + "\n"
                        + c.planText(), e);
            }
            GoldenTest.assertErrorMessage(expectedError, String.valueOf(e.getMessage()), workers, where, e);
        }
    }

    /** Every batch of the stream, each waited for at most {@link #WAIT}. */
    private static QueryResult read(ClusterQueryStream stream, String where) throws InterruptedException {
        try {
            Schema schema = stream.schema(WAIT);
            List<Batch> batches = new ArrayList<>();
            for (Batch b = stream.next(WAIT); b != null; b = stream.next(WAIT)) {
                batches.add(b);
            }
            return new QueryResult(schema, batches);
        } catch (TimeoutException e) {
            throw new AssertionError(where + ": no answer from the cluster within " + WAIT.toSeconds() + " s", e);
        }
    }

    /** {@code plan} scanning the cluster's name of each renamed table, under the file's name as alias. */
    static String clusterPlan(String plan, Map<String, String> renames) {
        Matcher m = SCAN.matcher(plan);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String table = m.group(3);
            String renamed = table == null ? null : renames.get(table.toLowerCase(Locale.ROOT));
            String replacement = renamed == null ? m.group()
                    : m.group(1) + m.group(2) + renamed + (m.group(4) != null ? m.group(4) : " as " + table);
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        return m.appendTail(out).toString();
    }

    /** An error text as the cluster says it: a list of known tables is the cluster's. */
    private static String clusterError(String text) {
        return KNOWN_TABLES.matcher(text).replaceAll(Matcher.quoteReplacement("known tables: " + clusterTables));
    }
}
