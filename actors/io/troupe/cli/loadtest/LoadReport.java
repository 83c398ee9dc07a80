package io.troupe.cli.loadtest;

import io.troupe.cli.BenchOutcome;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What loadtest prints and writes once the load has run: the summary table (per engine and query:
 * counts, throughput, latency percentiles, the queue's p99), Troupe against each peer side by side
 * (ratios troupe / peer), errors by kind, the answers every engine agreed on; latency.csv (a row per
 * interval and per query, then the totals) and the HdrHistogram percentile distributions (.hgrm,
 * values in milliseconds): latency.hgrm for Troupe's queries together, latency-ENGINE.hgrm for a
 * peer's, and latency-ENGINE-QUERY.hgrm per query when there are several.
 *
 * <p>Not threadsafe: made and used by the command's thread once the phases have ended.
 */
final class LoadReport {

    static final String CSV_HEADER = "engine,query,scope,from_s,to_s,issued,completed,errors,unstarted,"
            + "throughput_per_s,latency_p50_ms,latency_p90_ms,latency_p99_ms,latency_p999_ms,latency_max_ms,"
            + "latency_mean_ms,queue_p50_ms,queue_p99_ms,queue_max_ms,run_p50_ms,run_p99_ms,run_max_ms";
    /** HdrHistogram's .hgrm: values in ms from nanoseconds, 5 lines per halving of the distance to 100%. */
    private static final double HGRM_SCALE = 1e6;
    private static final int HGRM_TICKS = 5;

    private final List<PhaseResult> phases;

    /** @param phases one per engine, Troupe's first */
    LoadReport(List<PhaseResult> phases) {
        this.phases = List.copyOf(phases);
    }

    /** Prints the summary table, the comparison with each peer and the errors. */
    void printSummary(PrintWriter out) {
        out.printf(Locale.ROOT, "%-8s %-12s %8s %9s %7s %6s %9s %9s %9s %9s %9s %9s %12s%n", "engine", "query",
                "issued", "completed", "errors", "late", "q/s", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms",
                "queue p99 ms");
        for (PhaseResult phase : phases) {
            for (QueryTotals t : phase.totals()) {
                if (t.query().equals(LoadRecorder.ALL) && phase.totals().size() == 2) {
                    continue;
                }
                Percentiles l = Percentiles.of(t.latency());
                out.printf(Locale.ROOT, "%-8s %-12s %8d %9d %7d %6d %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %12.2f%n",
                        t.engine(), t.query(), t.issued(), t.completed(), t.errorCount(), t.unstarted(), t.throughput(),
                        l.p50(), l.p90(), l.p99(), l.p999(), l.max(), Percentiles.of(t.queue()).p99());
            }
        }
        for (int p = 1; p < phases.size(); p++) {
            printComparison(out, phases.get(0), phases.get(p));
        }
        for (PhaseResult phase : phases) {
            printErrors(out, phase);
        }
    }

    private static void printComparison(PrintWriter out, PhaseResult troupe, PhaseResult peer) {
        String a = troupe.engine();
        String b = peer.engine();
        out.printf(Locale.ROOT, "%n%s against %s in the same run, ratio = %s / %s (latency: below 1 is %s faster; "
                + "q/s: above 1 is %s more):%n", a, b, a, b, a, a);
        out.printf(Locale.ROOT, "%-12s %10s %10s %6s %10s %10s %6s %9s %9s %6s%n", "query", "p50 " + a, "p50 " + b,
                "ratio", "p99 " + a, "p99 " + b, "ratio", "q/s " + a, "q/s " + b, "ratio");
        for (int i = 0; i < troupe.totals().size(); i++) {
            QueryTotals x = troupe.totals().get(i);
            QueryTotals y = peer.totals().get(i);
            Percentiles px = Percentiles.of(x.latency());
            Percentiles py = Percentiles.of(y.latency());
            out.printf(Locale.ROOT, "%-12s %10.2f %10.2f %6s %10.2f %10.2f %6s %9.2f %9.2f %6s%n", x.query(), px.p50(),
                    py.p50(), ratio(px.p50(), py.p50()), px.p99(), py.p99(), ratio(px.p99(), py.p99()), x.throughput(),
                    y.throughput(), ratio(x.throughput(), y.throughput()));
        }
    }

    private static void printErrors(PrintWriter out, PhaseResult phase) {
        List<String> lines = new ArrayList<>();
        for (QueryTotals t : phase.totals()) {
            if (t.query().equals(LoadRecorder.ALL)) {
                continue;
            }
            for (Map.Entry<String, QueryTotals.ErrorCount> e : t.errors().entrySet()) {
                lines.add(String.format(Locale.ROOT, "  %s: %s %d (the first: %s)", t.query(), e.getKey(),
                        e.getValue().count(), e.getValue().firstMessage()));
            }
            if (t.unfinished() > 0) {
                lines.add("  " + t.query() + ": cancelled when the run stopped " + t.unfinished());
            }
        }
        out.println();
        out.println(phase.engine() + " errors: " + (lines.isEmpty() ? "none" : ""));
        lines.forEach(out::println);
        QueryTotals all = phase.all();
        if (all.unstarted() > 0) {
            out.printf(Locale.ROOT, "  late: %d queries were due before the end but no client had started them "
                    + "(the schedule asked for more than the clients could run)%n", all.unstarted());
        }
    }

    /** "1.52", or "-" when the peer's figure is 0. */
    private static String ratio(double a, double b) {
        return b == 0 ? "-" : String.format(Locale.ROOT, "%.2f", a / b);
    }

    /** Prints each query's answer, which every engine and every run agreed on. */
    static void printAnswers(PrintWriter out, Map<String, BenchOutcome> answers, List<String> engines) {
        out.println();
        out.println("answers (every query's result on " + String.join(" and ", engines) + ", every run):");
        answers.forEach((query, a) -> out.printf(Locale.ROOT, "  %s: %d row%s, checksum %s%n", query, a.rows(),
                a.rows() == 1 ? "" : "s", a.checksum().toPlainString()));
    }

    /** Writes latency.csv into {@code dir}: every interval's rows, then each query's totals. */
    Path writeCsv(Path dir) throws IOException {
        Path file = dir.resolve("latency.csv");
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(CSV_HEADER + "\n");
            for (PhaseResult phase : phases) {
                for (IntervalRow r : phase.intervals()) {
                    w.write(csvRow(r.engine(), r.query(), "interval", r.fromSeconds(), r.toSeconds(), r.issued(),
                            r.completed(), r.errors(), "", r.throughput(), r.latency(), r.queue(), r.run()));
                }
                for (QueryTotals t : phase.totals()) {
                    w.write(csvRow(t.engine(), t.query(), "total", 0, t.seconds(), t.issued(), t.completed(),
                            t.errorCount(), Long.toString(t.unstarted()), t.throughput(), Percentiles.of(t.latency()),
                            Percentiles.of(t.queue()), Percentiles.of(t.run())));
                }
            }
        }
        return file;
    }

    private static String csvRow(String engine, String query, String scope, double from, double to, long issued,
                                 long completed, long errors, String unstarted, double throughput, Percentiles latency,
                                 Percentiles queue, Percentiles run) {
        return String.format(Locale.ROOT, "%s,%s,%s,%.3f,%.3f,%d,%d,%d,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,"
                        + "%.3f,%.3f,%.3f,%.3f%n", csv(engine), csv(query), scope, from, to, issued, completed, errors,
                unstarted, throughput, latency.p50(), latency.p90(), latency.p99(), latency.p999(), latency.max(),
                latency.mean(), queue.p50(), queue.p99(), queue.max(), run.p50(), run.p99(), run.max());
    }

    private static String csv(String text) {
        return text.contains(",") || text.contains("\"") ? '"' + text.replace("\"", "\"\"") + '"' : text;
    }

    /** Writes the .hgrm files into {@code dir} (see the class comment) and returns them. */
    List<Path> writeHistograms(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        for (int p = 0; p < phases.size(); p++) {
            PhaseResult phase = phases.get(p);
            files.add(writeHgrm(dir.resolve(p == 0 ? "latency.hgrm" : "latency-" + phase.engine() + ".hgrm"),
                    phase.all().latency()));
            if (phase.totals().size() > 2) {
                for (QueryTotals t : phase.totals()) {
                    if (!t.query().equals(LoadRecorder.ALL)) {
                        String name = "latency-" + phase.engine() + "-" + fileSafe(t.query()) + ".hgrm";
                        files.add(writeHgrm(dir.resolve(name), t.latency()));
                    }
                }
            }
        }
        return files;
    }

    private static Path writeHgrm(Path file, Histogram nanos) throws IOException {
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8)) {
            if (nanos.getTotalCount() == 0) {
                out.println("#[No values: no query completed]");
            } else {
                nanos.outputPercentileDistribution(out, HGRM_TICKS, HGRM_SCALE);
            }
        }
        return file;
    }

    /** A query name as part of a file name: its path's slashes and any odd character as '_'. */
    static String fileSafe(String query) {
        return query.replaceAll("[^A-Za-z0-9_.-]", "_");
    }
}
