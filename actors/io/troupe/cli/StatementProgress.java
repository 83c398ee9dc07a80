package io.troupe.cli;

import io.troupe.actors.api.TroupeStatus;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The progress line of a long statement in {@code bin/troupe sql}, on stderr: how long it has run, the workers
 * busy and the memory held ({@link TroupeStatus}). On a terminal it shows once the statement has run a second,
 * redrawn in place, and is wiped when the statement ends, so that short statements show nothing; elsewhere (a
 * pipe, a log) a plain line every few seconds, the first after a few seconds. Once the statement's rows print on
 * a terminal it shows no more, so that it never lands among them. Not threadsafe: the thread that waits for the
 * statement calls {@link #update}, {@link #rowsShown} and {@link #done}.
 */
final class StatementProgress {

    private static final long TERMINAL_AFTER_NS = 1_000_000_000L;
    private static final long PLAIN_EVERY_NS = 5_000_000_000L;

    /** What shows on a terminal: nothing yet, the line drawn, or the rows, which the line no longer joins. */
    private enum Drawn { NOTHING, LINE, ROWS }

    private final PrintWriter err;
    private final boolean terminal;
    private final Supplier<TroupeStatus> status;
    private final long start = System.nanoTime();
    private long nextPlainNs = PLAIN_EVERY_NS;
    private Drawn drawn = Drawn.NOTHING;
    private int width;

    StatementProgress(PrintWriter err, boolean terminal, Supplier<TroupeStatus> status) {
        this.err = err;
        this.terminal = terminal;
        this.status = status;
    }

    void update() {
        long elapsed = System.nanoTime() - start;
        if (drawn == Drawn.ROWS) {
            return;
        }
        if (terminal && elapsed >= TERMINAL_AFTER_NS) {
            String line = line(elapsed);
            err.print("\r" + line + " ".repeat(Math.max(0, width - line.length())));
            width = line.length();
            drawn = Drawn.LINE;
            err.flush();
        } else if (!terminal && elapsed >= nextPlainNs) {
            err.println(line(elapsed));
            nextPlainNs += PLAIN_EVERY_NS;
            err.flush();
        }
    }

    /** The statement's rows start printing: the line drawn on a terminal is wiped and shows no more. */
    void rowsShown() {
        done();
        if (terminal) {
            drawn = Drawn.ROWS;
        }
    }

    /** Wipes the line drawn on a terminal. */
    void done() {
        if (drawn == Drawn.LINE) {
            err.print("\r" + " ".repeat(width) + "\r");
            err.flush();
            drawn = Drawn.NOTHING;
        }
    }

    private String line(long elapsedNs) {
        TroupeStatus now = status.get();
        return String.format(Locale.ROOT, "running %.1f s: %d workers busy, %.1f MB held", elapsedNs / 1e9,
                now.liveWorkers(), now.memoryInUseBytes() / 1e6);
    }
}
