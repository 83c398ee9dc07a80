package io.troupe.cli.loadtest;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The time a load test measures with and waits on: {@link #SYSTEM} in a run, a fake one in tests
 * (to show, with no timing in the test, that latency counts from the intended start).
 * Implementations are threadsafe: every client reads and waits on the same clock.
 */
interface LoadClock {

    /** {@link System#nanoTime()} and short parks. */
    LoadClock SYSTEM = new LoadClock() {
        /** Longest park between checks of the stop signal: a stop is seen within this. */
        private static final long PARK_NANOS = 10_000_000;

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public boolean sleepUntil(long deadlineNanos, BooleanSupplier stopped) {
            while (true) {
                long remaining = deadlineNanos - System.nanoTime();
                if (remaining <= 0) {
                    return true;
                }
                if (stopped.getAsBoolean() || Thread.currentThread().isInterrupted()) {
                    return false;
                }
                LockSupport.parkNanos(Math.min(remaining, PARK_NANOS));
            }
        }
    };

    /** Now, in nanoseconds from an arbitrary origin (as {@link System#nanoTime()}). */
    long nanoTime();

    /**
     * Waits until {@link #nanoTime()} reaches {@code deadlineNanos}: true then, false when
     * {@code stopped} turned true (or the thread was interrupted) first. Never waits past the deadline.
     */
    boolean sleepUntil(long deadlineNanos, BooleanSupplier stopped);
}
