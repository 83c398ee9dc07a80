package io.troupe.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The round loop of {@code troupe bench} and of its ablation: untimed warm-up rounds, then timed
 * ones; each round runs every slot (an engine or a setting, with a worker count) once, after an
 * untimed {@code System.gc()}, in an order that flips every other round, so that neither drift nor
 * the previous run's garbage favours one slot, and both sides of a comparison see the same moment
 * of a noisy machine. A progress line per round goes to stderr.
 *
 * <p>Not threadsafe: a bench runs its rounds on its one thread.
 */
final class Rounds {

    /** One slot of every round. */
    interface Slot {
        /** How the progress line names it: {@code troupe/2}, {@code aeron/4}. */
        String name();

        /** Runs it once, checked against the workload's first answer. */
        BenchOutcome run() throws Exception;

        /** Keeps a timed run's outcome (round 1 and up). */
        void record(int round, BenchOutcome outcome);

        /** Hears that it could not run within its limits: it runs in no later round. */
        default void refused(EngineRefusedException e) {
        }
    }

    private Rounds() {
    }

    /**
     * Runs {@code warmups} untimed rounds, then {@code runs} timed ones, of {@code slots}; each
     * round's progress line reads "PREFIX: TITLE: run R/RUNS:  name seconds ...". A slot that is
     * refused its run drops out, with a line that says why.
     */
    static void run(List<? extends Slot> slots, int warmups, int runs, String prefix, String title, PrintWriter err)
            throws Exception {
        List<Slot> live = new ArrayList<>(slots);
        for (int round = -warmups + 1; round <= runs; round++) {
            boolean timed = round >= 1;
            List<Slot> order = new ArrayList<>(live);
            if ((round & 1) == 0) {
                Collections.reverse(order);
            }
            StringBuilder line = new StringBuilder();
            for (Slot slot : order) {
                // Collect the last run's garbage now, untimed, rather than inside the next run.
                System.gc();
                BenchOutcome outcome;
                try {
                    outcome = slot.run();
                } catch (EngineRefusedException e) {
                    live.remove(slot);
                    slot.refused(e);
                    progress(err, prefix, "%s: %s refused: %s", title, slot.name(), e.getMessage());
                    continue;
                }
                if (timed) {
                    slot.record(round, outcome);
                }
                line.append(String.format(Locale.ROOT, "  %s %.3f s", slot.name(), outcome.seconds()));
            }
            progress(err, prefix, "%s: %s:%s", title,
                    timed ? "run " + round + "/" + runs : "warm-up " + (round + warmups) + "/" + warmups, line);
        }
    }

    /** A progress line on stderr, flushed: "PREFIX: ...". */
    static void progress(PrintWriter err, String prefix, String format, Object... args) {
        err.printf(Locale.ROOT, prefix + ": " + format + "%n", args);
        err.flush();
    }

    /** Seconds since {@code startNanos}. */
    static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
