package io.troupe.transport.aeron;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The idle strategy of an Aeron agent whose promptness matters only while someone waits on it: a
 * client's conductor (which tells a new subscription that its producer's log is there) or an embedded
 * driver's duty cycle (which moves the limit of every IPC producer from its consumer's position). While
 * any {@link Demand} is held the agent backs off as Aeron's drivers do, parking at most
 * {@value #PROMPT_MAX_PARK_NS} ns; while none is, it rests, parking {@code restNs} at a time, and the
 * first demand wakes it at once.
 *
 * <p>Why: on the 2-core machine here, each agent that wakes every millisecond costs about 14 ms of CPU a
 * second (half of it in the kernel) when idle and more under load, and a cluster node had three (two
 * client conductors and its embedded driver). Sleeping Aeron's 16 ms instead made every query on two
 * nodes wait for its streams (W1 at 1,000 rows: 51 ms against 40 ms); with demand, waits keep the 1 ms
 * bound and nothing else pays for it.
 *
 * <p>The agent writes its thread before it reads the demand; {@link #demand()} raises the count before
 * it reads that thread and unparks it. So a demand that comes while the agent decides to rest either
 * is seen by it, or unparks it, before or during its park (a permit given before the park ends it at once).
 *
 * <p>Threadsafe: {@link #idle} and {@link #reset} from the agent's thread only; {@link #demand()} and
 * {@link Demand#release()} from any thread.
 */
public final class DemandIdleStrategy implements IdleStrategy {

    /** The longest park while someone waits: Aeron's driver default, and the bound this class keeps. */
    static final long PROMPT_MAX_PARK_NS = 1_000_000L;

    private final BackoffIdleStrategy prompt = new BackoffIdleStrategy(10, 20, 1_000, PROMPT_MAX_PARK_NS);
    private final long restNs;
    private final AtomicInteger demands = new AtomicInteger();
    private volatile Thread agent;

    /** @param restNs how long the agent parks at a time while nobody waits on it */
    public DemandIdleStrategy(long restNs) {
        if (restNs < PROMPT_MAX_PARK_NS) {
            throw new IllegalArgumentException("rest of " + restNs + " ns is shorter than the prompt park of "
                    + PROMPT_MAX_PARK_NS + " ns");
        }
        this.restNs = restNs;
    }

    /** A wait on the agent begins: it is prompt until every demand is released. */
    public Demand demand() {
        if (demands.getAndIncrement() == 0) {
            Thread resting = agent;
            if (resting != null) {
                LockSupport.unpark(resting);
            }
        }
        return new Demand();
    }

    /** Demands held now. */
    public int demands() {
        return demands.get();
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            prompt.reset();
            return;
        }
        idle();
    }

    @Override
    public void idle() {
        if (agent == null) {
            agent = Thread.currentThread();
        }
        if (demands.get() > 0) {
            prompt.idle();
        } else {
            prompt.reset();
            LockSupport.parkNanos(this, restNs);
        }
    }

    @Override
    public void reset() {
        prompt.reset();
    }

    @Override
    public String alias() {
        return "demand";
    }

    @Override
    public String toString() {
        return "DemandIdleStrategy{rest=" + restNs + " ns, demands=" + demands.get() + "}";
    }

    /** One wait on the agent; released once, however often {@link #release()} is called. */
    public final class Demand {
        private final AtomicBoolean released = new AtomicBoolean();

        private Demand() {
        }

        public void release() {
            if (released.compareAndSet(false, true)) {
                demands.decrementAndGet();
            }
        }
    }
}
