package io.troupe.actors.exchange;

import io.troupe.operators.batch.Batch;

import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * {@link GatherChannels} over bounded in-heap queues: the stand-in used until the Aeron transport
 * lands (then channels come from {@code TransportRuntime}). Each channel is a non-blocking
 * {@link ArrayBlockingQueue} of batches followed by an end-of-stream marker; neither end ever
 * blocks in it, both idle by parking briefly.
 *
 * <p>Threadsafe.
 */
public final class QueueGatherChannels implements GatherChannels {

    /** Batches a channel holds before its producer is back-pressured: a few per worker is enough to overlap. */
    private static final int CAPACITY = 16;
    /** How long an end parks when it made no progress: short, since neither end is ever woken. */
    private static final long IDLE_PARK_NS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final Object END_OF_STREAM = new Object();

    private final Set<QueueChannel> open = ConcurrentHashMap.newKeySet();

    @Override
    public GatherChannel open() {
        QueueChannel channel = new QueueChannel();
        open.add(channel);
        return channel;
    }

    @Override
    public int openChannels() {
        return open.size();
    }

    @Override
    public void close() {
        for (QueueChannel channel : Set.copyOf(open)) {
            channel.close();
        }
    }

    /**
     * One channel. {@code producerGone} and {@code closed} are written by either end (or the owner)
     * and read by the consumer; the queue publishes the batches themselves.
     */
    private final class QueueChannel implements GatherChannel {
        private final ArrayBlockingQueue<Object> queue = new ArrayBlockingQueue<>(CAPACITY);
        private final AtomicLong position = new AtomicLong();
        private volatile boolean producerGone;
        private volatile boolean closed;
        /** Consumer-owned. */
        private boolean endDelivered;

        @Override
        public long offer(Batch batch) {
            return send(batch);
        }

        @Override
        public long offerEndOfStream() {
            return send(END_OF_STREAM);
        }

        private long send(Object frame) {
            if (closed) {
                return CLOSED;
            }
            return queue.offer(frame) ? position.incrementAndGet() : BACK_PRESSURED;
        }

        @Override
        public void producerIdle() {
            LockSupport.parkNanos(IDLE_PARK_NS);
        }

        @Override
        public void closeProducer() {
            producerGone = true;
        }

        @Override
        public int poll(Handler handler, int limit) {
            int delivered = 0;
            while (delivered < limit && !endDelivered && !closed) {
                Object frame = queue.poll();
                if (frame == null) {
                    break;
                }
                delivered++;
                if (frame == END_OF_STREAM) {
                    endDelivered = true;
                    handler.onEndOfStream();
                } else {
                    handler.onBatch((Batch) frame);
                }
            }
            return delivered;
        }

        @Override
        public State state() {
            if (closed) {
                return State.CLOSED;
            }
            if (endDelivered) {
                return State.END_OF_STREAM;
            }
            // Gone only once everything it sent before leaving has been read.
            return producerGone && queue.isEmpty() ? State.PRODUCER_GONE : State.OPEN;
        }

        @Override
        public void consumerIdle() {
            LockSupport.parkNanos(IDLE_PARK_NS);
        }

        @Override
        public void close() {
            closed = true;
            queue.clear();
            open.remove(this);
        }
    }
}
