package io.troupe.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Shows how far a long job has come, on stderr. On a terminal it redraws one line in place
 * ({@code \r}) with a bar, the percentage, a count and the elapsed time; otherwise (a pipe, a log
 * file) it prints a plain line at every further tenth, so that logs stay readable. Written here
 * rather than taken from a library because it needs no terminal handling beyond {@code \r}.
 *
 * <p>Not threadsafe: the thread that waits for the job calls {@link #update} and {@link #done};
 * the job's own threads only feed the suppliers (which must be threadsafe).
 */
final class ProgressBar {

    private static final int WIDTH = 40;

    private final PrintWriter err;
    private final String label;
    private final boolean terminal;
    private final DoubleSupplier fraction;
    private final LongSupplier count;
    private final long start = System.nanoTime();
    private int lastTenth = -1;

    ProgressBar(PrintWriter err, String label, boolean terminal, DoubleSupplier fraction, LongSupplier count) {
        this.err = err;
        this.label = label;
        this.terminal = terminal;
        this.fraction = fraction;
        this.count = count;
    }

    /** Redraws (on a terminal) or prints a line when another tenth is done (otherwise). */
    void update() {
        double f = fraction.getAsDouble();
        if (terminal) {
            int filled = (int) Math.round(f * WIDTH);
            err.printf(Locale.ROOT, "\r%s [%s%s] %3.0f%% %,d rows %.1f s", label, "=".repeat(filled),
                    " ".repeat(WIDTH - filled), f * 100, count.getAsLong(), seconds());
            err.flush();
        } else {
            int tenth = (int) (f * 10);
            if (tenth > lastTenth) {
                lastTenth = tenth;
                err.printf(Locale.ROOT, "%s %3d%% %,d rows %.1f s%n", label, tenth * 10, count.getAsLong(), seconds());
                err.flush();
            }
        }
    }

    /** Ends the bar's line (on a terminal) at 100%. */
    void done() {
        if (terminal) {
            err.printf(Locale.ROOT, "\r%s [%s] 100%% %,d rows %.1f s%n", label, "=".repeat(WIDTH), count.getAsLong(),
                    seconds());
            err.flush();
        }
    }

    private double seconds() {
        return (System.nanoTime() - start) / 1e9;
    }
}
