package io.troupe.cli;

import io.troupe.operators.table.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * {@code troupe bench}: generates the workload tables in Troupe and in each peer, then times every
 * workload on every engine and worker count after a warm-up, alternating engines and worker counts
 * within each round (and reversing the order every other round) so that the machine's noise spreads
 * evenly. Prints a table of medians, min-max and speedups, and writes DIR/results.csv (one line per
 * timed run) and DIR/chart.png. Every run, warm-ups included, must agree with the workload's first
 * run on rows and checksum; a disagreement stops the bench with exit status 1 and names both runs.
 * Every argument is checked before any work; a bad one exits with 2. Progress goes to stderr, results
 * to stdout. With {@code --nodes NxW,...} Troupe runs again as local clusters of N node JVMs with W
 * workers each ({@link ClusterBenchEngine}, engines {@code troupe NxW}), one cluster per workload and
 * configuration, started after the tables are written as CSV and stopped (by pid) when the workload is
 * done or the bench fails. With {@code --sql} Troupe runs each workload's SQL text as well
 * ({@link TroupePlannerBenchEngine}, engine {@code troupe-sql}), to hold the SQL planner's plan against the
 * hand-built one; with {@code --optimize} it runs the optimizer's plan of each workload's plan as first written
 * (engine {@code troupe-optimized}). With {@code --ablation} it runs {@code troupe ablation} instead ({@link AblationCommand}),
 * with the ablation's defaults for what it was not given. Both run the rounds of {@link Rounds}.
 *
 * <p>Not threadsafe: picocli runs it once, on the calling thread.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Time the workloads on Troupe and its peers with 0..n workers.",
            "Writes DIR/results.csv (" + BenchReport.CSV_HEADER + ") and DIR/chart.png."})
final class BenchCommand implements Callable<Integer> {

    /** Lets a test alter an outcome before it is checked, to prove that a disagreement fails. */
    @FunctionalInterface
    interface OutcomeSeam {
        BenchOutcome apply(String engine, int workers, BenchOutcome outcome);
    }

    @Option(names = "--workload", split = ",", paramLabel = "W",
            description = "workloads to run, of w1 (self join), w2 (grouping), w3 (TPC-DS query 2), star (TPC-DS "
                    + "query 52), or tpch or tpcds alone (the 22 TPC-H or the TPC-DS queries from SQL at --scale, against "
                    + "DuckDB, those Troupe does not plan skipped; writes DIR/tpch.csv or DIR/tpcds.csv) "
                    + "(default: ${DEFAULT-VALUE})")
    List<String> workloads = new ArrayList<>(List.of("w1", "w2"));

    @Option(names = "--queries", split = ",", paramLabel = "Q",
            description = "with --workload tpch or tpcds: only these of its queries, e.g. q1,q14a (default: all)")
    List<String> queries = new ArrayList<>();

    @Mixin
    RoundOptions rounds = new RoundOptions(1_000_000, List.of(0, 1, 2));

    @Option(names = "--peers", split = ",", paramLabel = "P",
            description = "peers measured in the same run: duckdb, or none (default: ${DEFAULT-VALUE})")
    List<String> peers = new ArrayList<>(List.of("duckdb"));

    @Option(names = "--sql",
            description = {"also run each workload's SQL text through Troupe's SQL planner (engine troupe-sql, "
                    + "planned afresh each run, the planning untimed), beside engine troupe's hand-built plan"})
    boolean sql;

    @Option(names = "--optimize",
            description = {"also run each workload's plan as first written through Troupe's optimizer (engine "
                    + "troupe-optimized, optimized afresh each run, untimed; STAR's is written in a bad order)"})
    boolean optimize;

    @Option(names = "--nodes", split = ",", paramLabel = "NxW",
            description = {"also run Troupe as local clusters of N node JVMs with W workers each, e.g. 1x2,2x1 "
                    + "(engines troupe NxW; each node loads the workload's tables from CSV files written under "
                    + "DIR/tables and the query spreads over all N); compare with the others at N*W workers"})
    List<String> nodes = new ArrayList<>();

    @Option(names = "--node-heap", paramLabel = "SIZE",
            description = "each node JVM's -Xmx with --nodes (default: ${DEFAULT-VALUE})")
    String nodeHeap = "2g";

    @Option(names = "--node-set", paramLabel = "KEY=VALUE",
            description = "a troupe.* setting for every node JVM of --nodes, e.g. troupe.cluster.data-term-length=1m")
    Map<String, String> nodeSettings = new TreeMap<>();

    @Option(names = "--memory", split = ",", paramLabel = "D",
            description = {"also run every engine under 1/D of the memory each workload needs (Troupe's peak in "
                    + "memory, its nodes together, at the most workers), as engines troupe@1/D (troupe.memory.budget; "
                    + "its operators spill to troupe.spill.directory) and duckdb@1/D (memory_limit, temp_directory "
                    + "under DIR): the cost of spilling, e.g. --memory 4,20"})
    List<Integer> memoryDivisors = new ArrayList<>();

    @Option(names = "--ablation",
            description = {"run `troupe ablation` instead, with these arguments and the ablation's defaults for the "
                    + "others (--rows 10000000, --workers 1, 2, 4, ... processors; 0 not allowed); --workload and "
                    + "--peers are ignored"})
    boolean ablation;

    @Mixin
    AblationOptions lessons = new AblationOptions();

    @Spec
    CommandSpec spec;

    /** How long a cluster of --nodes may take to come up, and its client to see every node. */
    private static final Duration CLUSTER_UP = Duration.ofSeconds(120);

    /** The JDBC URL of peer duckdb; a test points it at a driver that does not exist. */
    String duckDbUrl = DuckDbBenchEngine.URL;

    OutcomeSeam seam = (engine, workerCount, outcome) -> outcome;

    /** The node JVMs' classpath; a test gives surefire's. */
    String classpath = System.getProperty("java.class.path");

    /** JVM options for each node after its -Xmx; a test makes them lighter. */
    List<String> nodeJvmFlags = List.of();

    @Override
    public Integer call() throws Exception {
        ParseResult parsed = spec.commandLine().getParseResult();
        if (ablation) {
            if (parsed.hasMatchedOption("--nodes")) {
                throw RoundOptions.bad(spec, "--nodes does not go with --ablation (its settings run in one JVM)");
            }
            AblationCommand delegate = new AblationCommand();
            delegate.lessons = lessons;
            delegate.rounds = rounds.givenOr(parsed, AblationCommand.defaults());
            delegate.seam = seam;
            return delegate.run(spec, "bench --ablation");
        }
        if (parsed.hasMatchedOption("--lessons")) {
            throw RoundOptions.bad(spec, "--lessons needs --ablation (or run troupe ablation)");
        }
        for (String workload : workloads) {
            QuerySetBench.QuerySet set = QuerySetBench.QuerySet.named(workload);
            if (set != null) {
                return querySet(set, parsed);
            }
        }
        if (!queries.isEmpty()) {
            throw bad("--queries goes with --workload tpch or tpcds");
        }
        List<BenchWorkload> chosen = parseWorkloads();
        List<Integer> counts = rounds.check(spec, 0, "");
        List<String> peerIds = parsePeers();
        List<Integer> divisors = checkDivisors();
        List<BenchCluster> clusters = parseNodes();
        OutDirectory.prepare(spec, rounds.out);

        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        BenchSize size = rounds.size();
        BenchTableFiles tableFiles = new BenchTableFiles(rounds.out.resolve("tables"), err);
        List<BenchEngine> engines = openEngines(peerIds, divisors, clusters, tableFiles, err);
        try {
            BenchReport report = new BenchReport(engines.stream().filter(e -> e instanceof ClusterBenchEngine)
                    .map(BenchEngine::id).toList());
            for (BenchWorkload workload : chosen) {
                runWorkload(workload, size, engines, counts, report, err);
                tableFiles.delete(workload);
            }
            Path csv = rounds.out.resolve("results.csv");
            report.writeCsv(csv);
            List<String> ids = engines.stream().map(BenchEngine::id).toList();
            stdout.printf(Locale.ROOT, "troupe bench: %s; %d timed runs after %d warm-up(s), engines "
                            + "alternating, %d processors; wall seconds of the whole query; speedup = 1-worker "
                            + "median / median%s%n",
                    String.join(", ", chosen.stream().map(w -> w.id() + " " + w.size(size)).toList()), rounds.runs,
                    rounds.warmups,
                    Runtime.getRuntime().availableProcessors(), clusters.isEmpty() ? "" : "; troupe NxW: N node JVMs "
                            + "of W workers, its rows through a client in this JVM, compared with the others at N*W "
                            + "workers (its speedup over troupe's 1 worker)");
            stdout.print(report.table(ids));
            Path png = rounds.out.resolve("chart.png");
            List<Integer> xs = new ArrayList<>(counts);
            clusters.stream().map(BenchCluster::threads).filter(t -> !xs.contains(t)).forEach(xs::add);
            xs.sort(null);
            new BenchChart(report.summaries(ids), ids, xs, size).write(png);
            stdout.printf("wrote %s and %s%n", csv, png);
            stdout.flush();
            return 0;
        } catch (BenchMismatchException | BenchFailedException e) {
            err.println("troupe bench: FAILED: " + e.getMessage());
            err.flush();
            return 1;
        } finally {
            for (BenchEngine engine : engines) {
                engine.close();
            }
        }
    }

    /** {@code --workload tpch} or {@code tpcds}: a benchmark's queries against DuckDB ({@link QuerySetBench}). */
    private int querySet(QuerySetBench.QuerySet set, ParseResult parsed) throws Exception {
        String id = set.id();
        if (workloads.size() != 1) {
            throw RoundOptions.bad(spec, "--workload " + id + " runs alone (its " + set.queries().size()
                    + " queries are a bench of their own)");
        }
        QuerySetBench.QuerySet chosen;
        try {
            chosen = set.only(queries);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        for (String option : List.of("--nodes", "--memory", "--rows")) {
            if (parsed.hasMatchedOption(option)) {
                throw RoundOptions.bad(spec, option + " does not go with --workload " + id);
            }
        }
        if (!parsePeers().equals(List.of("duckdb"))) {
            throw RoundOptions.bad(spec, "--workload " + id
                    + " compares with DuckDB: give --peers duckdb (the default)");
        }
        List<Integer> counts = rounds.check(spec, 0, "");
        OutDirectory.prepare(spec, rounds.out);
        PrintWriter err = spec.commandLine().getErr();
        try {
            new QuerySetBench(chosen, rounds.scale, counts, rounds.warmups, rounds.runs, duckDbUrl, err)
                    .run(rounds.out, spec.commandLine().getOut());
            return 0;
        } catch (BenchMismatchException e) {
            err.println("troupe bench: FAILED: " + e.getMessage());
            err.flush();
            return 1;
        }
    }

    private void runWorkload(BenchWorkload workload, BenchSize size, List<BenchEngine> engines, List<Integer> counts,
                             BenchReport report, PrintWriter err) throws Exception {
        long t0 = System.nanoTime();
        List<Table> tables = workload.tables(size, err);
        Rounds.progress(err, "bench", "%s: %s generated in %.2f s", workload.id(), String.join(", ", tables.stream()
                .map(t -> String.format(Locale.ROOT, "table %s with %,d rows", t.name(), t.rowCount())).toList()),
                Rounds.seconds(t0));
        long memoryNeed = 0;
        for (BenchEngine engine : engines) {
            long t1 = System.nanoTime();
            engine.load(workload, size, tables, memoryNeed);
            Rounds.progress(err, "bench", "%s: %s: loaded in %.2f s", workload.id(), engine.id(), Rounds.seconds(t1));
            if (engine == engines.get(0) && !memoryDivisors.isEmpty()) {
                // Troupe on its own settings comes first: the engines under a share of the memory size from it.
                int most = counts.stream().mapToInt(Integer::intValue).max().orElse(0);
                memoryNeed = ((TroupeBenchEngine) engine).memoryNeed(workload, most);
                Rounds.progress(err, "bench", "%s: needs %,d bytes in memory with %d workers", workload.id(),
                        memoryNeed, most);
            }
        }
        record Planned(int threads, Rounds.Slot slot) {
        }
        List<Planned> planned = new ArrayList<>();
        for (BenchEngine engine : engines) {
            for (int k : engine.workerCounts(counts)) {
                planned.add(new Planned(engine.nodes() * k, slot(workload, engine, k, report)));
            }
        }
        // A round runs by workers in all (a stable sort: the engines in order within), a cluster beside the others.
        planned.sort(Comparator.comparingInt(Planned::threads));
        Rounds.run(planned.stream().map(Planned::slot).toList(), rounds.warmups, rounds.runs, "bench", workload.id(),
                err);
        for (BenchEngine engine : engines) {
            engine.unload(workload);
        }
    }

    /** The slot of {@code engine} with {@code k} workers: each run checked, each timed one kept in {@code report}. */
    private Rounds.Slot slot(BenchWorkload workload, BenchEngine engine, int k, BenchReport report) {
        return new Rounds.Slot() {
            @Override
            public String name() {
                return engine.id() + "/" + k;
            }

            @Override
            public BenchOutcome run() throws Exception {
                BenchOutcome outcome = seam.apply(engine.id(), k, engine.run(workload, k));
                report.check(workload, engine.id(), k, outcome);
                return outcome;
            }

            @Override
            public void record(int round, BenchOutcome outcome) {
                report.add(new BenchRun(workload, engine.id(), engine.nodes(), k, round, outcome.seconds(),
                        outcome.rows(), outcome.checksum()));
            }

            @Override
            public void refused(EngineRefusedException e) {
                report.refused(workload, engine.id(), k, e.getMessage());
            }
        };
    }

    /**
     * Troupe on its own settings first (the ratios are over it), then each peer, then each engine
     * again under each share of the memory.
     */
    private List<BenchEngine> openEngines(List<String> peerIds, List<Integer> divisors, List<BenchCluster> clusters,
                                          BenchTableFiles tableFiles, PrintWriter err) throws Exception {
        List<BenchEngine> engines = new ArrayList<>();
        // Peers first: a missing driver should stop the bench before Troupe starts anything.
        List<BenchEngine> peerEngines = new ArrayList<>();
        try {
            for (String peer : peerIds) {
                peerEngines.add(DuckDbBenchEngine.open(duckDbUrl));
            }
            for (int d : divisors) {
                for (String peer : peerIds) {
                    peerEngines.add(DuckDbBenchEngine.openLimited(duckDbUrl, d, rounds.out.resolve("duckdb-spill")));
                }
            }
        } catch (IllegalStateException e) {
            for (BenchEngine opened : peerEngines) {
                opened.close();
            }
            throw bad(e.getMessage());
        }
        engines.add(new TroupeBenchEngine());
        if (sql) {
            engines.add(TroupePlannerBenchEngine.sql());
        }
        if (optimize) {
            engines.add(TroupePlannerBenchEngine.optimized());
        }
        for (int d : divisors) {
            engines.add(new TroupeBenchEngine(d));
        }
        List<String> jvmOptions = new ArrayList<>(List.of("-Xmx" + nodeHeap));
        jvmOptions.addAll(nodeJvmFlags);
        ClusterBenchEngine.Launch launch = new ClusterBenchEngine.Launch(classpath, jvmOptions, nodeSettings, CLUSTER_UP);
        for (BenchCluster cluster : clusters) {
            engines.add(new ClusterBenchEngine(cluster, tableFiles, rounds.out.resolve("clusters"), launch, err));
        }
        engines.addAll(peerEngines);
        return engines;
    }

    /** The distinct NxW of --nodes, and --node-heap and --node-set checked. */
    private List<BenchCluster> parseNodes() {
        List<BenchCluster> chosen = new ArrayList<>();
        for (String text : nodes) {
            BenchCluster cluster;
            try {
                cluster = BenchCluster.parse(text);
            } catch (IllegalArgumentException e) {
                throw bad(e.getMessage());
            }
            if (!chosen.contains(cluster)) {
                chosen.add(cluster);
            }
        }
        if (!ClusterCommand.Start.HEAP.matcher(nodeHeap).matches()) {
            throw bad("--node-heap must be a size like 512m or 2g, got '" + nodeHeap + "'");
        }
        if (!nodeSettings.isEmpty() && chosen.isEmpty()) {
            throw bad("--node-set sets the node JVMs of --nodes, and none was given");
        }
        ClusterCommand.Start.checkSettings(spec, "--node-set", nodeSettings);
        return chosen;
    }

    private List<Integer> checkDivisors() {
        List<Integer> chosen = new ArrayList<>();
        for (int d : memoryDivisors) {
            if (d < 2) {
                throw bad("--memory takes divisors of 2 or more (1/D of the memory), got " + d);
            }
            if (!chosen.contains(d)) {
                chosen.add(d);
            }
        }
        return chosen;
    }

    private List<BenchWorkload> parseWorkloads() {
        List<BenchWorkload> chosen = new ArrayList<>();
        for (String name : workloads) {
            BenchWorkload w = BenchWorkload.parse(name);
            if (w == null) {
                throw bad("unknown workload '" + name + "' in --workload (known: " + known() + ")");
            }
            if (!chosen.contains(w)) {
                chosen.add(w);
            }
        }
        return chosen;
    }

    private List<String> parsePeers() {
        List<String> chosen = new ArrayList<>();
        for (String peer : peers) {
            String p = peer.trim().toLowerCase(Locale.ROOT);
            if (p.equals("none") || p.isEmpty()) {
                continue;
            }
            if (!p.equals("duckdb")) {
                throw bad("unknown peer '" + peer + "' in --peers (known: duckdb, none)");
            }
            if (!chosen.contains(p)) {
                chosen.add(p);
            }
        }
        return chosen;
    }

    private static String known() {
        List<String> ids = new ArrayList<>();
        for (BenchWorkload w : BenchWorkload.values()) {
            ids.add(w.id());
        }
        ids.addAll(QuerySetBench.QuerySet.IDS);
        return String.join(", ", ids);
    }

    private ParameterException bad(String message) {
        return RoundOptions.bad(spec, message);
    }

}
