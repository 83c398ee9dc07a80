package io.troupe.transport.baseline;

import io.troupe.config.TroupeSettings.Wakeups;
import io.troupe.operators.batch.Batch;
import io.troupe.transport.BatchChannel;
import io.troupe.transport.BatchHandler;
import io.troupe.transport.BatchReceiver;
import io.troupe.transport.BatchSender;

import java.util.Arrays;

/**
 * Lesson 3's "off" position ({@code troupe.gather.transport = locked-queue}): a bounded ring of
 * batch references under one monitor, with {@code wait}/{@code notifyAll} to park and wake the two
 * sides, as a Java programmer would first write it and as PostgreSQL's shm_mq worked before its
 * fixes. Batches are handed over by reference: nothing is encoded or copied.
 *
 * <p>Wake-ups ({@code troupe.gather.wakeups}):
 * <ul>
 *   <li>{@code per-batch}: every put and every take is its own trip through the monitor and wakes
 *       the other side.</li>
 *   <li>{@code batched}: a side wakes the other only once a quarter of the ring has changed hands
 *       since its last signal (shm_mq's rule since PostgreSQL 11 and 15), or at end of stream,
 *       close, or {@link BatchSender#flush()}; the consumer takes every ready batch (up to its limit)
 *       in one trip.</li>
 * </ul>
 *
 * <h2>Concurrency</h2>
 * Every field below the monitor is read and written only while holding {@code monitor}; the monitor's
 * release/acquire publishes the batches with them. {@code ring}, {@code head}, {@code count},
 * {@code putsSinceSignal} and {@code sentEndOfStream} are written by the producer (puts) and the
 * consumer (takes); {@code takesSinceSignal} by the consumer; {@code senderClosed} and
 * {@code receiverClosed} by whichever thread closes that end. A side parks in {@code wait()} only
 * after checking its condition under the monitor, so no signal is lost.
 *
 * <p>Why batched wake-ups cannot deadlock: a side's pending count (puts or takes since its last
 * signal) only resets when it signals, which wakes the other side. So a consumer parked on an empty
 * ring has fewer than a quarter of the ring in it (else the producer would have signalled), while a
 * producer parks only on a full ring; the two never park at once, and symmetrically for the
 * consumer's takes. Both ends' close and the end of stream always signal.
 *
 * <p>Threadsafe as a whole: the sender is owned by one producer and the receiver by one consumer.
 */
public final class LockedQueueChannel implements BatchChannel {

    /** Marks the end of stream in the ring: identity, not contents, tells it apart. */
    private static final Batch END_OF_STREAM = Batch.of(0);

    private final Object monitor = new Object();
    private final Batch[] ring;
    private final boolean perBatch;
    /** A quarter of the ring, at least one batch. */
    private final int signalThreshold;
    private final Runnable onClosed;
    private final Sender sender;
    private final Receiver receiver;

    private int head;
    private int count;
    private long putPosition;
    private int putsSinceSignal;
    private int takesSinceSignal;
    private boolean sentEndOfStream;
    private boolean senderClosed;
    private boolean receiverClosed;
    private boolean reportedClosed;
    /** Wake-ups sent by either side: what lesson 3 counts. */
    private long signals;

    /**
     * @param capacity batches the ring holds ({@code troupe.gather.queue-capacity})
     * @param wakeups  when each side wakes the other ({@code troupe.gather.wakeups})
     * @param onClosed run once, on the thread that closes the second end (a registry's release)
     */
    public LockedQueueChannel(int capacity, Wakeups wakeups, Runnable onClosed) {
        if (capacity < 1) {
            throw new IllegalArgumentException("queue capacity must be at least 1, got " + capacity);
        }
        this.ring = new Batch[capacity];
        this.perBatch = wakeups == Wakeups.PER_BATCH;
        this.signalThreshold = Math.max(1, capacity / 4);
        this.onClosed = onClosed;
        this.sender = new Sender();
        this.receiver = new Receiver();
    }

    @Override
    public BatchSender sender() {
        return sender;
    }

    @Override
    public BatchReceiver receiver() {
        return receiver;
    }

    @Override
    public boolean isClosed() {
        synchronized (monitor) {
            return senderClosed && receiverClosed;
        }
    }

    @Override
    public void close() {
        sender.close();
        receiver.close();
    }

    /** Runs onClosed once both ends are closed; called after a close, outside the monitor. */
    private void reportIfClosed() {
        boolean report;
        synchronized (monitor) {
            report = senderClosed && receiverClosed && !reportedClosed;
            reportedClosed |= report;
        }
        if (report) {
            onClosed.run();
        }
    }

    @Override
    public String toString() {
        return "LockedQueueChannel[capacity=" + ring.length + ", wakeups=" + (perBatch ? "per-batch" : "batched") + "]";
    }

    private final class Sender implements BatchSender {

        @Override
        public long offer(Batch batch) {
            return put(batch);
        }

        @Override
        public long offerEndOfStream() {
            return put(END_OF_STREAM);
        }

        private long put(Batch batch) {
            synchronized (monitor) {
                if (receiverClosed || senderClosed) {
                    return CLOSED;
                }
                if (sentEndOfStream) {
                    throw new IllegalStateException("offer after end of stream on " + LockedQueueChannel.this);
                }
                if (count == ring.length) {
                    return BACK_PRESSURED;
                }
                ring[(head + count) % ring.length] = batch;
                count++;
                putPosition++;
                sentEndOfStream = batch == END_OF_STREAM;
                if (perBatch || sentEndOfStream || ++putsSinceSignal >= signalThreshold) {
                    putsSinceSignal = 0;
                    signal();
                }
                return putPosition;
            }
        }

        @Override
        public void flush() {
            synchronized (monitor) {
                if (putsSinceSignal > 0) {
                    putsSinceSignal = 0;
                    signal();
                }
            }
        }

        @Override
        public void idle(int workCount) {
            if (workCount > 0) {
                return;
            }
            synchronized (monitor) {
                while (count == ring.length && !receiverClosed && !senderClosed) {
                    if (!await()) {
                        return;
                    }
                }
            }
        }

        @Override
        public void close() {
            synchronized (monitor) {
                if (senderClosed) {
                    return;
                }
                senderClosed = true;
                monitor.notifyAll();
            }
            reportIfClosed();
        }
    }

    private final class Receiver implements BatchReceiver {

        /** Batches taken in one trip through the monitor, delivered outside it. Consumer-owned. */
        private final Batch[] taken = new Batch[ring.length];
        private volatile State state = State.OPEN;

        @Override
        public int poll(BatchHandler handler, int batchLimit) {
            int delivered = 0;
            while (state == State.OPEN && delivered < batchLimit) {
                int n = take(perBatch ? 1 : batchLimit - delivered);
                if (n == 0) {
                    break;
                }
                try {
                    for (int i = 0; i < n; i++) {
                        Batch batch = taken[i];
                        if (batch == END_OF_STREAM) {
                            state = State.END_OF_STREAM;
                            handler.onEndOfStream();
                        } else {
                            handler.onBatch(batch);
                        }
                    }
                } finally {
                    Arrays.fill(taken, 0, n, null);
                }
                delivered += n;
            }
            return delivered;
        }

        /** Moves up to {@code limit} batches into {@link #taken}; updates the state when the stream is over. */
        private int take(int limit) {
            synchronized (monitor) {
                if (receiverClosed) {
                    state = State.CLOSED;
                    return 0;
                }
                int n = Math.min(limit, count);
                if (n == 0) {
                    if (senderClosed) {
                        // An end of stream would still be in the ring: the producer left without one.
                        state = State.PRODUCER_GONE;
                    }
                    return 0;
                }
                for (int i = 0; i < n; i++) {
                    int slot = (head + i) % ring.length;
                    taken[i] = ring[slot];
                    ring[slot] = null;
                }
                head = (head + n) % ring.length;
                count -= n;
                takesSinceSignal += n;
                if (perBatch || takesSinceSignal >= signalThreshold) {
                    takesSinceSignal = 0;
                    signal();
                }
                return n;
            }
        }

        @Override
        public State state() {
            return state;
        }

        @Override
        public void flush() {
            synchronized (monitor) {
                if (takesSinceSignal > 0) {
                    takesSinceSignal = 0;
                    signal();
                }
            }
        }

        @Override
        public void idle(int workCount) {
            if (workCount > 0 || state != State.OPEN) {
                return;
            }
            synchronized (monitor) {
                while (count == 0 && !senderClosed && !receiverClosed) {
                    if (!await()) {
                        return;
                    }
                }
            }
        }

        @Override
        public void close() {
            synchronized (monitor) {
                if (receiverClosed) {
                    return;
                }
                receiverClosed = true;
                // Nobody will read these: let them go now rather than with the channel.
                Arrays.fill(ring, null);
                count = 0;
                monitor.notifyAll();
            }
            if (state == State.OPEN) {
                state = State.CLOSED;
            }
            reportIfClosed();
        }
    }

    /** Wakes whoever waits on the monitor (held): the other side, if it is parked. */
    private void signal() {
        signals++;
        monitor.notifyAll();
    }

    /** Wake-ups sent so far by put, take and flush (close not counted). Visible for testing. */
    long signals() {
        synchronized (monitor) {
            return signals;
        }
    }

    /** Waits on the monitor (held); false when interrupted, with the interrupt kept for the caller to see. */
    private boolean await() {
        try {
            monitor.wait();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
