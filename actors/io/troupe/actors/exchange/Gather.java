package io.troupe.actors.exchange;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.QueryFailedException;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

import java.util.List;

/**
 * Collects the output of a query's last pipeline: polls one {@link GatherChannel} per worker and
 * pushes every batch into the consumer it was given (a local of the query's result sink), then
 * finishes that consumer and reports {@link GatherDone} once every worker sent its end of stream.
 *
 * <p>Runs on a dispatcher other than the workers', so that workers back-pressured on a full channel
 * can never keep it from draining (the deadlock rule of shared/design.md). Work per message is
 * bounded: one round over the channels, at most {@link #POLL_LIMIT} frames each, then a private
 * {@code Poll} to itself, so that a stop is seen between rounds. A round that found nothing idles on
 * a channel first.
 *
 * <p>Leader participation (the Gather running a morsel of the fragment itself when nothing is ready)
 * is not done yet: the workers run every morsel.
 *
 * <p>Not threadsafe, as every actor: its state is touched only by its own messages. Its PostStop
 * closes every channel it reads.
 */
public final class Gather extends AbstractBehavior<Gather.Command> {

    /** Frames read from one channel per round: enough to amortise a round, few enough to interleave. */
    static final int POLL_LIMIT = 16;

    /** The Gather's messages. Only its own {@code Poll}: the coordinator stops it to cancel. */
    public sealed interface Command permits Poll {
    }

    /** Private self-message: run one round over the channels. */
    enum Poll implements Command {
        INSTANCE
    }

    /** What the Gather tells its coordinator. */
    public sealed interface Report permits GatherDone, GatherFailed {
    }

    /** Every worker's stream ended and the consumer finished. */
    public record GatherDone(long batches) implements Report {
    }

    /** Reading or consuming failed (or a worker left its channel without an end of stream). */
    public record GatherFailed(Throwable cause) implements Report {
    }

    private enum Phase { GATHERING, DONE }

    private final List<GatherChannel> inputs;
    private final BatchConsumer consumer;
    private final ActorRef<Report> reportTo;
    private final long queryId;
    private final boolean[] ended;
    private final GatherChannel.Handler handler;
    private int endedCount;
    private long batches;
    private Phase phase = Phase.GATHERING;

    private Gather(ActorContext<Command> context, List<GatherChannel> inputs, BatchConsumer consumer,
                   ActorRef<Report> reportTo, long queryId) {
        super(context);
        this.inputs = List.copyOf(inputs);
        this.consumer = consumer;
        this.reportTo = reportTo;
        this.queryId = queryId;
        this.ended = new boolean[inputs.size()];
        this.handler = new GatherChannel.Handler() {
            @Override
            public void onBatch(Batch batch) {
                batches++;
                consumer.accept(batch);
            }

            @Override
            public void onEndOfStream() {
                // Counted from the channel's state after the poll.
            }
        };
        context.getSelf().tell(Poll.INSTANCE);
    }

    /**
     * A Gather over {@code inputs} (one channel per worker) into {@code consumer}, reporting to
     * {@code reportTo}; it starts polling at once.
     */
    public static Behavior<Command> create(List<GatherChannel> inputs, BatchConsumer consumer,
                                           ActorRef<Report> reportTo, long queryId) {
        return Behaviors.setup(context -> new Gather(context, inputs, consumer, reportTo, queryId));
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Poll.class, p -> onPoll())
                .onSignal(PostStop.class, s -> onPostStop())
                .build();
    }

    private Behavior<Command> onPoll() {
        if (phase != Phase.GATHERING) {
            return this;
        }
        int work = 0;
        GatherChannel firstOpen = null;
        try {
            for (int i = 0; i < inputs.size(); i++) {
                if (ended[i]) {
                    continue;
                }
                GatherChannel input = inputs.get(i);
                work += input.poll(handler, POLL_LIMIT);
                GatherChannel.State state = input.state();
                if (state == GatherChannel.State.END_OF_STREAM) {
                    ended[i] = true;
                    endedCount++;
                } else if (state == GatherChannel.State.OPEN) {
                    if (firstOpen == null) {
                        firstOpen = input;
                    }
                } else {
                    throw new QueryFailedException("query " + queryId + ": worker " + i
                            + " left its gather channel without an end of stream (" + state + ")");
                }
            }
            if (endedCount == inputs.size()) {
                consumer.finish();
                phase = Phase.DONE;
                getContext().getLog().debug("[query {}] gather done batches=[{}]", queryId, batches);
                reportTo.tell(new GatherDone(batches));
                return Behaviors.stopped();
            }
        } catch (RuntimeException e) {
            phase = Phase.DONE;
            reportTo.tell(new GatherFailed(e));
            return Behaviors.stopped();
        }
        if (work == 0 && firstOpen != null) {
            firstOpen.consumerIdle();
        }
        getContext().getSelf().tell(Poll.INSTANCE);
        return this;
    }

    private Behavior<Command> onPostStop() {
        for (GatherChannel input : inputs) {
            input.close();
        }
        return this;
    }
}
