package io.troupe.actors.exchange;

import io.troupe.actors.guard.ErrorGuard;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.sort.StreamMerger;
import io.troupe.transport.BatchHandler;
import io.troupe.transport.BatchReceiver;
import org.agrona.concurrent.IdleStrategy;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

import java.util.List;

/**
 * Gather Merge: collects the sorted streams of a query's last pipeline, one {@link BatchReceiver}
 * per worker, merges them into one stream in the global order ({@link StreamMerger}: a k-way heap
 * merge that also applies a top-N's OFFSET and LIMIT) and pushes it into the consumer it was given
 * (the operators above the sort, ending in a local of the query's result sink). It finishes that
 * consumer and reports {@link Exchange.Done}, as the Gather does, once every worker sent its end of stream.
 *
 * <p><b>How it works, and why</b> (after PostgreSQL's nodeGatherMerge.c). A row may go out only
 * while the merge holds a row, or the end of stream, from every worker that has not ended: the one
 * it lacks may still send a smaller row. Each round polls the channels, hands what arrived to the
 * merger, then emits merged batches until the merger stalls on a worker with nothing queued (or
 * {@link #BATCHES_PER_ROUND} went out), and sends itself a private {@code Poll}: work per message is
 * bounded, so a stop is seen between rounds. A round that did nothing flushes every receiver and
 * idles with a backoff of its own ({@link Gather#roundIdle()}), as {@link Gather} does.
 *
 * <p><b>What it reads.</b> While the merge can go on, a channel is read only until
 * {@link #QUEUE_TARGET} of its batches wait in the merger: the rest stays in the channel, whose
 * back-pressure slows that worker. While the merge is stalled, every channel is read to the end of
 * what it holds, however much queues up. That is the deadlock rule (whatever drains a channel never
 * waits on a thread that a full channel may hold): a worker
 * back-pressured on a full channel holds its dispatcher thread, and with fewer threads than
 * workers the worker the merge waits for may be one that has no thread; draining the others frees
 * theirs. Runs on a dispatcher other than the workers' for the same reason; it never waits at a
 * barrier, and its output (the consumer) never blocks it.
 *
 * <p><b>Early end.</b> Once the merger has every row the query wants (a LIMIT) or the consumer
 * wants no more, it reads and drops the rest, so that no worker stays back-pressured, and ends as
 * usual when every channel has ended.
 *
 * <p><b>Streaming</b> (a {@code handOver} given to {@link #create}): the consumer ends in a
 * {@link BatchHandOver} of a few batches that the caller's thread drains. A round emits no more merged batches than the hand-over
 * has room for; with no room the Gather Merge parks (no Poll) until the caller frees room and sends
 * {@code Resume}, and it finishes only once the hand-over took every batch it was given. Parked, it
 * reads no channel, so its workers wait on their full channels: the caller's pace reaches them.
 *
 * <p><b>No leader participation.</b> Unlike {@link Gather} it runs no morsel of the pipeline itself:
 * a stream of its own would be one more input to wait for, and its rows only go out in merge order
 * anyway (PostgreSQL's leader may participate; the setting does not apply here).
 *
 * <p>Not threadsafe, as every actor: its state is touched only by its own messages. Its PostStop
 * closes every channel it reads.
 */
public final class GatherMerge extends AbstractBehavior<Exchange.Command> {

    /** Batches per worker the merge keeps at hand while it is not stalled. */
    static final int QUEUE_TARGET = 4;
    /** Merged batches pushed per round, so that a round stays short. */
    static final int BATCHES_PER_ROUND = 64;

    private enum Phase {
        /** Created; polls nothing before {@link Exchange.Start}. */
        WAITING,
        /** Merging into the consumer. */
        MERGING,
        /** Streaming, with no room in the hand-over: waits for Resume. */
        PARKED,
        /** The merge or the consumer has all it wants: reading and dropping the rest until every stream ended. */
        DRAINING,
        /** Reported; stopping. */
        DONE
    }

    private final List<BatchReceiver> inputs;
    private final StreamMerger merger;
    private final BatchConsumer consumer;
    /** The hand-over the consumer ends in when streaming, whose room bounds each round; null when collecting. */
    private final BatchHandOver handOver;
    private final Runnable wake;
    private final ActorRef<Exchange.Report> reportTo;
    private final long queryId;
    private final BatchHandler[] handlers;
    private final IdleStrategy idle = Gather.roundIdle();
    private long batches;
    private Phase phase = Phase.WAITING;
    /** The phase a park interrupted, to go back to on Resume. */
    private Phase resumeTo;

    private GatherMerge(ActorContext<Exchange.Command> context, List<BatchReceiver> inputs, StreamMerger merger,
                        BatchConsumer consumer, BatchHandOver handOver, ActorRef<Exchange.Report> reportTo,
                        long queryId) {
        super(context);
        if (inputs.size() != merger.inputs()) {
            throw new IllegalArgumentException("query " + queryId + ": " + inputs.size()
                    + " channels for a merge of " + merger.inputs() + " streams");
        }
        this.inputs = List.copyOf(inputs);
        this.merger = merger;
        this.consumer = consumer;
        this.handOver = handOver;
        ActorRef<Exchange.Command> self = context.getSelf();
        this.wake = () -> self.tell(Exchange.Resume.INSTANCE);
        this.reportTo = reportTo;
        this.queryId = queryId;
        this.handlers = new BatchHandler[inputs.size()];
        for (int i = 0; i < handlers.length; i++) {
            int input = i;
            handlers[i] = new BatchHandler() {
                @Override
                public void onBatch(Batch batch) {
                    batches++;
                    if (phase == Phase.MERGING) {
                        merger.add(input, batch);
                    }
                }

                @Override
                public void onEndOfStream() {
                    merger.end(input);
                }
            };
        }
    }

    /**
     * A Gather Merge of {@code inputs} (one channel per worker, each a sorted stream) through
     * {@code merger} (of as many inputs) into {@code consumer}, reporting to {@code reportTo}; it
     * starts polling on {@link Exchange.Start}.
     *
     * @param handOver the hand-over {@code consumer} ends in when the result is streamed (its room
     *                 bounds what a round emits, see the class comment), null when it is collected
     */
    public static Behavior<Exchange.Command> create(List<BatchReceiver> inputs, StreamMerger merger,
                                                    BatchConsumer consumer, BatchHandOver handOver,
                                                    ActorRef<Exchange.Report> reportTo, long queryId) {
        return Behaviors.setup(context -> new GatherMerge(context, inputs, merger, consumer, handOver, reportTo, queryId)
                .guarded());
    }

    @Override
    public Receive<Exchange.Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Exchange.Start.class, m -> onStart())
                .onMessage(Exchange.Poll.class, p -> onPoll())
                .onMessage(Exchange.Resume.class, r -> onResume())
                .onSignal(PostStop.class, s -> onPostStop())
                .build();
    }

    private Behavior<Exchange.Command> onStart() {
        if (phase == Phase.WAITING) {
            phase = Phase.MERGING;
            getContext().getSelf().tell(Exchange.Poll.INSTANCE);
        }
        return this;
    }

    private Behavior<Exchange.Command> onPoll() {
        if (phase != Phase.MERGING && phase != Phase.DRAINING) {
            return this;
        }
        int work;
        try {
            int room = handOver == null ? BATCHES_PER_ROUND : Math.min(BATCHES_PER_ROUND, handOver.room());
            if (phase == Phase.MERGING && room == 0) {
                return park();
            }
            work = read();
            if (phase == Phase.MERGING) {
                work += emit(room);
            }
            if (allEnded() && (phase == Phase.DRAINING || merger.isDone())) {
                if (handOver != null && !handOver.overflowEmpty()) {
                    return park();
                }
                consumer.finish();
                phase = Phase.DONE;
                getContext().getLog().debug("[query {}] gather merge done batches=[{}]", queryId, batches);
                reportTo.tell(new Exchange.Done(batches));
                return Behaviors.stopped();
            }
        } catch (Throwable e) {
            return fail(e);
        }
        if (work == 0) {
            for (BatchReceiver input : inputs) {
                input.flush();
            }
        }
        idle.idle(work);
        getContext().getSelf().tell(Exchange.Poll.INSTANCE);
        return this;
    }

    /** One round over the channels (see the class comment for which are read); returns frames read. */
    private int read() {
        boolean stalled = phase == Phase.DRAINING || merger.stalled();
        int work = 0;
        for (int i = 0; i < inputs.size(); i++) {
            if (merger.endOfStream(i) || (!stalled && merger.queued(i) >= QUEUE_TARGET)) {
                continue;
            }
            BatchReceiver input = inputs.get(i);
            work += input.poll(handlers[i], Gather.POLL_LIMIT);
            BatchReceiver.State state = input.state();
            if (state == BatchReceiver.State.END_OF_STREAM) {
                if (!merger.endOfStream(i)) {
                    merger.end(i);
                }
            } else if (state != BatchReceiver.State.OPEN) {
                throw new QueryFailedException("query " + queryId + ": worker " + i
                        + " left its gather merge channel without an end of stream (" + state + ")");
            }
        }
        return work;
    }

    /** Pushes merged batches into the consumer until the merge stalls or the round's share ({@code most}) is out. */
    private int emit(int most) {
        int emitted = 0;
        while (emitted < most) {
            Batch batch = merger.next();
            if (batch == null) {
                break;
            }
            emitted++;
            if (!consumer.accept(batch)) {
                phase = Phase.DRAINING;
                return emitted;
            }
        }
        if (merger.isDone() && !allEnded()) {
            phase = Phase.DRAINING;
        }
        return emitted;
    }

    /**
     * No room in the hand-over: wait for the consumer's Resume, unless room came meanwhile. Producers
     * first hear of all consumption they are owed (the deadlock rule, as before an idle round).
     */
    private Behavior<Exchange.Command> park() {
        if (handOver.parkIfFull(wake)) {
            for (BatchReceiver input : inputs) {
                input.flush();
            }
            resumeTo = phase;
            phase = Phase.PARKED;
        } else {
            getContext().getSelf().tell(Exchange.Poll.INSTANCE);
        }
        return this;
    }

    private Behavior<Exchange.Command> onResume() {
        if (phase != Phase.PARKED) {
            return this;
        }
        phase = resumeTo;
        return onPoll();
    }

    private boolean allEnded() {
        for (int i = 0; i < inputs.size(); i++) {
            if (!merger.endOfStream(i)) {
                return false;
            }
        }
        return true;
    }

    /** This Gather Merge, with what is thrown around its handlers failing the query too (see {@link ErrorGuard}). */
    private Behavior<Exchange.Command> guarded() {
        return ErrorGuard.guard(Exchange.Command.class, this, this::fail);
    }

    /** Fails the query with what was thrown, an Error too: the query fails, not the actor system. */
    private Behavior<Exchange.Command> fail(Throwable thrown) {
        phase = Phase.DONE;
        reportTo.tell(new Exchange.Failed(QueryFailedException.caught(queryId, "the Gather Merge", thrown)));
        return Behaviors.stopped();
    }

    private Behavior<Exchange.Command> onPostStop() {
        for (BatchReceiver input : inputs) {
            input.close();
        }
        return this;
    }
}
