package io.troupe.cli;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The runs of one {@code troupe bench}: checks that every run of a workload agrees with the first
 * one on rows and checksum ({@link AnswerCheck}), keeps the timed runs, and reduces them to the
 * printed table of medians and to results.csv. Engines compare at as many threads: a cluster's
 * ({@code troupe NxW}) are its nodes' workers together.
 *
 * <p>Not threadsafe: filled by the bench's one thread, read once it is done.
 */
final class BenchReport {

    /** The header of results.csv; scripts rely on these columns in this order. */
    static final String CSV_HEADER = "workload,engine,workers,run,seconds,rows,checksum,nodes";

    /**
     * The engines that are clusters ({@code bench --nodes}): a cluster's speedup is over the first
     * engine's (embedded Troupe's) 1-worker median, and its row compares with the first engine too.
     */
    private final List<String> clusters;
    private final List<BenchRun> runs = new ArrayList<>();
    private final AnswerCheck answers = new AnswerCheck();
    /** "workload engine/workers: why", for each engine that could not run a workload within its limits. */
    private final List<String> refusals = new ArrayList<>();

    BenchReport(List<String> clusters) {
        this.clusters = List.copyOf(clusters);
    }

    /**
     * Checks {@code outcome} (timed or warm-up) against the workload's first answer, or makes it
     * the first answer.
     *
     * @throws BenchMismatchException naming both runs when rows or checksum differ
     */
    void check(BenchWorkload workload, String engine, int workers, BenchOutcome outcome) {
        answers.check(workload.id(), engine, workers, outcome);
    }

    void add(BenchRun run) {
        runs.add(run);
    }

    /** Notes that {@code engine} with {@code workers} could not run {@code workload} within its limits. */
    void refused(BenchWorkload workload, String engine, int workers, String why) {
        refusals.add(workload.id() + " " + engine + "/" + workers + ": " + why);
    }

    List<BenchRun> runs() {
        return List.copyOf(runs);
    }

    /**
     * One summary per workload, engine and worker count: workloads in the order run, engines in
     * {@code engines}' order, workers ascending.
     */
    List<BenchSummary> summaries(List<String> engines) {
        Map<String, List<BenchRun>> groups = new LinkedHashMap<>();
        List<BenchWorkload> workloads = new ArrayList<>();
        for (BenchRun run : runs) {
            if (!workloads.contains(run.workload())) {
                workloads.add(run.workload());
            }
            groups.computeIfAbsent(key(run.workload(), run.engine(), run.workers()), k -> new ArrayList<>()).add(run);
        }
        List<Integer> workerCounts = runs.stream().map(BenchRun::workers).distinct().sorted().toList();
        List<BenchSummary> out = new ArrayList<>();
        for (BenchWorkload workload : workloads) {
            for (String engine : engines) {
                List<BenchRun> one = groups.get(key(workload, clusters.contains(engine) ? engines.get(0) : engine, 1));
                double oneWorker = one == null ? Double.NaN : median(one);
                for (int workers : workerCounts) {
                    List<BenchRun> group = groups.get(key(workload, engine, workers));
                    if (group == null) {
                        continue;
                    }
                    double[] seconds = group.stream().mapToDouble(BenchRun::seconds).sorted().toArray();
                    double median = median(group);
                    BenchRun first = group.get(0);
                    out.add(new BenchSummary(workload, engine, first.nodes(), workers, group.size(), median, seconds[0],
                            seconds[seconds.length - 1], oneWorker / median, first.rows(),
                            first.checksum().toPlainString()));
                }
            }
        }
        return out;
    }

    /**
     * The printed table: per workload, engine and worker count the median and min-max seconds,
     * the speedup over the engine's 1-worker median, and for Troupe (embedded, and each cluster) its
     * median over each peer's with as many threads (below 1: faster than the peer); with clusters, a
     * cluster's median over embedded Troupe's with as many workers as the cluster has in all.
     */
    String table(List<String> engines) {
        List<BenchSummary> summaries = summaries(engines);
        String troupe = engines.get(0);
        List<String> peers = engines.stream().skip(1).filter(e -> !clusters.contains(e)).toList();
        StringBuilder sb = new StringBuilder();
        String engineColumn = "%-" + Math.max(7, engines.stream().mapToInt(String::length).max().orElse(0)) + "s";
        sb.append(String.format(Locale.ROOT, "%-8s " + engineColumn + " %5s %7s %10s %19s %8s", "workload", "engine",
                "nodes", "workers", "median s", "min-max s", "speedup"));
        for (String peer : peers) {
            sb.append(String.format(Locale.ROOT, " %14s", troupe + "/" + peer));
        }
        if (!clusters.isEmpty()) {
            sb.append(String.format(Locale.ROOT, " %14s", "NxW/" + troupe));
        }
        sb.append(String.format(Locale.ROOT, " %6s %12s%n", "rows", "checksum"));
        for (BenchSummary s : summaries) {
            String speedup = Double.isNaN(s.speedup()) ? "-" : String.format(Locale.ROOT, "%.2fx", s.speedup());
            sb.append(String.format(Locale.ROOT, "%-8s " + engineColumn + " %5d %7d %10.3f %19s %8s", s.workload().id(),
                    s.engine(), s.nodes(), s.workers(), s.median(),
                    String.format(Locale.ROOT, "%.3f-%.3f", s.min(), s.max()), speedup));
            boolean cluster = clusters.contains(s.engine());
            for (String peer : peers) {
                sb.append(ratio(s, cluster || s.engine().equals(troupe) ? find(summaries, s.workload(), peer,
                        s.threads()) : null));
            }
            if (!clusters.isEmpty()) {
                sb.append(ratio(s, cluster ? find(summaries, s.workload(), troupe, s.threads()) : null));
            }
            sb.append(String.format(Locale.ROOT, " %6d %12s%n", s.rows(), s.checksum()));
        }
        for (String refusal : refusals) {
            sb.append("refused: ").append(refusal).append('\n');
        }
        return sb.toString();
    }

    /** A column of {@code s}'s median over {@code other}'s: "-" without one. */
    private static String ratio(BenchSummary s, BenchSummary other) {
        return String.format(Locale.ROOT, " %14s",
                other == null ? "-" : String.format(Locale.ROOT, "%.2fx", s.median() / other.median()));
    }

    /** Writes every timed run to {@code file} under {@link #CSV_HEADER}. */
    void writeCsv(Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(CSV_HEADER);
            w.write('\n');
            for (BenchRun r : runs) {
                w.write(String.format(Locale.ROOT, "%s,%s,%d,%d,%.6f,%d,%s,%d%n", r.workload().id(), r.engine(),
                        r.workers(), r.run(), r.seconds(), r.rows(), r.checksum().toPlainString(), r.nodes()));
            }
        }
    }

    /** The summary of {@code engine} on {@code workload} with {@code threads} in all, or null. */
    static BenchSummary find(List<BenchSummary> summaries, BenchWorkload workload, String engine, int threads) {
        for (BenchSummary s : summaries) {
            if (s.workload() == workload && s.engine().equals(engine) && s.threads() == threads) {
                return s;
            }
        }
        return null;
    }

    private static String key(BenchWorkload workload, String engine, int workers) {
        return workload.id() + '/' + engine + '/' + workers;
    }

    private static double median(List<BenchRun> group) {
        double[] sorted = group.stream().mapToDouble(BenchRun::seconds).toArray();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
