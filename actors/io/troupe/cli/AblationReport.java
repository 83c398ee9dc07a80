package io.troupe.cli;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The timed runs of one {@code troupe bench --ablation}, reduced to one {@link AblationSummary} per
 * lesson, workload, setting and worker count (as AblationSummary defines the ratio: per round, over
 * the same round's baseline), to the printed table and to ablation.csv.
 *
 * <p>Not threadsafe: filled by the bench's one thread, read once it is done.
 */
final class AblationReport {

    /** The header of ablation.csv; scripts rely on these columns in this order. */
    static final String CSV_HEADER = "lesson,workload,setting,workers,run,seconds";

    private final List<AblationLesson> lessons;
    private final List<AblationRun> runs = new ArrayList<>();

    /** @param lessons the lessons run, in order: they name each lesson's baseline and settings' order */
    AblationReport(List<AblationLesson> lessons) {
        this.lessons = List.copyOf(lessons);
    }

    void add(AblationRun run) {
        runs.add(run);
    }

    /**
     * One summary per lesson, workload, worker count and setting, in that order (lessons and their
     * workloads and settings as the lesson table lists them, the baseline first; workers ascending).
     * A group with no runs is left out.
     */
    List<AblationSummary> summaries() {
        Map<String, List<AblationRun>> groups = new HashMap<>();
        for (AblationRun run : runs) {
            groups.computeIfAbsent(key(run.lesson(), run.workload(), run.setting(), run.workers()),
                    k -> new ArrayList<>()).add(run);
        }
        List<Integer> workerCounts = runs.stream().map(AblationRun::workers).distinct().sorted().toList();
        List<AblationSummary> out = new ArrayList<>();
        for (AblationLesson lesson : lessons) {
            String baseline = lesson.baseline().name();
            for (AblationWorkload workload : lesson.workloads()) {
                for (int workers : workerCounts) {
                    List<AblationRun> base = groups.get(key(lesson.id(), workload.id(), baseline, workers));
                    for (AblationSetting setting : lesson.settings()) {
                        List<AblationRun> group = groups.get(key(lesson.id(), workload.id(), setting.name(), workers));
                        if (group != null) {
                            out.add(summary(lesson.id(), workload.id(), setting.name(),
                                    setting.name().equals(baseline), workers, group, base));
                        }
                    }
                }
            }
        }
        return out;
    }

    /**
     * The printed table: per lesson, workload, worker count and setting the median and min-max
     * seconds, and the ratio to the baseline with its spread; the baseline is marked with a star.
     */
    static String table(List<AblationSummary> summaries) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-6s %-10s %-20s %7s %10s %15s %7s %13s%n", "lesson", "workload",
                "setting", "workers", "median s", "min-max s", "ratio", "ratio min-max"));
        for (AblationSummary s : summaries) {
            sb.append(String.format(Locale.ROOT, "%-6s %-10s %-20s %7d %10.3f %15s %7s %13s%n", s.lesson(),
                    s.workload(), s.setting() + (s.baseline() ? " *" : ""), s.workers(), s.median(),
                    String.format(Locale.ROOT, "%.3f-%.3f", s.min(), s.max()),
                    Double.isNaN(s.ratio()) ? "-" : String.format(Locale.ROOT, "%.2f", s.ratio()),
                    Double.isNaN(s.ratio()) ? "-"
                            : String.format(Locale.ROOT, "%.2f-%.2f", s.ratioMin(), s.ratioMax())));
        }
        return sb.toString();
    }

    /** Writes every timed run to {@code file} under {@link #CSV_HEADER}. */
    void writeCsv(Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(CSV_HEADER);
            w.write('\n');
            for (AblationRun r : runs) {
                w.write(String.format(Locale.ROOT, "%s,%s,%s,%d,%d,%.6f%n", r.lesson(), r.workload(), r.setting(),
                        r.workers(), r.run(), r.seconds()));
            }
        }
    }

    /**
     * Reduces one group; {@code base} is the same lesson, workload and worker count under the
     * baseline (null when it was not run: the ratio is then NaN).
     */
    private static AblationSummary summary(String lesson, String workload, String setting, boolean isBaseline,
                                           int workers, List<AblationRun> group, List<AblationRun> base) {
        double[] seconds = group.stream().mapToDouble(AblationRun::seconds).sorted().toArray();
        double ratio = Double.NaN;
        double ratioMin = Double.NaN;
        double ratioMax = Double.NaN;
        if (isBaseline) {
            ratio = ratioMin = ratioMax = 1;
        } else if (base != null) {
            Map<Integer, Double> baseByRound = new HashMap<>();
            for (AblationRun run : base) {
                baseByRound.put(run.run(), run.seconds());
            }
            double[] ratios = group.stream().filter(run -> baseByRound.containsKey(run.run()))
                    .mapToDouble(run -> run.seconds() / baseByRound.get(run.run())).sorted().toArray();
            if (ratios.length > 0) {
                ratio = median(ratios);
                ratioMin = ratios[0];
                ratioMax = ratios[ratios.length - 1];
            }
        }
        return new AblationSummary(lesson, workload, setting, isBaseline, workers, seconds.length, median(seconds),
                seconds[0], seconds[seconds.length - 1], ratio, ratioMin, ratioMax);
    }

    /** The median of ascending {@code sorted}. */
    private static double median(double[] sorted) {
        assert sorted.length > 0 && Arrays.equals(sorted, Arrays.stream(sorted).sorted().toArray()) : "not sorted";
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static String key(String lesson, String workload, String setting, int workers) {
        return lesson + '/' + workload + '/' + setting + '/' + workers;
    }
}
