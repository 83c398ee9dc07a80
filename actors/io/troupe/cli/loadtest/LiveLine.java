package io.troupe.cli.loadtest;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * The load test's progress on the terminal: on a TTY one line rewritten in place (a carriage
 * return) every interval; otherwise (a log, a pipe) a plain line every {@value #PLAIN_EVERY_SECONDS}
 * seconds and at the end of each phase, so that a log stays readable.
 *
 * <p>Not threadsafe: the reporting thread alone writes it.
 */
final class LiveLine {

    private static final double PLAIN_EVERY_SECONDS = 5;

    private final PrintWriter err;
    private final boolean tty;
    private double lastPlainSeconds = Double.NEGATIVE_INFINITY;
    /** The last update, and whether it has been printed (a plain line skips some). */
    private String lastLine;
    private boolean lastPrinted;
    private int lastLength;

    LiveLine(PrintWriter err, boolean tty) {
        this.err = err;
        this.tty = tty;
    }

    /**
     * Shows where {@code phase} stands after {@code elapsed} of {@code duration} seconds: the counts so
     * far and the last interval's throughput and latency ({@code last}, the {@link LoadRecorder#ALL} row).
     */
    void update(String phase, double elapsed, double duration, long issued, long completed, long errors,
                IntervalRow last) {
        String line = String.format(Locale.ROOT,
                "loadtest: %s %4.0f/%.0f s  issued %,d  completed %,d  errors %,d  | last %.0f s: %.1f q/s  "
                        + "p50 %s  p99 %s",
                phase, Math.min(elapsed, duration), duration, issued, completed, errors,
                last.toSeconds() - last.fromSeconds(), last.throughput(), ms(last.latency().p50()),
                ms(last.latency().p99()));
        lastLine = line;
        lastPrinted = false;
        if (tty) {
            err.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
            lastLength = line.length();
            lastPrinted = true;
            err.flush();
        } else if (elapsed - lastPlainSeconds >= PLAIN_EVERY_SECONDS) {
            err.println(line);
            err.flush();
            lastPlainSeconds = elapsed;
            lastPrinted = true;
        }
    }

    /** Ends the phase's line: a newline on a TTY, the last update if it was skipped otherwise. */
    void finish() {
        if (tty && lastLength > 0) {
            err.println();
        } else if (!tty && lastLine != null && !lastPrinted) {
            err.println(lastLine);
        }
        err.flush();
        lastLine = null;
        lastLength = 0;
        lastPlainSeconds = Double.NEGATIVE_INFINITY;
    }

    /** {@code millis} with 3 significant digits or so: 0.412 ms, 12.3 ms, 1234 ms. */
    static String ms(double millis) {
        if (millis < 1) {
            return String.format(Locale.ROOT, "%.3f ms", millis);
        }
        if (millis < 100) {
            return String.format(Locale.ROOT, "%.1f ms", millis);
        }
        return String.format(Locale.ROOT, "%.0f ms", millis);
    }
}
