package io.troupe.transport.aeron;

import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The thread that runs an embedded driver's shared agent (conductor, sender and receiver: Aeron's
 * {@code INVOKER} threading mode), in place of the thread Aeron's {@code SHARED} mode starts, so that
 * an Error cannot end it. Aeron's runner hands whatever a duty cycle throws to the driver's error
 * handler, whose first step records it in the driver's error log; on a full heap that allocates,
 * throws a second OutOfMemoryError, and the runner's thread dies with it, taking every channel of
 * the Troupe with it (measured: 8 of 9 failed runs of a GROUP BY that outgrew a 160 MiB heap lost
 * the driver so, in {@code ControlTransportPoller}'s iterator or in the error log). This loop
 * catches what escapes a cycle and goes on with the next: the failing query fails, the driver
 * serves the others.
 *
 * <p>Threadsafe: started once, {@link #close()}d once, from the thread that owns the driver, which
 * closes the driver (and so the invoker) only after this thread has stopped.
 */
final class DriverDutyCycle implements AutoCloseable {

    /** Longer than any duty cycle takes; a cycle that does not end by then leaves a stuck daemon thread. */
    private static final long STOP_WAIT_MS = TimeUnit.SECONDS.toMillis(10);

    private final AgentInvoker invoker;
    private final IdleStrategy idle;
    private final Thread thread;
    private volatile boolean running = true;

    private DriverDutyCycle(AgentInvoker invoker, IdleStrategy idle, ThreadFactory threads) {
        this.invoker = invoker;
        this.idle = idle;
        this.thread = threads.newThread(this::run);
    }

    /** Starts a thread from {@code threads} that invokes the started {@code invoker} until {@link #close()}. */
    static DriverDutyCycle start(AgentInvoker invoker, IdleStrategy idle, ThreadFactory threads) {
        DriverDutyCycle cycle = new DriverDutyCycle(invoker, idle, threads);
        cycle.thread.start();
        return cycle;
    }

    private void run() {
        while (running && !invoker.isClosed()) {
            try {
                idle.idle(invoker.invoke());
            } catch (Throwable e) {
                // The invoker gave e to the driver's error handler, which threw (see the class comment).
                idle.reset();
            }
        }
    }

    /** Stops the thread and waits for it, bounded; the invoker stays open for its driver to close. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(STOP_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
