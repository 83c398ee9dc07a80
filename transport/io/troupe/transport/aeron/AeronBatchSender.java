package io.troupe.transport.aeron;

import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.logbuffer.BufferClaim;
import io.troupe.operators.batch.Batch;
import io.troupe.transport.BatchSender;
import io.troupe.transport.codec.BatchCodec;
import io.troupe.transport.codec.BatchDescriptor;
import org.agrona.BufferUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The producer's end of an {@link AeronIpcChannel}, or of a stream between processes
 * ({@link SharedDriverStreams}): encodes each batch into the exclusive
 * publication, in place ({@code tryClaim}) when the frame fits the MTU, else through a scratch buffer
 * ({@code offer}, which Aeron fragments). Aeron's {@code ADMIN_ACTION} (a term rotation) is retried
 * here at once, as Aeron advises; every other outcome goes back to the caller.
 *
 * <p>A batch whose frame exceeds the largest message is sent as several row ranges. If one range is
 * back-pressured, the offer returns BACK_PRESSURED with the earlier ranges sent; offering the same
 * batch again resumes at that range, and the scratch buffer keeps an offered range's encoding so a
 * retry does not encode it again.
 *
 * <p>Closing after the end of stream leaves the publication open for the channel's pool (see
 * {@link AeronChannelPool}); closing without it closes the publication.
 *
 * <p>Not threadsafe: owned by one producer ({@link ExclusivePublication} is single-writer); only
 * {@link #close()} may come from another thread.
 */
final class AeronBatchSender implements BatchSender {

    private final SenderLink channel;
    private final ExclusivePublication publication;
    private final IdleStrategy idleStrategy;
    private final BufferClaim claim = new BufferClaim();
    private final int maxPayloadLength;
    private final int maxMessageLength;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Allocated on the first frame that does not fit the MTU; holds at most one message. */
    private UnsafeBuffer scratch;
    /** What {@link #scratch} holds: live rows [scratchFrom, scratchTo) of scratchBatch, or nothing. */
    private Batch scratchBatch;
    private int scratchFrom;
    private int scratchTo;
    /** A batch partly sent when back-pressure stopped it, and its first unsent live row. */
    private Batch pending;
    private int pendingRow;
    private boolean endOfStreamSent;

    AeronBatchSender(SenderLink channel, ExclusivePublication publication, IdleStrategy idleStrategy) {
        this.channel = channel;
        this.publication = publication;
        this.idleStrategy = idleStrategy;
        this.maxPayloadLength = publication.maxPayloadLength();
        this.maxMessageLength = publication.maxMessageLength();
    }

    @Override
    public long offer(Batch batch) {
        if (channel.receiverClosed() || closed.get()) {
            return CLOSED;
        }
        if (endOfStreamSent) {
            throw new IllegalStateException("offer after end of stream on " + channel);
        }
        if (pending != null && pending != batch) {
            throw new IllegalStateException("offer of " + batch + " while " + pending + " is partly sent on "
                    + channel + ": offer that batch again until it is sent");
        }
        int size = batch.size();
        int from = pending == null ? 0 : pendingRow;
        long position;
        do {
            int length = BatchCodec.encodedLength(batch, from, size);
            int to = size;
            while (length > maxMessageLength) {
                if (to - from == 1) {
                    throw new IllegalArgumentException("live row " + from + " of " + batch + " encodes to " + length
                            + " bytes, more than the largest message of " + maxMessageLength + " bytes on " + channel
                            + " (raise troupe.transport.term-length: the largest message is term-length / 8)");
                }
                // Rows are about equally wide: shrink in proportion, at least by one row, until it fits.
                int shrunk = (int) ((long) (to - from) * maxMessageLength / length);
                to = from + Math.max(1, Math.min(to - from - 1, shrunk));
                length = BatchCodec.encodedLength(batch, from, to);
            }
            position = publish(batch, from, to, length);
            if (position < 0) {
                // Only a batch partly sent binds the next offer; one refused whole may be dropped.
                pending = from > 0 ? batch : null;
                pendingRow = from;
                return position;
            }
            from = to;
        } while (from < size);
        pending = null;
        return position;
    }

    @Override
    public long offerEndOfStream() {
        if (channel.receiverClosed() || closed.get()) {
            return CLOSED;
        }
        if (endOfStreamSent || pending != null) {
            throw new IllegalStateException((endOfStreamSent ? "second end of stream" : "end of stream while "
                    + pending + " is partly sent") + " on " + channel);
        }
        long result;
        do {
            result = publication.tryClaim(BatchDescriptor.HEADER_LENGTH, claim);
        } while (result == Publication.ADMIN_ACTION);
        if (result > 0) {
            BatchCodec.encodeEndOfStream(claim.buffer(), claim.offset());
            claim.commit();
            endOfStreamSent = true;
        }
        return outcome(result);
    }

    /** Sends live rows [from, to) as one message of {@code length} bytes. */
    private long publish(Batch batch, int from, int to, int length) {
        long result;
        if (length <= maxPayloadLength) {
            do {
                result = publication.tryClaim(length, claim);
            } while (result == Publication.ADMIN_ACTION);
            if (result > 0) {
                boolean committed = false;
                try {
                    BatchCodec.encode(batch, from, to, claim.buffer(), claim.offset());
                    claim.commit();
                    committed = true;
                } finally {
                    if (!committed) {
                        claim.abort();
                    }
                }
            }
            return outcome(result);
        }
        if (scratchBatch != batch || scratchFrom != from || scratchTo != to) {
            if (scratch == null) {
                scratch = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                        BatchDescriptor.align(maxMessageLength), BatchDescriptor.ALIGNMENT));
            }
            BatchCodec.encode(batch, from, to, scratch, 0);
            scratchBatch = batch;
            scratchFrom = from;
            scratchTo = to;
        }
        do {
            result = publication.offer(scratch, 0, length);
        } while (result == Publication.ADMIN_ACTION);
        if (result > 0) {
            scratchBatch = null;
        }
        return outcome(result);
    }

    /** Aeron's result in this interface's terms. */
    private long outcome(long result) {
        if (result > 0) {
            return result;
        }
        if (result == Publication.BACK_PRESSURED) {
            return BACK_PRESSURED;
        }
        if (result == Publication.NOT_CONNECTED) {
            // A subscription that closed looks like one not yet connected: the flag tells them apart.
            return channel.receiverClosed() ? CLOSED : NOT_CONNECTED;
        }
        // CLOSED, or MAX_POSITION_EXCEEDED (2^31 terms written): this log takes nothing more.
        return CLOSED;
    }

    @Override
    public void flush() {
        // Every send is visible in the log at once: nothing is pending a signal.
    }

    @Override
    public void idle(int workCount) {
        idleStrategy.idle(workCount);
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            // After an end of stream the log is clean: the channel may hand it to the next one.
            channel.senderClosed(publication.position(), endOfStreamSent);
        }
    }
}
