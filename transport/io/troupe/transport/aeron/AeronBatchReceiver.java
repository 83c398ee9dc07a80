package io.troupe.transport.aeron;

import io.aeron.ControlledFragmentAssembler;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.FrameDescriptor;
import io.aeron.logbuffer.Header;
import io.aeron.protocol.DataHeaderFlyweight;
import io.troupe.transport.BatchHandler;
import io.troupe.transport.BatchReceiver;
import io.troupe.transport.codec.BatchCodec;
import io.troupe.transport.codec.BatchDescriptor;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The consumer's end of an {@link AeronIpcChannel}, or of a stream between processes
 * ({@link SharedDriverStreams}): a controlled poll through a
 * {@link ControlledFragmentAssembler} (frames larger than the MTU arrive in fragments), which stops
 * ({@code BREAK}) after the batch limit or the end of stream, so each poll does bounded work.
 *
 * <p>Aeron hands an exception thrown by a fragment handler to its error handler and carries on, which
 * would hide a failed decode or a failing consumer. So the handler here catches it, stops the poll,
 * and {@link #poll} rethrows it to its caller.
 *
 * <p>Closing after the end of stream was delivered leaves the subscription open for the channel's
 * pool (see {@link AeronChannelPool}); closing before closes it.
 *
 * <p>Not threadsafe: owned by one consumer ({@link Subscription} is single-reader); only
 * {@link #close()} may come from another thread.
 */
final class AeronBatchReceiver implements BatchReceiver, ControlledFragmentHandler {

    private final ReceiverLink channel;
    private final Subscription subscription;
    private final ControlledFragmentAssembler assembler = new ControlledFragmentAssembler(this);
    private final IdleStrategy idleStrategy;
    /** Fragments one message may take: a poll's fragment limit is the batch limit times this. */
    private final int fragmentsPerMessage;
    private final AtomicBoolean closed = new AtomicBoolean();

    private volatile State state = State.OPEN;
    /** The stream position after the last frame delivered (where the stream started, before any). */
    private long consumedPosition;
    /** Set for the duration of one poll. */
    private BatchHandler handler;
    private int batchLimit;
    private int delivered;
    private Throwable failure;

    AeronBatchReceiver(ReceiverLink channel, Subscription subscription, long startPosition, int maxMessageLength,
                       int maxPayloadLength, IdleStrategy idleStrategy) {
        this.channel = channel;
        this.consumedPosition = startPosition;
        this.subscription = subscription;
        this.idleStrategy = idleStrategy;
        this.fragmentsPerMessage = (maxMessageLength + maxPayloadLength - 1) / maxPayloadLength;
    }

    /**
     * The receiver of the stream {@code image} reads, from the position it joined at: a stream between
     * processes, whose log (its term length, its MTU) is the producer's.
     */
    static AeronBatchReceiver ofImage(ReceiverLink link, Image image, IdleStrategy idleStrategy) {
        return new AeronBatchReceiver(link, image.subscription(), image.joinPosition(),
                FrameDescriptor.computeMaxMessageLength(image.termBufferLength()),
                image.mtuLength() - DataHeaderFlyweight.HEADER_LENGTH, idleStrategy);
    }

    @Override
    public int poll(BatchHandler batchHandler, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("batch limit must be at least 1, got " + limit);
        }
        if (state != State.OPEN) {
            return 0;
        }
        // Read before polling: everything the sender wrote before it closed is then in the log.
        long finalPosition = channel.senderFinalPosition();
        handler = batchHandler;
        batchLimit = limit;
        delivered = 0;
        try {
            int fragmentLimit = (int) Math.min(Integer.MAX_VALUE, (long) limit * fragmentsPerMessage);
            subscription.controlledPoll(assembler, fragmentLimit);
        } finally {
            handler = null;
        }
        if (failure != null) {
            Throwable cause = failure;
            failure = null;
            throwUnchecked(cause);
        }
        if (delivered == 0 && state == State.OPEN && finalPosition >= 0 && consumedPosition >= finalPosition) {
            state = State.PRODUCER_GONE;
        }
        return delivered;
    }

    @Override
    public Action onFragment(DirectBuffer buffer, int offset, int length, Header header) {
        try {
            byte frameType = BatchCodec.frameType(buffer, offset, length);
            consumedPosition = header.position();
            delivered++;
            if (frameType == BatchDescriptor.END_OF_STREAM_FRAME) {
                state = State.END_OF_STREAM;
                handler.onEndOfStream();
                return Action.BREAK;
            }
            handler.onBatch(BatchCodec.decode(buffer, offset, length));
            return delivered >= batchLimit ? Action.BREAK : Action.CONTINUE;
        } catch (Throwable t) {
            failure = t;
            return Action.BREAK;
        }
    }

    @Override
    public State state() {
        return state;
    }

    @Override
    public void flush() {
        // The consumer's position is in shared memory after every poll: nothing is pending a signal.
    }

    @Override
    public void idle(int workCount) {
        idleStrategy.idle(workCount);
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            // Once the end of stream was delivered nothing is left in the log: the pool may reuse it.
            boolean delivered = state == State.END_OF_STREAM;
            if (state == State.OPEN) {
                state = State.CLOSED;
            }
            channel.receiverClosed(delivered);
        }
    }

    private static void throwUnchecked(Throwable t) {
        if (t instanceof RuntimeException) {
            throw (RuntimeException) t;
        }
        if (t instanceof Error) {
            throw (Error) t;
        }
        throw new IllegalStateException("batch handler failed", t);
    }
}
