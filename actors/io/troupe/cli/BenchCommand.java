package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.operators.table.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/**
 * {@code troupe bench}: generates the workload tables in Troupe and in each peer, then times every
 * workload on every engine and worker count after a warm-up, alternating engines and worker counts
 * within each round (and reversing the order every other round) so that the machine's noise spreads
 * evenly. Prints a table of medians, min-max and speedups, and writes DIR/results.csv (one line per
 * timed run) and DIR/chart.png. Every run, warm-ups included, must agree with the workload's first
 * run on rows and checksum; a disagreement stops the bench with exit status 1 and names both runs.
 * Bad arguments exit with 2. Progress goes to stderr, results to stdout. With {@code --ablation} it
 * measures the three lessons instead ({@link AblationOptions}, {@link Ablation}).
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
            description = "workloads to run, of w1 (self join), w2 (grouping), w3 (TPC-DS query 2) "
                    + "(default: ${DEFAULT-VALUE})")
    List<String> workloads = new ArrayList<>(List.of("w1", "w2"));

    @Option(names = "--rows", paramLabel = "N",
            description = "rows N of w1's and w2's generated table; w3 ignores it (default: ${DEFAULT-VALUE})")
    long rows = 1_000_000;

    @Option(names = "--scale", paramLabel = "SF",
            description = "TPC-DS scale factor of w3's tables, > 0; w1 and w2 ignore it (default: ${DEFAULT-VALUE})")
    double scale = 1;

    @Option(names = "--workers", split = ",", paramLabel = "K",
            description = "worker counts; 0 is Troupe's leader alone, peers run each K >= 1 as threads "
                    + "(default: ${DEFAULT-VALUE})")
    List<Integer> workers = new ArrayList<>(List.of(0, 1, 2));

    @Option(names = "--runs", paramLabel = "R",
            description = "timed runs of each engine and worker count (default: ${DEFAULT-VALUE})")
    int runs = 5;

    @Option(names = "--warmups", paramLabel = "R", description = "untimed runs before (default: ${DEFAULT-VALUE})")
    int warmups = 1;

    @Option(names = "--peers", split = ",", paramLabel = "P",
            description = "peers measured in the same run: duckdb, or none (default: ${DEFAULT-VALUE})")
    List<String> peers = new ArrayList<>(List.of("duckdb"));

    @Option(names = "--out", paramLabel = "DIR",
            description = "directory for results.csv and chart.png (default: ${DEFAULT-VALUE})")
    Path out = Path.of("bench-results");

    @Mixin
    AblationOptions ablation = new AblationOptions();

    @Spec
    CommandSpec spec;

    /** The JDBC URL of peer duckdb; a test points it at a driver that does not exist. */
    String duckDbUrl = DuckDbBenchEngine.URL;

    OutcomeSeam seam = (engine, workerCount, outcome) -> outcome;

    @Override
    public Integer call() throws Exception {
        List<BenchWorkload> chosen = parseWorkloads();
        List<Integer> counts = parseWorkers();
        List<String> peerIds = parsePeers();
        if (rows < 1 || rows > Integer.MAX_VALUE) {
            throw bad("--rows must be in 1.." + Integer.MAX_VALUE + " (an INT32 column), got " + rows);
        }
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw bad("--scale must be a positive scale factor, got " + scale);
        }
        if (runs < 1) {
            throw bad("--runs must be at least 1, got " + runs);
        }
        if (warmups < 0) {
            throw bad("--warmups must be 0 or more, got " + warmups);
        }
        prepareOut();
        if (ablation.requested) {
            return ablation.run(this, counts);
        }

        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        BenchSize size = new BenchSize(rows, scale);
        List<BenchEngine> engines = openEngines(peerIds);
        try {
            BenchReport report = new BenchReport();
            for (BenchWorkload workload : chosen) {
                runWorkload(workload, size, engines, counts, report, err);
            }
            Path csv = out.resolve("results.csv");
            report.writeCsv(csv);
            List<String> ids = engines.stream().map(BenchEngine::id).toList();
            stdout.printf(Locale.ROOT, "troupe bench: %s; %d timed runs after %d warm-up(s), engines "
                            + "alternating, %d processors; wall seconds of the whole query; speedup = 1-worker "
                            + "median / median%n",
                    String.join(", ", chosen.stream().map(w -> w.id() + " " + w.size(size)).toList()), runs, warmups,
                    Runtime.getRuntime().availableProcessors());
            stdout.print(report.table(ids));
            Path png = out.resolve("chart.png");
            new BenchChart(report.summaries(ids), ids, counts, size).write(png);
            stdout.printf("wrote %s and %s%n", csv, png);
            stdout.flush();
            return 0;
        } catch (BenchMismatchException e) {
            err.println("troupe bench: FAILED: " + e.getMessage());
            err.flush();
            return 1;
        } finally {
            for (BenchEngine engine : engines) {
                engine.close();
            }
        }
    }

    private void runWorkload(BenchWorkload workload, BenchSize size, List<BenchEngine> engines, List<Integer> counts,
                             BenchReport report, PrintWriter err) throws Exception {
        long t0 = System.nanoTime();
        List<Table> tables = workload.tables(size, err);
        progress(err, "%s: %s generated in %.2f s", workload.id(), String.join(", ", tables.stream()
                .map(t -> String.format(Locale.ROOT, "table %s with %,d rows", t.name(), t.rowCount())).toList()),
                seconds(t0));
        for (BenchEngine engine : engines) {
            long t1 = System.nanoTime();
            engine.load(workload, size, tables);
            progress(err, "%s: %s: loaded in %.2f s", workload.id(), engine.id(), seconds(t1));
        }
        // One round runs every engine and worker count once, interleaved; the order flips every
        // other round so that neither drift nor the previous run's garbage favours one of them.
        List<BenchEngine> roundEngines = new ArrayList<>();
        List<Integer> roundWorkers = new ArrayList<>();
        for (int k : counts) {
            for (BenchEngine engine : engines) {
                if (k >= engine.minWorkers()) {
                    roundEngines.add(engine);
                    roundWorkers.add(k);
                }
            }
        }
        for (int round = -warmups + 1; round <= runs; round++) {
            boolean timed = round >= 1;
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < roundEngines.size(); i++) {
                order.add(i);
            }
            if ((round & 1) == 0) {
                Collections.reverse(order);
            }
            StringBuilder line = new StringBuilder();
            for (int i : order) {
                BenchEngine engine = roundEngines.get(i);
                int k = roundWorkers.get(i);
                // Collect the last run's garbage now, untimed, rather than inside the next run.
                System.gc();
                BenchOutcome outcome = seam.apply(engine.id(), k, engine.run(workload, k));
                report.check(workload, engine.id(), k, outcome);
                if (timed) {
                    report.add(new BenchRun(workload, engine.id(), k, round, outcome.seconds(), outcome.rows(),
                            outcome.checksum()));
                }
                line.append(String.format(Locale.ROOT, "  %s/%d %.3f s", engine.id(), k, outcome.seconds()));
            }
            progress(err, "%s: %s:%s", workload.id(),
                    timed ? "run " + round + "/" + runs : "warm-up " + (round + warmups) + "/" + warmups, line);
        }
        for (BenchEngine engine : engines) {
            engine.unload(workload);
        }
    }

    private List<BenchEngine> openEngines(List<String> peerIds) throws Exception {
        List<BenchEngine> engines = new ArrayList<>();
        // Peers first: a missing driver should stop the bench before Troupe starts anything.
        List<BenchEngine> peerEngines = new ArrayList<>();
        for (String peer : peerIds) {
            try {
                peerEngines.add(DuckDbBenchEngine.open(duckDbUrl));
            } catch (IllegalStateException e) {
                for (BenchEngine opened : peerEngines) {
                    opened.close();
                }
                throw bad(e.getMessage());
            }
        }
        engines.add(new TroupeBenchEngine());
        engines.addAll(peerEngines);
        return engines;
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

    private List<Integer> parseWorkers() {
        for (int k : workers) {
            if (k < 0 || k > QueryOptions.MAX_WORKERS) {
                throw bad("--workers must be in 0.." + QueryOptions.MAX_WORKERS + ", got " + k);
            }
        }
        return List.copyOf(new TreeSet<>(workers));
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

    /** Creates DIR and proves it writable by writing a file there, before any minute is spent. */
    private void prepareOut() {
        try {
            Files.createDirectories(out);
            Path probe = Files.createTempFile(out, ".troupe-bench", ".probe");
            Files.delete(probe);
        } catch (IOException | SecurityException e) {
            throw bad("--out " + out + " is not a writable directory: " + e);
        }
    }

    private static String known() {
        List<String> ids = new ArrayList<>();
        for (BenchWorkload w : BenchWorkload.values()) {
            ids.add(w.id());
        }
        return String.join(", ", ids);
    }

    private ParameterException bad(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    private static void progress(PrintWriter err, String format, Object... args) {
        err.printf(Locale.ROOT, "bench: " + format + "%n", args);
        err.flush();
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
