package io.troupe.actors.exchange;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.transport.BatchSender;

import java.util.concurrent.atomic.LongAdder;

/**
 * A worker's end of its gather channel (a {@link BatchSender}): the tail its operator chains end in
 * (instead of a sink local), then the end of stream once the worker's task is done.
 *
 * <p><b>Back-pressure.</b> An offer the Gather cannot take yet is retried after the channel's idle,
 * inside {@code accept}, since the chain above cannot be suspended half way through a batch (a
 * partly sent batch is offered again, as {@link BatchSender#BACK_PRESSURED} asks). The retry loop
 * ends when the offer goes through, when the channel is closed (the Gather left: the query is being
 * torn down; the Gather's stop closes its receivers, which also wakes a sender waiting in
 * {@link BatchSender#idle}) or when the query is cancelled (cancel, timeout or another worker's
 * failure set the {@link ExecContext}'s flag), so a worker never holds its dispatcher thread forever.
 * The Gather drains on a dispatcher of its own, so a full channel always empties while the query lives.
 * Each send that found the channel full ({@link BatchSender#BACK_PRESSURED}) counts once in the Troupe's
 * back-pressure events, however many times it retried: a wait, not a spin.
 *
 * <p>Not threadsafe: owned by one worker; {@link #close()} may come from its PostStop.
 */
public final class GatherOutlet implements WorkerOutlet {

    private final BatchSender sender;
    private final ExecContext ctx;
    private final String worker;
    private final LongAdder backPressureEvents;

    /**
     * @param worker             the worker's name, for errors
     * @param backPressureEvents the Troupe's count of sends that had to wait for room (shared by its workers)
     */
    public GatherOutlet(BatchSender sender, ExecContext ctx, String worker, LongAdder backPressureEvents) {
        this.sender = sender;
        this.ctx = ctx;
        this.worker = worker;
        this.backPressureEvents = backPressureEvents;
    }

    /** A chain's tail: ships every non-empty batch; finishing a branch sends nothing (see {@link #endOfStream()}). */
    @Override
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
    @Override
    public void endOfStream() {
        send(null);
    }

    /** The Gather feeds the result itself: the worker has no sink of its own. */
    @Override
    public boolean feedsSink() {
        return false;
    }

    private void send(Batch batch) {
        boolean waited = false;
        while (true) {
            long result = batch == null ? sender.offerEndOfStream() : sender.offer(batch);
            if (result > 0) {
                return;
            }
            if (result == BatchSender.CLOSED) {
                ctx.checkCancelled();
                throw new QueryCancelledException("query " + ctx.queryId() + ": the consumer closed the channel of " + worker);
            }
            if (result == BatchSender.BACK_PRESSURED && !waited) {
                waited = true;
                backPressureEvents.increment();
            }
            // NOT_CONNECTED (the Gather's subscription is not up yet) or BACK_PRESSURED: retry.
            ctx.checkCancelled();
            sender.idle(0);
        }
    }

    /** Leaves the channel; without a prior end of stream the Gather sees the producer gone. */
    @Override
    public void close() {
        sender.close();
    }
}
