package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

import java.util.ArrayList;
import java.util.List;

/**
 * The options of {@code troupe bench --ablation}, mixed into {@link BenchCommand}, and the step
 * from its parsed options to an {@link Ablation}: the ablation's own defaults (10,000,000 rows,
 * workers 1, 2, 4, ... processors) where the bench's were not overridden, and its own checks (no 0 workers,
 * known lessons), each a bad argument (exit 2).
 *
 * <p>Not threadsafe: picocli fills it and the bench reads it, on one thread.
 */
final class AblationOptions {

    /** Rows when --rows is not given: enough for lesson 3's Gather to move 10,000,000 rows. */
    static final long DEFAULT_ROWS = 10_000_000;

    @Option(names = "--ablation",
            description = {"each lesson's setting on and off (shared/design.md, \"The three lessons\"): "
                    + "s1 W3 and a right join (match flags), s2 W1 (arena preallocation, chunk size), s3 W2 and a "
                    + "Gather (transport, wake-ups); writes DIR/ablation.csv (" + AblationReport.CSV_HEADER
                    + ") and ablation.png, and a JFR profile of each baseline (DIR/profile-*.jfr, .txt). "
                    + "--workload and --peers are ignored; --rows defaults to 10000000, --scale (W3) to 1, "
                    + "--workers to 1, 2, 4, ... processors (0 not allowed)"})
    boolean requested;

    @Option(names = "--lessons", split = ",", paramLabel = "L",
            description = "with --ablation: lessons to measure, of s1, s2, s3 (default: ${DEFAULT-VALUE})")
    List<String> lessons = new ArrayList<>(List.of("s1", "s2", "s3"));

    /**
     * Runs the ablation with {@code bench}'s checked options and {@code counts}, its worker counts
     * (ascending, each in 0..256).
     *
     * @throws ParameterException for a bad argument of the ablation's own
     */
    int run(BenchCommand bench, List<Integer> counts) throws Exception {
        CommandSpec spec = bench.spec;
        ParseResult parsed = spec.commandLine().getParseResult();
        List<Integer> workerCounts = counts;
        if (!parsed.hasMatchedOption("--workers")) {
            workerCounts = defaultWorkers(Runtime.getRuntime().availableProcessors());
        } else if (counts.contains(0)) {
            throw new ParameterException(spec.commandLine(), "--workers must be in 1.." + QueryOptions.MAX_WORKERS
                    + " with --ablation (0, the leader alone, runs no workers whose settings differ), got 0");
        }
        long rows = parsed.hasMatchedOption("--rows") ? bench.rows : DEFAULT_ROWS;
        int maxWorkers = workerCounts.get(workerCounts.size() - 1);
        List<AblationLesson> table = AblationLesson.table(rows, maxWorkers);
        List<AblationLesson> chosen = new ArrayList<>();
        for (String id : lessons) {
            AblationLesson lesson = AblationLesson.find(table, id);
            if (lesson == null) {
                throw new ParameterException(spec.commandLine(), "unknown lesson '" + id + "' in --lessons (known: "
                        + String.join(", ", table.stream().map(AblationLesson::id).toList()) + ")");
            }
            if (!chosen.contains(lesson)) {
                chosen.add(lesson);
            }
        }
        return new Ablation(chosen, workerCounts, new BenchSize(rows, bench.scale), bench.runs, bench.warmups,
                bench.out, bench.seam).run(spec.commandLine().getOut(), spec.commandLine().getErr());
    }

    /**
     * 1, 2, 4, ... up to {@code processors}, and {@code processors} itself: on a many-core machine
     * every count from 1 to K would take hours, and the doublings show the scaling as well.
     */
    static List<Integer> defaultWorkers(int processors) {
        int k = Math.min(processors, QueryOptions.MAX_WORKERS);
        List<Integer> counts = new ArrayList<>();
        for (int w = 1; w < k; w *= 2) {
            counts.add(w);
        }
        counts.add(k);
        return counts;
    }
}
