package io.troupe.cli.loadtest;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * A clock that moves only when told: a query "takes" time by advancing it, and waiting for a due
 * time jumps to it. Lets a test say exactly when each query started and ended, with no timing.
 * Threadsafe, but deterministic only with one client.
 */
final class FakeClock implements LoadClock {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    @Override
    public long nanoTime() {
        return now.get();
    }

    @Override
    public boolean sleepUntil(long deadlineNanos, BooleanSupplier stopped) {
        if (stopped.getAsBoolean()) {
            return false;
        }
        now.accumulateAndGet(deadlineNanos, Math::max);
        return true;
    }

    void advanceMillis(long millis) {
        now.addAndGet(millis * 1_000_000);
    }
}
