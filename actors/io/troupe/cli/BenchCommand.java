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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code troupe bench}: generates the workload tables in Troupe and in each peer, then times every
 * workload on every engine and worker count after a warm-up, alternating engines and worker counts
 * within each round (and reversing the order every other round) so that the machine's noise spreads
 * evenly. Prints a table of medians, min-max and speedups, and writes DIR/results.csv (one line per
 * timed run) and DIR/chart.png. Every run, warm-ups included, must agree with the workload's first
 * run on rows and checksum; a disagreement stops the bench with exit status 1 and names both runs.
 * Every argument is checked before any work; a bad one exits with 2. Progress goes to stderr, results
 * to stdout. With {@code --ablation} it runs {@code troupe ablation} instead ({@link AblationCommand}),
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
            description = "workloads to run, of w1 (self join), w2 (grouping), w3 (TPC-DS query 2) "
                    + "(default: ${DEFAULT-VALUE})")
    List<String> workloads = new ArrayList<>(List.of("w1", "w2"));

    @Mixin
    RoundOptions rounds = new RoundOptions(1_000_000, List.of(0, 1, 2));

    @Option(names = "--peers", split = ",", paramLabel = "P",
            description = "peers measured in the same run: duckdb, or none (default: ${DEFAULT-VALUE})")
    List<String> peers = new ArrayList<>(List.of("duckdb"));

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

    /** The JDBC URL of peer duckdb; a test points it at a driver that does not exist. */
    String duckDbUrl = DuckDbBenchEngine.URL;

    OutcomeSeam seam = (engine, workerCount, outcome) -> outcome;

    @Override
    public Integer call() throws Exception {
        ParseResult parsed = spec.commandLine().getParseResult();
        if (ablation) {
            AblationCommand delegate = new AblationCommand();
            delegate.lessons = lessons;
            delegate.rounds = rounds.givenOr(parsed, AblationCommand.defaults());
            delegate.seam = seam;
            return delegate.run(spec, "bench --ablation");
        }
        if (parsed.hasMatchedOption("--lessons")) {
            throw RoundOptions.bad(spec, "--lessons needs --ablation (or run troupe ablation)");
        }
        List<BenchWorkload> chosen = parseWorkloads();
        List<Integer> counts = rounds.check(spec, 0, "");
        List<String> peerIds = parsePeers();
        List<Integer> divisors = checkDivisors();
        OutDirectory.prepare(spec, rounds.out);

        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        BenchSize size = rounds.size();
        List<BenchEngine> engines = openEngines(peerIds, divisors);
        try {
            BenchReport report = new BenchReport();
            for (BenchWorkload workload : chosen) {
                runWorkload(workload, size, engines, counts, report, err);
            }
            Path csv = rounds.out.resolve("results.csv");
            report.writeCsv(csv);
            List<String> ids = engines.stream().map(BenchEngine::id).toList();
            stdout.printf(Locale.ROOT, "troupe bench: %s; %d timed runs after %d warm-up(s), engines "
                            + "alternating, %d processors; wall seconds of the whole query; speedup = 1-worker "
                            + "median / median%n",
                    String.join(", ", chosen.stream().map(w -> w.id() + " " + w.size(size)).toList()), rounds.runs,
                    rounds.warmups,
                    Runtime.getRuntime().availableProcessors());
            stdout.print(report.table(ids));
            Path png = rounds.out.resolve("chart.png");
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
        List<Rounds.Slot> slots = new ArrayList<>();
        for (int k : counts) {
            for (BenchEngine engine : engines) {
                if (k >= engine.minWorkers()) {
                    slots.add(slot(workload, engine, k, report));
                }
            }
        }
        Rounds.run(slots, rounds.warmups, rounds.runs, "bench", workload.id(), err);
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
                report.add(new BenchRun(workload, engine.id(), k, round, outcome.seconds(), outcome.rows(),
                        outcome.checksum()));
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
    private List<BenchEngine> openEngines(List<String> peerIds, List<Integer> divisors) throws Exception {
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
        for (int d : divisors) {
            engines.add(new TroupeBenchEngine(d));
        }
        engines.addAll(peerEngines);
        return engines;
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
        return String.join(", ", ids);
    }

    private ParameterException bad(String message) {
        return RoundOptions.bad(spec, message);
    }

}
