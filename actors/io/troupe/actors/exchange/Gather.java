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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Collects the output of a query's last pipeline: polls one {@link BatchReceiver} per worker and
 * pushes every batch into the consumer it was given (a local of the query's result sink), then
 * finishes that consumer and reports {@link Exchange.Done} once every worker sent its end of stream.
 *
 * <p>Runs on a dispatcher other than the workers', so that workers back-pressured on a full channel
 * can never keep it from draining (the deadlock rule: whatever drains a channel never waits on a
 * thread that a full channel may hold). Work per message is
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
 * <p><b>Streaming</b> (a {@code handOver} given to {@link #create}): the consumer is a
 * {@link BatchHandOver} of a few batches that the caller of the stream pulls from. A round then
 * takes from the channels no more batches than the hand-over has room for, and runs the leader's
 * task only when there is room. With no room the Gather parks ({@code PARKED}): it stops polling,
 * without holding its dispatcher thread, so the workers' channels fill and the workers wait on them
 * (their idle strategy), and it resumes when the caller has freed half the hand-over (a
 * {@code Resume} the caller's thread sends; the hand-over's protocol comment says why none is lost).
 * It reports {@link Exchange.Done} only once all it delivered is in the hand-over.
 *
 * <p>Not threadsafe, as every actor: its state is touched only by its own messages. Its PostStop
 * closes every channel it reads.
 */
public final class Gather extends AbstractBehavior<Exchange.Command> {

    /** Frames read from one channel per round: enough to amortise a round, few enough to interleave. */
    static final int POLL_LIMIT = 16;
    /** The longest park between empty rounds: a batch waits at most this long for a Gather with nothing to do. */
    static final long MAX_IDLE_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /** The backoff between empty rounds of a Gather or a Gather Merge, parking at most {@link #MAX_IDLE_PARK_NS}. */
    static IdleStrategy roundIdle() {
        return new BackoffIdleStrategy(10, 20, 1_000, MAX_IDLE_PARK_NS);
    }

    /** WAITING for Start; GATHERING, a Poll in flight; PARKED on a full hand-over, no Poll in flight; DONE. */
    private enum Phase { WAITING, GATHERING, PARKED, DONE }

    private final List<BatchReceiver> inputs;
    /** Who writes each input, for errors: "worker 2", "node 127.0.0.1:25521's worker 0". */
    private final List<String> producers;
    private final BatchConsumer consumer;
    /** The consumer when streaming, whose room bounds what a round takes in; null when collecting. */
    private final BatchHandOver handOver;
    /** Tells this Gather to resume: run by the hand-over's consumer thread. */
    private final Runnable wake;
    private final ActorRef<Exchange.Report> reportTo;
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

    private Gather(ActorContext<Exchange.Command> context, List<BatchReceiver> inputs, List<String> producers, BatchConsumer consumer,
                   BatchHandOver handOver, PipelineRun.WorkerTask leader, ActorRef<Exchange.Report> reportTo,
                   long queryId) {
        super(context);
        this.leader = leader;
        this.leaderDone = leader == null;
        this.inputs = List.copyOf(inputs);
        this.producers = List.copyOf(producers);
        this.consumer = consumer;
        this.handOver = handOver;
        ActorRef<Exchange.Command> self = context.getSelf();
        this.wake = () -> self.tell(Exchange.Resume.INSTANCE);
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
     * {@code reportTo}; it starts polling on {@link Exchange.Start}.
     *
     * @param handOver the consumer itself when the result is streamed (its room bounds what a round
     *                 takes in, see the class comment), null when it is collected
     * @param leader   its own task from {@link #bindLeader} over {@code consumer}, or null when it only gathers
     */
    public static Behavior<Exchange.Command> create(List<BatchReceiver> inputs, BatchConsumer consumer,
                                                    BatchHandOver handOver, PipelineRun.WorkerTask leader,
                                                    ActorRef<Exchange.Report> reportTo, long queryId) {
        List<String> producers = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            producers.add("worker " + i);
        }
        return create(inputs, producers, consumer, handOver, leader, reportTo, queryId);
    }

    /** As {@link #create(List, BatchConsumer, BatchHandOver, PipelineRun.WorkerTask, ActorRef, long)}, naming who writes each input. */
    public static Behavior<Exchange.Command> create(List<BatchReceiver> inputs, List<String> producers,
                                                    BatchConsumer consumer, BatchHandOver handOver,
                                                    PipelineRun.WorkerTask leader, ActorRef<Exchange.Report> reportTo,
                                                    long queryId) {
        if (producers.size() != inputs.size()) {
            throw new IllegalArgumentException(inputs.size() + " inputs, " + producers.size() + " producers");
        }
        return Behaviors.setup(context -> new Gather(context, inputs, producers, consumer, handOver, leader, reportTo,
                queryId).guarded());
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
            phase = Phase.GATHERING;
            getContext().getSelf().tell(Exchange.Poll.INSTANCE);
        }
        return this;
    }

    private Behavior<Exchange.Command> onPoll() {
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
                    throw new ProducerGoneException("query " + queryId + ": " + producers.get(i)
                            + " left its gather channel without an end of stream (" + state + ": " + input + ")");
                }
            }
            if (work == 0 && !leaderDone && room > 0) {
                // Nothing ready: run a morsel of the fragment here rather than wait. A leader whose
                // input is not ready yet (BLOCKED) did nothing: the Gather idles as in an empty round.
                where = "the Gather's own task (leader participation)";
                PipelineRun.Step step = leader.step();
                where = "the Gather";
                leaderDone = step == PipelineRun.Step.DONE;
                work = step == PipelineRun.Step.BLOCKED ? 0 : 1;
            }
            if (endedCount == inputs.size() && leaderDone && (handOver == null || handOver.overflowEmpty())) {
                consumer.finish();
                phase = Phase.DONE;
                getContext().getLog().debug("[query {}] gather done batches=[{}] leader batches=[{}]", queryId, batches,
                        leader == null ? 0 : leader.batches());
                reportTo.tell(new Exchange.Done(batches));
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
        getContext().getSelf().tell(Exchange.Poll.INSTANCE);
        return this;
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
        phase = Phase.GATHERING;
        return onPoll();
    }

    /** This Gather, with what is thrown around its handlers failing the query too (see {@link ErrorGuard}). */
    private Behavior<Exchange.Command> guarded() {
        return ErrorGuard.guard(Exchange.Command.class, this, e -> fail("the Gather", e));
    }

    /** Fails the query with what {@code where} threw, an Error too: the query fails, not the actor system. */
    private Behavior<Exchange.Command> fail(String where, Throwable thrown) {
        phase = Phase.DONE;
        reportTo.tell(new Exchange.Failed(QueryFailedException.caught(queryId, where, thrown)));
        return Behaviors.stopped();
    }

    private Behavior<Exchange.Command> onPostStop() {
        for (BatchReceiver input : inputs) {
            input.close();
        }
        return this;
    }
}
