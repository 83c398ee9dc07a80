package io.troupe.actors.exchange;

import io.troupe.actors.guard.ErrorGuard;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.PipelineRun;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.transport.BatchHandler;
import io.troupe.transport.BatchReceiver;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Collects the output of a query's last pipeline: polls one {@link BatchReceiver} per worker and
 * pushes every batch into the consumer it was given (a local of the query's result sink), then
 * finishes that consumer and reports {@link GatherDone} once every worker sent its end of stream.
 *
 * <p>Runs on a dispatcher other than the workers', so that workers back-pressured on a full channel
 * can never keep it from draining (the deadlock rule of shared/design.md). Work per message is
 * bounded: one round over the channels, at most {@link #POLL_LIMIT} frames each, then a private
 * {@code Poll} to itself, so that a stop is seen between rounds. A round that found nothing first
 * flushes every receiver (a producer parked on a locked queue hears of consumption it was owed: the
 * deadlock rule) and then idles with a backoff of its own, at most {@link #MAX_IDLE_PARK_NS}: never
 * in one receiver's {@code idle}, which on the locked queue waits for that one producer only.
 *
 * <p><b>Leader participation</b> ({@code troupe.gather.leader-participation}, PostgreSQL's
 * {@code parallel_leader_participation}): given a task bound over the same pipeline
 * ({@link #bindLeader}), a round that found no batch ready runs one batch of that task instead of
 * idling, its output going straight into the consumer. The Gather is then done when every channel
 * ended and its own task is done. The task is bound, like every worker's, before any worker starts.
 *
 * <p><b>Streaming</b> ({@link #streaming}): the consumer is a {@link BatchHandOver} of a few batches
 * that the caller of the stream pulls from. A round then takes from the channels no more batches
 * than the hand-over has room for, and runs the leader's task only when there is room. With no room
 * the Gather parks ({@code PARKED}): it stops polling, without holding its dispatcher thread, so the
 * workers' channels fill and the workers wait on them (their idle strategy), and it resumes when the
 * caller has freed half the hand-over (a {@code Resume} the caller's thread sends; the hand-over's
 * protocol comment says why none is lost). It reports {@link GatherDone} only once all it delivered
 * is in the hand-over.
 *
 * <p>Not threadsafe, as every actor: its state is touched only by its own messages. Its PostStop
 * closes every channel it reads.
 */
public final class Gather extends AbstractBehavior<Gather.Command> {

    /** Frames read from one channel per round: enough to amortise a round, few enough to interleave. */
    static final int POLL_LIMIT = 16;
    /** The longest park between empty rounds: a batch waits at most this long for a Gather with nothing to do. */
    static final long MAX_IDLE_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /** The backoff between empty rounds of a Gather or a Gather Merge, parking at most {@link #MAX_IDLE_PARK_NS}. */
    static IdleStrategy roundIdle() {
        return new BackoffIdleStrategy(10, 20, 1_000, MAX_IDLE_PARK_NS);
    }

    /**
     * The Gather's messages: {@link Start} from the coordinator (which stops it to cancel), its own
     * {@code Poll}, and {@code Resume} from a stream's consumer.
     */
    public sealed interface Command permits Start, Poll, Resume {
    }

    /**
     * Every worker is bound: start polling (and running the Gather's own task). Not before: the last
     * of a RIGHT join's probers must not finish while another has yet to bind (see PipelineRun).
     */
    public enum Start implements Command {
        INSTANCE
    }

    /** Private self-message: run one round over the channels. */
    enum Poll implements Command {
        INSTANCE
    }

    /** From the consumer of a streaming Gather's hand-over, while the Gather is parked: there is room again. */
    enum Resume implements Command {
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

    /** WAITING for Start; GATHERING, a Poll in flight; PARKED on a full hand-over, no Poll in flight; DONE. */
    private enum Phase { WAITING, GATHERING, PARKED, DONE }

    private final List<BatchReceiver> inputs;
    private final BatchConsumer consumer;
    /** The consumer when streaming, whose room bounds what a round takes in; null when collecting. */
    private final BatchHandOver handOver;
    /** Tells this Gather to resume: run by the hand-over's consumer thread. */
    private final Runnable wake;
    private final ActorRef<Report> reportTo;
    private final long queryId;
    private final boolean[] ended;
    private final BatchHandler handler;
    private final IdleStrategy idle = roundIdle();
    /** The Gather's own share of the pipeline; null without leader participation. */
    private final PipelineRun.WorkerTask leader;
    private boolean leaderDone;
    private int endedCount;
    private long batches;
    private Phase phase = Phase.WAITING;

    private Gather(ActorContext<Command> context, List<BatchReceiver> inputs, BatchConsumer consumer,
                   BatchHandOver handOver, PipelineRun.WorkerTask leader, ActorRef<Report> reportTo, long queryId) {
        super(context);
        this.leader = leader;
        this.leaderDone = leader == null;
        this.inputs = List.copyOf(inputs);
        this.consumer = consumer;
        this.handOver = handOver;
        ActorRef<Command> self = context.getSelf();
        this.wake = () -> self.tell(Resume.INSTANCE);
        this.reportTo = reportTo;
        this.queryId = queryId;
        this.ended = new boolean[inputs.size()];
        this.handler = new BatchHandler() {
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
    }

    /**
     * A Gather over {@code inputs} (one channel per worker) into {@code consumer}, reporting to
     * {@code reportTo}; it starts polling on {@link Start}.
     *
     * @param leader its own task from {@link #bindLeader}, or null when it only gathers
     */
    public static Behavior<Command> create(List<BatchReceiver> inputs, BatchConsumer consumer,
                                           PipelineRun.WorkerTask leader, ActorRef<Report> reportTo, long queryId) {
        return Behaviors.setup(context -> new Gather(context, inputs, consumer, null, leader, reportTo, queryId).guarded());
    }

    /**
     * A Gather over {@code inputs} that hands every batch to {@code handOver}, taking in no more than
     * it has room for (see the class comment); otherwise as {@link #create}.
     *
     * @param leader its own task from {@link #bindLeader} over {@code handOver}, or null
     */
    public static Behavior<Command> streaming(List<BatchReceiver> inputs, BatchHandOver handOver,
                                              PipelineRun.WorkerTask leader, ActorRef<Report> reportTo, long queryId) {
        return Behaviors.setup(context -> new Gather(context, inputs, handOver, handOver, leader, reportTo, queryId).guarded());
    }

    /**
     * Binds the Gather's own task over {@code run}, its chains ending in {@code consumer} (which the
     * Gather finishes once, at the end: a branch's finish does not). Call it before any worker starts.
     */
    public static PipelineRun.WorkerTask bindLeader(PipelineRun run, BatchConsumer consumer) {
        BatchConsumer tail = new BatchConsumer() {
            @Override
            public boolean accept(Batch batch) {
                return consumer.accept(batch);
            }

            @Override
            public void finish() {
                // The Gather finishes the consumer after every channel and its own task ended.
            }
        };
        return run.bind(() -> tail);
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Start.class, m -> onStart())
                .onMessage(Poll.class, p -> onPoll())
                .onMessage(Resume.class, r -> onResume())
                .onSignal(PostStop.class, s -> onPostStop())
                .build();
    }

    private Behavior<Command> onStart() {
        if (phase == Phase.WAITING) {
            phase = Phase.GATHERING;
            getContext().getSelf().tell(Poll.INSTANCE);
        }
        return this;
    }

    private Behavior<Command> onPoll() {
        if (phase != Phase.GATHERING) {
            return this;
        }
        int work = 0;
        String where = "the Gather";
        try {
            // Batches the consumer may take in this round: unbounded when collecting.
            int room = handOver == null ? Integer.MAX_VALUE : handOver.room();
            if (room == 0) {
                return park();
            }
            for (int i = 0; i < inputs.size() && room > 0; i++) {
                if (ended[i]) {
                    continue;
                }
                BatchReceiver input = inputs.get(i);
                int delivered = input.poll(handler, Math.min(POLL_LIMIT, room));
                work += delivered;
                room -= delivered;
                BatchReceiver.State state = input.state();
                if (state == BatchReceiver.State.END_OF_STREAM) {
                    ended[i] = true;
                    endedCount++;
                } else if (state != BatchReceiver.State.OPEN) {
                    throw new QueryFailedException("query " + queryId + ": worker " + i
                            + " left its gather channel without an end of stream (" + state + ")");
                }
            }
            if (work == 0 && !leaderDone && room > 0) {
                // Nothing ready: run a morsel of the fragment here rather than wait.
                where = "the Gather's own task (leader participation)";
                leaderDone = !leader.step();
                where = "the Gather";
                work = 1;
            }
            if (endedCount == inputs.size() && leaderDone && (handOver == null || handOver.overflowEmpty())) {
                consumer.finish();
                phase = Phase.DONE;
                getContext().getLog().debug("[query {}] gather done batches=[{}] leader batches=[{}]", queryId, batches,
                        leader == null ? 0 : leader.batches());
                reportTo.tell(new GatherDone(batches));
                return Behaviors.stopped();
            }
        } catch (Throwable e) {
            return fail(where, e);
        }
        if (work == 0) {
            for (BatchReceiver input : inputs) {
                input.flush();
            }
        }
        idle.idle(work);
        getContext().getSelf().tell(Poll.INSTANCE);
        return this;
    }

    /**
     * No room in the hand-over: wait for the consumer's Resume, unless room came meanwhile. Producers
     * first hear of all consumption they are owed (the deadlock rule, as before an idle round).
     */
    private Behavior<Command> park() {
        if (handOver.parkIfFull(wake)) {
            for (BatchReceiver input : inputs) {
                input.flush();
            }
            phase = Phase.PARKED;
        } else {
            getContext().getSelf().tell(Poll.INSTANCE);
        }
        return this;
    }

    private Behavior<Command> onResume() {
        if (phase != Phase.PARKED) {
            return this;
        }
        phase = Phase.GATHERING;
        return onPoll();
    }

    /** This Gather, with what is thrown around its handlers failing the query too (see {@link ErrorGuard}). */
    private Behavior<Command> guarded() {
        return ErrorGuard.guard(Command.class, this, e -> fail("the Gather", e));
    }

    /** Fails the query with what {@code where} threw, an Error too: the query fails, not the actor system. */
    private Behavior<Command> fail(String where, Throwable thrown) {
        phase = Phase.DONE;
        reportTo.tell(new GatherFailed(QueryFailedException.caught(queryId, where, thrown)));
        return Behaviors.stopped();
    }

    private Behavior<Command> onPostStop() {
        for (BatchReceiver input : inputs) {
            input.close();
        }
        return this;
    }
}
