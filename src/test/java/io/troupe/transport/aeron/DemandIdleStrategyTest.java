package io.troupe.transport.aeron;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class DemandIdleStrategyTest {

    /** Longer than the test: an agent that wakes before it is asked to was woken by something else. */
    private static final long REST_NS = TimeUnit.MINUTES.toNanos(10);

    @Test
    void aRestingAgentWakesOnTheFirstDemandAndBacksOffUntilTheLastIsReleased() throws Exception {
        DemandIdleStrategy idle = new DemandIdleStrategy(REST_NS);
        AtomicLong cycles = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread agent = new Thread(() -> {
            while (running.get()) {
                cycles.incrementAndGet();
                idle.idle(0);
            }
        }, "demand-idle-test-agent");
        agent.setDaemon(true);
        agent.start();
        try {
            awaitCycles(cycles, 1);
            Thread.sleep(200);
            // Resting: one park of ten minutes (a spurious wake-up at most adds one).
            assertTrue(cycles.get() <= 2, "cycles while resting: " + cycles.get());

            DemandIdleStrategy.Demand first = idle.demand();
            DemandIdleStrategy.Demand second = idle.demand();
            long woken = cycles.get();
            // Woken at once, then backing off with parks of at most 1 ms: many cycles, not one.
            awaitCycles(cycles, woken + 50);
            assertEquals(2, idle.demands());

            first.release();
            first.release();
            assertEquals(1, idle.demands(), "a demand counts once however often it is released");
            awaitCycles(cycles, cycles.get() + 50);

            second.release();
            assertEquals(0, idle.demands());
            // The cycle under way when the last demand went may still back off once; then it rests again.
            Thread.sleep(50);
            long resting = cycles.get();
            Thread.sleep(200);
            assertTrue(cycles.get() <= resting + 1, "cycles after the last release: " + (cycles.get() - resting));
        } finally {
            running.set(false);
            idle.demand();
            agent.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertFalse(agent.isAlive());
    }

    @Test
    void aDemandBeforeTheAgentFirstIdlesIsSeenByIt() throws Exception {
        DemandIdleStrategy idle = new DemandIdleStrategy(REST_NS);
        DemandIdleStrategy.Demand demand = idle.demand();
        AtomicLong cycles = new AtomicLong();
        Thread agent = new Thread(() -> {
            while (cycles.incrementAndGet() < 100) {
                idle.idle(0);
            }
        }, "demand-idle-test-agent");
        agent.setDaemon(true);
        agent.start();
        agent.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(agent.isAlive(), "an agent with a demand on it never rests");
        demand.release();
    }

    @Test
    void aRestShorterThanThePromptParkIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new DemandIdleStrategy(1_000));
        assertTrue(e.getMessage().contains("shorter than the prompt park"), e.getMessage());
    }

    private static void awaitCycles(AtomicLong cycles, long atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (cycles.get() < atLeast) {
            assertTrue(System.nanoTime() - deadline < 0, "agent cycles did not reach " + atLeast + ": " + cycles.get());
            Thread.sleep(1);
        }
    }
}
