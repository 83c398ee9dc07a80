package io.troupe.actors.exchange;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.QueryCancelledException;

/**
 * A worker's end of its {@link GatherChannel}: the tail its operator chains end in (instead of a
 * sink local), then the end of stream once the worker's task is done.
 *
 * <p><b>Back-pressure.</b> An offer the Gather cannot take yet is retried after the channel's idle,
 * inside {@code accept}, since the chain above cannot be suspended half way through a batch. The
 * retry loop ends when the offer goes through, when the channel is closed (the Gather left: the query
 * is being torn down) or when the query is cancelled (cancel, timeout or another worker's failure set
 * the {@link ExecContext}'s flag), so a worker never holds its dispatcher thread forever. The Gather
 * drains on a dispatcher of its own, so a full channel always empties while the query lives.
 *
 * <p>Not threadsafe: owned by one worker; {@link #close()} may come from its PostStop.
 */
public final class GatherOutlet implements AutoCloseable {

    private final GatherChannel channel;
    private final ExecContext ctx;
    private final String worker;

    public GatherOutlet(GatherChannel channel, ExecContext ctx, String worker) {
        this.channel = channel;
        this.ctx = ctx;
        this.worker = worker;
    }

    /** A chain's tail: ships every non-empty batch; finishing a branch sends nothing (see {@link #endOfStream()}). */
    public BatchConsumer tail() {
        return new BatchConsumer() {
            @Override
            public boolean accept(Batch batch) {
                if (batch.size() > 0) {
                    send(batch);
                }
                return true;
            }

            @Override
            public void finish() {
                // A worker's branches share the channel: the end of stream follows its last branch.
            }
        };
    }

    /** Sends the end of stream, after every branch of the worker's task has finished. */
    public void endOfStream() {
        send(null);
    }

    private void send(Batch batch) {
        while (true) {
            long result = batch == null ? channel.offerEndOfStream() : channel.offer(batch);
            if (result > 0) {
                return;
            }
            if (result == GatherChannel.CLOSED) {
                ctx.checkCancelled();
                throw new QueryCancelledException("query " + ctx.queryId() + ": the Gather closed the channel of " + worker);
            }
            ctx.checkCancelled();
            channel.producerIdle();
        }
    }

    /** Leaves the channel; without a prior end of stream the Gather sees the producer gone. */
    @Override
    public void close() {
        channel.closeProducer();
    }
}
