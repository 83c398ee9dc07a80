package io.troupe.cli.loadtest;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Ends a load test early (Ctrl-C, or a client that failed): the first {@link #request} records why
 * and runs the listeners, which cancel the queries in flight; later requests change nothing.
 *
 * <p>Threadsafe: the shutdown hook, the clients and the reporting thread all use it.
 */
final class StopSignal {

    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    /** Null while running; written once (under this), read by anyone. */
    private volatile String reason;

    /** Asks the run to stop; the first caller's {@code why} is kept. */
    void request(String why) {
        synchronized (this) {
            if (reason != null) {
                return;
            }
            reason = why;
        }
        for (Runnable listener : listeners) {
            listener.run();
        }
    }

    boolean requested() {
        return reason != null;
    }

    /** Why the run was stopped, or null. */
    String reason() {
        return reason;
    }

    /** Runs {@code listener} on a stop from now on, at once if stopped already; {@link #remove} ends it. */
    void add(Runnable listener) {
        listeners.add(listener);
        if (requested()) {
            listener.run();
        }
    }

    void remove(Runnable listener) {
        listeners.remove(listener);
    }
}
