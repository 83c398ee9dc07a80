package io.troupe.cli.loadtest;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.actors.cluster.TroupeCluster;
import io.troupe.cli.AnswerCheck;
import io.troupe.cli.BenchMismatchException;
import io.troupe.cli.BenchOutcome;
import io.troupe.cli.BenchSize;
import io.troupe.cli.BenchWorkload;
import io.troupe.cli.DuckDbBenchEngine;
import io.troupe.cli.OutDirectory;
import io.troupe.config.ClusterSettings;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.Schema;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * {@code troupe loadtest}: loads an embedded Troupe as a service is loaded and reports latency
 * percentiles, throughput and errors, with DuckDB beside it in the same run ({@code --peer duckdb}).
 *
 * <h2>A running cluster</h2>
 * With {@code --cluster SEED[,SEED...]} the engine under test is a cluster that is already running
 * ({@code cluster start}), reached through one {@link TroupeCluster} client that sends each query to the
 * next node in turn ({@link ClusterTarget}). The data is the nodes' own, so nothing is made here: a
 * workload's query (w1, w2, w3) or a query file runs over the cluster's tables of its names, which are
 * checked first ({@link ClusterTables}: a missing table or column is a bad argument, before any load).
 * What needs an embedded Troupe ({@code --rows}, {@code --scale}, {@code --soak}) is refused; the peer
 * loads {@code --tables DIR} only, which must hold every table the queries read (the CSV files the nodes
 * loaded, so that both engines hold the same rows).
 *
 * <h2>A run</h2>
 * Arguments are checked first (exit 2 with one line, before any work). Then the data is made (the
 * bench's workloads, CSV tables), every query runs once alone on each engine (a plan that does not
 * validate or a query that fails alone is a bad argument; each query's rows and checksum become its
 * answer, which every engine and every later run must repeat), and the engines get their warm-ups
 * and then the measured load, in rounds that alternate them ({@link LoadRun}, {@link LoadPhase}).
 * Afterwards: the summary on stdout, DIR/latency.csv, the .hgrm files and DIR/loadtest.png
 * ({@link LoadReport}, {@link LoadChart}). With {@code --soak}, Troupe's resources and the JVM's
 * are read after the warm-ups and after the load ({@link SoakCheck}). Exit status 0; 1 when an
 * answer was wrong, a soak resource did not come back or a client failed; 2 on bad arguments.
 * Ctrl-C stops the load, cancels the queries in flight, and still prints and writes what was
 * measured before the JVM exits.
 *
 * <p>Not threadsafe: picocli runs it once, on the calling thread (the clients are the phases').
 */
@Command(name = "loadtest", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Load an embedded Troupe (or a running cluster: --cluster) from N clients, closed loop or at a "
                + "rate, and report latency percentiles (measured from each query's intended start), throughput and "
                + "errors.",
            "Writes DIR/latency.csv, DIR/latency.hgrm and DIR/loadtest.png. Query files: docs/plan-format.md."})
public final class LoadTestCommand implements Callable<Integer> {

    private static final int MAX_CLIENTS = 1024;
    private static final int MAX_ROUNDS = 100;
    private static final Duration MIN_INTERVAL = Duration.ofMillis(100);
    /** How long Ctrl-C waits for the summary before the JVM exits anyway. */
    private static final long SHUTDOWN_WAIT_SECONDS = 60;

    @Option(names = "--cluster", split = ",", paramLabel = "HOST:PORT",
            description = "load a running cluster (bin/troupe cluster start) instead of an embedded Troupe: a client "
                    + "joins through these seed nodes and sends the queries to the nodes in turn, over the nodes' own "
                    + "tables")
    List<String> cluster = new ArrayList<>();

    @Option(names = "--queries", paramLabel = "FILE|DIR",
            description = "a .plan file, or a directory of them (with NAME.sql beside for a peer)")
    Path queries;

    @Option(names = "--tables", paramLabel = "DIR",
            description = "tables for the query files: DIR/NAME.csv with a header 'col TYPE [NOT NULL],...'")
    Path tables;

    @Option(names = "--workload", split = ",", paramLabel = "W",
            description = "the bench's workloads and their generated data: w1 (self join), w2 (grouping), "
                    + "w3 (TPC-DS query 2), star (TPC-DS query 52)")
    List<String> workloads = new ArrayList<>();

    @Option(names = "--rows", paramLabel = "N", description = "rows of w1's and w2's table (default: ${DEFAULT-VALUE})")
    long rows = 1_000_000;

    @Option(names = "--scale", paramLabel = "SF", description = "TPC-DS scale factor of w3 (default: ${DEFAULT-VALUE})")
    double scale = 1;

    @Option(names = "--clients", paramLabel = "N",
            description = "client threads, each running one query at a time (default: ${DEFAULT-VALUE})")
    int clients = 1;

    @Option(names = "--duration", paramLabel = "D", converter = Durations.Converter.class,
            description = "how long the measured load runs, e.g. 30s, 2m (default: 30s)")
    Duration duration = Duration.ofSeconds(30);

    @Option(names = "--warmup", paramLabel = "D", converter = Durations.Converter.class,
            description = "the same load before, unmeasured, on each engine (default: 5s)")
    Duration warmup = Duration.ofSeconds(5);

    @Option(names = "--rounds", paramLabel = "R",
            description = "the duration cut into R rounds per engine, the engines alternating (troupe, duckdb, duckdb, "
                    + "troupe, ...) so that a busy machine's noise falls on both (default: ${DEFAULT-VALUE})")
    int rounds = 1;

    @Option(names = "--rate", paramLabel = "R/s", converter = Rates.Converter.class,
            description = "open loop: R queries a second in all, due on a schedule; without it, a closed loop")
    Double rate;

    @Option(names = "--arrival", paramLabel = "fixed|poisson",
            description = "open loop's schedule: evenly spaced or Poisson (default: ${DEFAULT-VALUE})")
    String arrival = "fixed";

    @Option(names = "--seed", paramLabel = "S", description = "the Poisson schedule's seed (default: drawn, printed)")
    Long seed;

    @Option(names = "--workers", paramLabel = "W",
            description = "Troupe's workers per query, 0 = on the client's thread; the peer's threads per query "
                    + "(default: troupe.workers.default)")
    Integer workers;

    @Option(names = "--timeout", paramLabel = "D", converter = Durations.Converter.class,
            description = "each query's timeout (default: 60s)")
    Duration timeout = Duration.ofSeconds(60);

    @Option(names = "--interval", paramLabel = "D", converter = Durations.Converter.class,
            description = "one row of latency.csv and one live-line update per interval (default: 1s)")
    Duration interval = Duration.ofSeconds(1);

    @Option(names = "--peer", paramLabel = "P",
            description = "an engine loaded the same way after Troupe, in the same run: duckdb, or none "
                    + "(default: ${DEFAULT-VALUE})")
    String peer = "none";

    @Option(names = "--soak", description = "check that heap, threads and Troupe's queries, workers, channels, Aeron "
            + "publications and memory are back after the load where they were after the warm-ups; exit 1 if not")
    boolean soak;

    @Option(names = "--out", paramLabel = "DIR",
            description = "directory for latency.csv, the .hgrm files and loadtest.png (default: ${DEFAULT-VALUE})")
    Path out = Path.of("loadtest-results");

    @Spec
    CommandSpec spec;

    // visible for testing: the peer's JDBC URL, the clock, the live line's mode, a hook run just
    // before the soak's check (a test leaks a resource there), and how long the check waits
    String duckDbUrl = DuckDbBenchEngine.URL;
    LoadClock clock = LoadClock.SYSTEM;
    boolean tty = System.console() != null;
    Consumer<Troupe> beforeSoakCheck = troupe -> { };
    Duration soakSettle = Duration.ofSeconds(30);
    /** The cluster client's settings below the seed nodes (a test's fast failure detector). */
    Config clusterConfig = ConfigFactory.load();

    /** Ends the run early: Ctrl-C's shutdown hook, or a client that failed. */
    private final StopSignal stop = new StopSignal();

    @Override
    public Integer call() throws Exception {
        List<BenchWorkload> chosen = checkArguments();
        List<LoadQuery> loadQueries = new ArrayList<>();
        for (BenchWorkload w : chosen) {
            loadQueries.add(new LoadQuery(w.id(), w.query(), w.sql(), "workload " + w.id()));
        }
        List<Table> fileTables;
        try {
            if (queries != null) {
                loadQueries.addAll(QueryFiles.read(queries));
            }
            fileTables = tables == null ? List.of() : TableFiles.read(tables);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        checkQueries(loadQueries, fileTables);
        OutDirectory.prepare(spec, out);
        // Ctrl-C from here on stops the work, and the JVM waits (bounded) for the summary and for
        // Troupe and DuckDB to close.
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.request("interrupted (Ctrl-C)");
            try {
                finished.await(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "loadtest-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return run(chosen, loadQueries, fileTables);
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down (Ctrl-C): the hook is running and has just been released.
            }
        }
    }

    private int run(List<BenchWorkload> chosen, List<LoadQuery> loadQueries, List<Table> fileTables)
            throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        TroupeSettings settings = TroupeSettings.load();
        int k = workers != null ? workers : settings.workers().defaultWorkers();
        DuckDbTarget duckDb = openPeer(k);
        try {
            if (cluster.isEmpty()) {
                try (Troupe troupe = Troupe.start(settings)) {
                    List<String> described = makeData(troupe, duckDb, chosen, new BenchSize(rows, scale), fileTables,
                            err);
                    QueryOptions options = QueryOptions.defaults().withWorkers(k).withTimeout(timeout);
                    return load(new TroupeTarget(troupe, options), duckDb, loadQueries, described,
                            "Troupe with " + k + " workers", k,
                            soak ? new SoakCheck(SoakCheck.gauges(troupe)) : null, () -> beforeSoakCheck.accept(troupe));
                }
            }
            try (TroupeCluster client = connect()) {
                QueryOptions options = (workers == null ? QueryOptions.defaults()
                        : QueryOptions.defaults().withWorkers(workers)).withTimeout(timeout);
                List<String> described = clusterData(client, duckDb, chosen, loadQueries, options, fileTables, err);
                List<String> nodes = client.nodes();
                String engine = String.format(Locale.ROOT, "the cluster's %d node%s (%s) with %s", nodes.size(),
                        nodes.size() == 1 ? "" : "s", String.join(", ", nodes),
                        workers == null ? "their default workers" : workers + (workers == 1 ? " worker" : " workers") + " each");
                return load(new ClusterTarget(client, options), duckDb, loadQueries, described, engine, k, null,
                        () -> { });
            }
        } finally {
            if (duckDb != null) {
                duckDb.close();
            }
        }
    }

    /**
     * Runs every query alone on each engine, then the load, and reports it.
     *
     * @param engine how the engine under test is described in the header line
     * @param soakCheck the soak's resources, or null without --soak
     */
    private int load(LoadTarget tested, DuckDbTarget duckDb, List<LoadQuery> loadQueries, List<String> described,
                     String engine, int k, SoakCheck soakCheck, Runnable beforeSoak) throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        if (stop.requested()) {
            return stoppedBeforeTheLoad(err);
        }
        long scheduleSeed = seed != null ? seed : ThreadLocalRandom.current().nextLong(1L << 48);
        LoadProfile profile = new LoadProfile(clients, rate == null ? 0 : rate, arrival.equals("poisson"),
                scheduleSeed, timeout, interval);
        List<LoadTarget> targets = new ArrayList<>(List.of(tested));
        if (duckDb != null) {
            targets.add(duckDb);
        }
        stdout.printf(Locale.ROOT, "troupe loadtest: %s; %s; %s%s after a %s warm-up on each engine; %s%s; "
                        + "timeout %s; %d processors%n", String.join(", ", described),
                profile.describe(), Durations.format(duration),
                rounds == 1 ? "" : " in " + rounds + " rounds, the engines alternating", Durations.format(warmup),
                engine, duckDb == null ? "" : ", DuckDB with " + Math.max(1, k) + " threads", Durations.format(timeout),
                Runtime.getRuntime().availableProcessors());
        stdout.println("latency = end - intended start; queue = start - intended start (the schedule lag); "
                + "run = end - start; times in ms");
        stdout.flush();
        AnswerCheck answerCheck = new AnswerCheck();
        Map<String, BenchOutcome> answers = new LinkedHashMap<>();
        try {
            for (LoadTarget target : targets) {
                preflight(target, loadQueries, answerCheck, answers, k, err);
            }
        } catch (BenchMismatchException e) {
            err.println("loadtest: FAILED: " + e.getMessage());
            err.flush();
            return 1;
        }
        if (stop.requested()) {
            return stoppedBeforeTheLoad(err);
        }
        LoadRun.Outcome outcome = new LoadRun(targets, loadQueries, profile, clock, stop, new LiveLine(err, tty),
                err).run(warmup, duration, rounds, target -> (query, result) -> {
                    synchronized (answerCheck) {
                        answerCheck.check(query.name(), target.id(), Math.max(1, k), result);
                    }
                }, soakCheck, beforeSoak, soakSettle);
        return report(outcome.results(), outcome.soak(), answers, targets, stdout, err);
    }

    /** The client of the cluster at {@code --cluster}, or a bad argument saying why it could not join. */
    private TroupeCluster connect() throws InterruptedException {
        Config config = ConfigFactory.parseMap(Map.of("troupe.cluster.seed-nodes", cluster))
                .withFallback(clusterConfig);
        try {
            return TroupeCluster.connect(config, TroupeCluster.CONNECT_TIMEOUT);
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw bad("--cluster " + String.join(",", cluster) + ": " + e.getMessage());
        }
    }

    /**
     * Checks that the cluster has the tables the queries read, with the columns they use, and loads the
     * peer's copy from {@code --tables}; returns how each source is described.
     */
    private List<String> clusterData(TroupeCluster client, DuckDbTarget duckDb, List<BenchWorkload> chosen,
                                     List<LoadQuery> loadQueries, QueryOptions options, List<Table> fileTables,
                                     PrintWriter err) throws Exception {
        Map<String, Schema> schemas;
        try {
            schemas = ClusterTables.check(client, loadQueries, options);
        } catch (IllegalArgumentException e) {
            throw bad("--cluster " + String.join(",", cluster) + ": " + e.getMessage());
        }
        err.println("loadtest: the cluster's nodes " + client.nodes() + " have the tables read: "
                + ClusterTables.describe(schemas));
        if (duckDb != null) {
            DuckDbBenchEngine.loadTables(duckDb.connection(), fileTables);
        }
        err.flush();
        List<String> described = new ArrayList<>();
        for (BenchWorkload w : chosen) {
            described.add(w.id() + " (over the cluster's " + String.join(", ", w.tableNames()) + ")");
        }
        if (queries != null) {
            described.add("the queries of " + queries + " over the cluster's tables");
        }
        return described;
    }

    private int stoppedBeforeTheLoad(PrintWriter err) {
        err.println("loadtest: stopped before the load: " + stop.reason());
        err.flush();
        return 1;
    }

    private int report(List<PhaseResult> results, List<SoakCheck.Reading> soakReadings,
                       Map<String, BenchOutcome> answers, List<LoadTarget> targets, PrintWriter stdout,
                       PrintWriter err) throws IOException {
        List<String> failures = new ArrayList<>();
        if (stop.requested()) {
            stdout.println("stopped early: " + stop.reason());
        }
        if (results.isEmpty()) {
            err.println("loadtest: nothing was measured: " + stop.reason());
            err.flush();
            return 1;
        }
        LoadReport report = new LoadReport(results);
        stdout.println();
        report.printSummary(stdout);
        LoadReport.printAnswers(stdout, answers, targets.stream().map(LoadTarget::id).toList());
        List<Path> written = new ArrayList<>();
        written.add(report.writeCsv(out));
        written.addAll(report.writeHistograms(out));
        Path png = out.resolve("loadtest.png");
        new LoadChart(results).write(png);
        written.add(png);
        stdout.println();
        stdout.println("wrote " + String.join(", ", written.stream().map(Path::toString).toList()));
        for (PhaseResult r : results) {
            failures.addAll(r.failures());
            QueryTotals.ErrorCount wrong = r.all().errors().get(ErrorKinds.WRONG_ANSWER);
            if (wrong != null) {
                failures.add(r.engine() + " returned " + wrong.count() + " wrong answers; the first: "
                        + wrong.firstMessage());
            }
        }
        if (!soakReadings.isEmpty()) {
            stdout.println();
            stdout.println("soak: resources after the warm-ups -> after the load (read until back, at most "
                    + Durations.format(soakSettle) + "):");
            for (SoakCheck.Reading r : soakReadings) {
                stdout.println((r.ok() ? "  ok      " : "  FAILED  ") + r.describe());
                if (!r.ok()) {
                    failures.add("soak: " + r.describe());
                }
            }
        }
        stdout.flush();
        for (String failure : failures) {
            err.println("loadtest: FAILED: " + failure);
        }
        err.flush();
        return failures.isEmpty() ? 0 : 1;
    }

    /** Runs every query once alone: it validates, it runs, and its answer is the one to repeat. */
    private void preflight(LoadTarget target, List<LoadQuery> loadQueries, AnswerCheck answerCheck,
                           Map<String, BenchOutcome> answers, int k, PrintWriter err) {
        for (LoadQuery q : loadQueries) {
            BenchOutcome outcome;
            long t0 = System.nanoTime();
            try {
                outcome = target.run(q, 0, new AtomicReference<>());
            } catch (Exception e) {
                throw bad(q.origin() + ": " + target.id() + " cannot run it alone: " + e.getMessage());
            }
            answerCheck.check(q.name(), target.id(), Math.max(1, k), outcome);
            answers.putIfAbsent(q.name(), outcome);
            err.printf(Locale.ROOT, "loadtest: %s: %s alone: %d rows in %.3f s%n", q.name(), target.id(),
                    outcome.rows(), (System.nanoTime() - t0) / 1e9);
            err.flush();
        }
    }

    /** Generates and registers the tables, in Troupe and in the peer; returns how each source is described. */
    private List<String> makeData(Troupe troupe, DuckDbTarget duckDb, List<BenchWorkload> chosen, BenchSize size,
                                  List<Table> fileTables, PrintWriter err) throws Exception {
        List<String> described = new ArrayList<>();
        for (BenchWorkload w : chosen) {
            long t0 = System.nanoTime();
            List<Table> made = w.tables(size, err);
            made.forEach(troupe::register);
            if (duckDb != null) {
                DuckDbBenchEngine.load(duckDb.connection(), w, size, made);
            }
            err.printf(Locale.ROOT, "loadtest: %s: %s in %.2f s%n", w.id(), String.join(", ", made.stream()
                    .map(t -> String.format(Locale.ROOT, "table %s with %,d rows", t.name(), t.rowCount())).toList()),
                    (System.nanoTime() - t0) / 1e9);
            described.add(w.id() + " (" + w.size(size) + ")");
        }
        fileTables.forEach(troupe::register);
        if (duckDb != null && !fileTables.isEmpty()) {
            DuckDbBenchEngine.loadTables(duckDb.connection(), fileTables);
        }
        if (queries != null) {
            described.add("the queries of " + queries);
        }
        err.flush();
        return described;
    }

    /** The peer, with as many threads per query as Troupe has workers ({@code k}; at least 1), or null. */
    private DuckDbTarget openPeer(int k) throws Exception {
        if (peer.equals("none")) {
            return null;
        }
        try {
            return DuckDbTarget.open(duckDbUrl, Math.max(1, k), clients, timeout);
        } catch (IllegalStateException e) {
            throw bad(e.getMessage());
        }
    }

    /** Checks every argument that needs no file or data; returns the workloads. */
    private List<BenchWorkload> checkArguments() {
        if (clients < 1 || clients > MAX_CLIENTS) {
            throw bad("--clients must be in 1.." + MAX_CLIENTS + ", got " + clients);
        }
        if (duration.isZero()) {
            throw bad("--duration must be more than 0");
        }
        if (rounds < 1 || rounds > MAX_ROUNDS) {
            throw bad("--rounds must be in 1.." + MAX_ROUNDS + ", got " + rounds);
        }
        if (timeout.isZero()) {
            throw bad("--timeout must be more than 0");
        }
        if (interval.compareTo(MIN_INTERVAL) < 0) {
            throw bad("--interval must be at least " + Durations.format(MIN_INTERVAL) + ", got "
                    + Durations.format(interval));
        }
        arrival = arrival.trim().toLowerCase(Locale.ROOT);
        if (!arrival.equals("fixed") && !arrival.equals("poisson")) {
            throw bad("--arrival must be fixed or poisson, got '" + arrival + "'");
        }
        if (arrival.equals("poisson") && rate == null) {
            throw bad("--arrival poisson needs --rate (a closed loop has no schedule)");
        }
        if (workers != null && (workers < 0 || workers > QueryOptions.MAX_WORKERS)) {
            throw bad("--workers must be in 0.." + QueryOptions.MAX_WORKERS + ", got " + workers);
        }
        if (rows < 1 || rows > Integer.MAX_VALUE) {
            throw bad("--rows must be in 1.." + Integer.MAX_VALUE + " (an INT32 column), got " + rows);
        }
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw bad("--scale must be a positive scale factor, got " + scale);
        }
        peer = peer.trim().toLowerCase(Locale.ROOT);
        if (!peer.equals("none") && !peer.equals("duckdb")) {
            throw bad("unknown peer '" + peer + "' in --peer (known: duckdb, none)");
        }
        if (soak && warmup.isZero()) {
            throw bad("--soak needs a --warmup: its baseline is read after the warm-up, once pools and caches have "
                    + "grown");
        }
        checkCluster();
        List<BenchWorkload> chosen = new ArrayList<>();
        for (String name : workloads) {
            BenchWorkload w = BenchWorkload.parse(name);
            if (w == null) {
                throw bad("unknown workload '" + name + "' in --workload (known: w1, w2, w3, star)");
            }
            if (!chosen.contains(w)) {
                chosen.add(w);
            }
        }
        if (chosen.isEmpty() && queries == null) {
            throw bad("nothing to run: give --workload w1,w2,w3 and/or --queries FILE|DIR");
        }
        return chosen;
    }

    /** With {@code --cluster}: the seeds are host:port, and the options that need an embedded Troupe are absent. */
    private void checkCluster() {
        if (cluster.isEmpty()) {
            return;
        }
        for (String seedNode : cluster) {
            try {
                ClusterSettings.SeedNode.parse(seedNode);
            } catch (IllegalArgumentException e) {
                throw bad("--cluster: " + e.getMessage());
            }
        }
        CommandLine.ParseResult given = spec.commandLine().getParseResult();
        if (given.hasMatchedOption("--rows") || given.hasMatchedOption("--scale")) {
            throw bad("--rows and --scale size the data of an embedded Troupe; with --cluster the tables are the "
                    + "nodes' own (cluster start --tables DIR or --generate)");
        }
        if (soak) {
            throw bad("--soak reads the embedded Troupe's resources; it does not go with --cluster (the nodes' are "
                    + "in their JVMs)");
        }
        if (peer.equals("none") && tables != null) {
            throw bad("--tables with --cluster is the copy of the cluster's tables that --peer duckdb loads; the nodes "
                    + "load their own (cluster start --tables DIR)");
        }
        if (!peer.equals("none") && tables == null) {
            throw bad("--peer " + peer + " with --cluster needs --tables DIR: the CSV files the cluster's nodes "
                    + "loaded, for the peer to load the same");
        }
    }

    /**
     * Query names are unique, and a peer has SQL for each; beside a cluster the peer has, in {@code --tables},
     * every table a query reads.
     */
    private void checkQueries(List<LoadQuery> loadQueries, List<Table> fileTables) {
        Set<String> peerTables = new HashSet<>();
        fileTables.forEach(t -> peerTables.add(t.name().toLowerCase(Locale.ROOT)));
        Set<String> names = new HashSet<>();
        for (LoadQuery q : loadQueries) {
            if (!names.add(q.name())) {
                throw bad("two queries are named " + q.name() + " (" + q.origin() + "): rename the file");
            }
            if (!peer.equals("none") && q.sql() == null) {
                throw bad(q.origin() + " has no companion " + q.name().replaceAll(".*/", "") + QueryFiles.SQL
                        + " for --peer " + peer + " to run");
            }
            if (!peer.equals("none") && !cluster.isEmpty()) {
                for (String table : q.plan().tablesRead()) {
                    if (!peerTables.contains(table.toLowerCase(Locale.ROOT))) {
                        throw bad("--peer " + peer + " with --cluster loads only --tables " + tables + ", which has no "
                                + table + TableFiles.CSV + " (" + q.origin() + " reads table " + table + ")");
                    }
                }
            }
        }
    }

    private ParameterException bad(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
