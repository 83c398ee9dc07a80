package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code troupe ablation}: each lesson's setting on and off, side by side in one run, over the
 * bench's round loop ({@link Ablation}, {@link Rounds}). {@code troupe bench --ablation} runs the
 * same with the bench's arguments ({@link BenchCommand}). Every argument is checked before any work;
 * a bad one exits with 2, a disagreement between settings with 1.
 *
 * <p>Not threadsafe: picocli runs it once, on the calling thread.
 */
@Command(name = "ablation", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Measure each lesson's setting on and off (docs/overview.md, \"Three lessons\"):",
            "s1 W3 and a right join (match flags), s2 W1 (arena preallocation, chunk size), s3 W2 and a Gather "
                    + "(transport, wake-ups).",
            "Writes DIR/ablation.csv (" + AblationReport.CSV_HEADER + "), DIR/ablation.png and a JFR profile of "
                    + "each baseline (DIR/profile-*.jfr, .txt)."})
final class AblationCommand implements Callable<Integer> {

    /** Rows when --rows is not given: enough for lesson 3's Gather to move 10,000,000 rows. */
    static final long DEFAULT_ROWS = 10_000_000;

    /** Why an ablation refuses 0 workers, for the error. */
    private static final String WHY_NO_LEADER = " in an ablation (0, the leader alone, runs no workers whose "
            + "settings differ)";

    @Mixin
    AblationOptions lessons = new AblationOptions();

    @Mixin
    RoundOptions rounds = defaults();

    @Spec
    CommandSpec spec;

    /** Alters each outcome before it is checked (the identity but in tests). */
    BenchCommand.OutcomeSeam seam = (engine, workers, outcome) -> outcome;

    /** The ablation's defaults: {@link #DEFAULT_ROWS} rows, workers {@link #defaultWorkers}, the bench's rounds. */
    static RoundOptions defaults() {
        return new RoundOptions(DEFAULT_ROWS, defaultWorkers(Runtime.getRuntime().availableProcessors()));
    }

    @Override
    public Integer call() throws Exception {
        return run(spec, "ablation");
    }

    /**
     * Checks every argument, then runs the ablation.
     *
     * @param caller     the command whose bad arguments these are (this one, or bench's with --ablation)
     * @param invocation how the output names the command: "ablation", "bench --ablation"
     * @return 0, or 1 when two settings disagreed on an answer
     */
    int run(CommandSpec caller, String invocation) throws Exception {
        List<Integer> counts = rounds.check(caller, 1, WHY_NO_LEADER);
        List<AblationLesson> chosen = lessons.chosen(caller, rounds.rows, counts.get(counts.size() - 1));
        OutDirectory.prepare(caller, rounds.out);
        return new Ablation(chosen, counts, rounds, seam, invocation)
                .run(caller.commandLine().getOut(), caller.commandLine().getErr());
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
