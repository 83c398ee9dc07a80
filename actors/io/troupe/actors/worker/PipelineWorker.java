package io.troupe.actors.worker;

import io.troupe.actors.exchange.WorkerOutlet;
import io.troupe.actors.guard.ErrorGuard;
import io.troupe.actors.wire.WireMessage;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.FinalizeWork;
import io.troupe.operators.exec.PipelineRun;
import io.troupe.operators.exec.QueryFailedException;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One worker of one pipeline: a thin adapter over the kernels (Flink's mailbox "default action").
 * It binds its own readers, operator chains and sink local (or {@link WorkerOutlet} tail) over the
 * states its coordinator opened, reports {@link WorkerBound}, and on {@link Start} drives its task
 * one batch per private {@code Continue} message sent to itself, so that a {@link Cancel} (or a stop)
 * is seen between batches, and reports {@link WorkerDone}.
 *
 * <p>Phases:
 * <pre>
 *   BOUND       bound over the pipeline; waits for Start (every worker must bind before any drives)
 *   RUNNING     one batch per Continue; at the end reports WorkerDone. A step whose input is not
 *               ready yet (BLOCKED: a hash join's spilled partitions while another worker still
 *               probes) schedules its Continue after BLOCKED_BACKOFF instead of at once
 *   DRAINED     (a worker whose chains end in the sink) waits for the sink's Finalize work, which
 *               the coordinator sends once every worker is done: the barrier of a hash join build
 *   FINALIZING  one unit of that work per Continue (a chunk of inserts); at the end reports
 *               FinalizeDone and stops
 *   FINISHED    a worker of the query's last pipeline, which sends to the Gather and has no sink
 *               work, stops right after WorkerDone; so does a worker that failed or was cancelled.
 *               A worker of a spread query ({@code NodeOutlet}) feeds the sink too: it drains as
 *               above once its end of stream went to every other node
 * </pre>
 * The wait in DRAINED holds no output (its chains have finished): the deadlock rule holds.
 *
 * <p>Operators know nothing of this actor: whatever an operator throws becomes a {@link WorkerFailed}
 * carrying it, an Error as a {@link QueryFailedException} naming this worker
 * ({@link QueryFailedException#caught}). Why bind before starting: see {@link PipelineRun} (the last
 * of a RIGHT join's probers must know it is the last).
 *
 * <p>Not threadsafe, as every actor. Its PostStop leaves its gather channel (without an end of
 * stream unless it was sent), so that the Gather never waits on a worker that is gone.
 */
public final class PipelineWorker extends AbstractBehavior<PipelineWorker.Command> {

    /** The worker's messages. */
    public sealed interface Command permits Start, Finalize, Cancel, Continue {
    }

    /** Every worker of the pipeline is bound: start driving. */
    public enum Start implements Command, WireMessage {
        INSTANCE
    }

    /** Every worker is done: share the sink's finalize {@code work} with the others, then stop. */
    public record Finalize(FinalizeWork work) implements Command {
    }

    /** Stop now, between two batches. */
    public enum Cancel implements Command, WireMessage {
        INSTANCE
    }

    /** Private self-message: process one batch. */
    enum Continue implements Command {
        INSTANCE
    }

    /** What a worker tells its coordinator, on this node or another (a failure's cause crosses as a RemoteFailure). */
    public sealed interface Report extends WireMessage permits WorkerBound, WorkerDone, FinalizeDone, WorkerFailed {
        int worker();
    }

    /** Bound over the pipeline's states; waiting for {@link Start}. */
    public record WorkerBound(int worker) implements Report {
    }

    /** Its task is done: every chain finished (and the end of stream was sent to the Gather). */
    public record WorkerDone(int worker, long batches) implements Report {
    }

    /** No unit of the finalize work is left to claim: this worker's last unit is done. */
    public record FinalizeDone(int worker, long units) implements Report {
    }

    /** Binding, a batch or a unit of finalize work failed with {@code cause}. */
    public record WorkerFailed(int worker, Throwable cause) implements Report {
    }

    /**
     * What one worker runs.
     *
     * @param worker   its index in the pipeline (0-based)
     * @param role     its role in logs: "hash-build worker 2"
     * @param run      the opened pipeline it binds over
     * @param ctx      the query's context
     * @param outlet   the exchange its chains feed: its gather channel, for the query's last pipeline,
     *                 or its streams to the other nodes of a spread query; null when its chains end in
     *                 the pipeline's sink alone
     * @param live     the count of live workers of this Troupe (visible for tests: none after a query)
     * @param reportTo its coordinator
     */
    public record Spec(int worker, String role, PipelineRun run, ExecContext ctx, WorkerOutlet outlet,
                       AtomicInteger live, ActorRef<Report> reportTo) {
    }

    private enum Phase { BOUND, RUNNING, DRAINED, FINALIZING, FINISHED }

    /** How long a worker whose input is not ready yet (a blocked step) waits before it looks again. */
    static final Duration BLOCKED_BACKOFF = Duration.ofMillis(1);

    private final Spec spec;
    private PipelineRun.WorkerTask task;
    private FinalizeWork finalizeWork;
    private long finalizeUnits;
    private Phase phase = Phase.BOUND;

    private PipelineWorker(ActorContext<Command> context, Spec spec) {
        super(context);
        this.spec = spec;
        spec.live().incrementAndGet();
    }

    public static Behavior<Command> create(Spec spec) {
        return Behaviors.setup(context -> {
            PipelineWorker worker = new PipelineWorker(context, spec);
            return ErrorGuard.guard(Command.class, worker.bind(), worker::fail);
        });
    }

    private Behavior<Command> bind() {
        try {
            task = spec.outlet() == null ? spec.run().bind(spec.worker()) : spec.run().bind(spec.outlet()::tail, spec.worker());
        } catch (Throwable e) {
            // Stays alive (FINISHED) until its coordinator stops the query: a behavior that stops
            // inside its setup would skip the PostStop that releases what the constructor counted.
            fail(e);
            return this;
        }
        spec.reportTo().tell(new WorkerBound(spec.worker()));
        return this;
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Start.class, m -> onStart())
                .onMessage(Finalize.class, this::onFinalize)
                .onMessage(Continue.class, m -> onContinue())
                .onMessage(Cancel.class, m -> onCancel())
                .onSignal(PostStop.class, s -> onPostStop())
                .build();
    }

    private Behavior<Command> onStart() {
        if (phase == Phase.BOUND) {
            phase = Phase.RUNNING;
            getContext().getLog().debug("[query {}] [{}] started", spec.ctx().queryId(), spec.role());
            getContext().getSelf().tell(Continue.INSTANCE);
        }
        return this;
    }

    private Behavior<Command> onContinue() {
        try {
            if (phase == Phase.RUNNING) {
                return runOneBatch();
            }
            if (phase == Phase.FINALIZING) {
                return finalizeOneUnit();
            }
        } catch (Throwable e) {
            // An Error too (OutOfMemoryError, StackOverflowError): it fails this query, not the
            // actor system, whose handler of fatal errors would stop it (and, by default, the JVM).
            return fail(e);
        }
        return this;
    }

    private Behavior<Command> runOneBatch() {
        spec.ctx().checkCancelled();
        PipelineRun.Step step = task.step();
        if (step == PipelineRun.Step.RAN) {
            getContext().getSelf().tell(Continue.INSTANCE);
            return this;
        }
        if (step == PipelineRun.Step.BLOCKED) {
            // Another participant's work makes the input ready: look again later, holding no thread.
            getContext().scheduleOnce(BLOCKED_BACKOFF, getContext().getSelf(), Continue.INSTANCE);
            return this;
        }
        if (spec.outlet() != null) {
            spec.outlet().endOfStream();
        }
        getContext().getLog().debug("[query {}] [{}] done batches=[{}]", spec.ctx().queryId(), spec.role(), task.batches());
        spec.reportTo().tell(new WorkerDone(spec.worker(), task.batches()));
        if (spec.outlet() != null && !spec.outlet().feedsSink()) {
            phase = Phase.FINISHED;
            return Behaviors.stopped();
        }
        phase = Phase.DRAINED;
        return this;
    }

    private Behavior<Command> onFinalize(Finalize finalize) {
        if (phase == Phase.DRAINED) {
            phase = Phase.FINALIZING;
            finalizeWork = finalize.work();
            getContext().getSelf().tell(Continue.INSTANCE);
        }
        return this;
    }

    private Behavior<Command> finalizeOneUnit() {
        spec.ctx().checkCancelled();
        if (finalizeWork.step()) {
            finalizeUnits++;
            getContext().getSelf().tell(Continue.INSTANCE);
            return this;
        }
        phase = Phase.FINISHED;
        getContext().getLog().debug("[query {}] [{}] finalize done units=[{}]", spec.ctx().queryId(), spec.role(), finalizeUnits);
        spec.reportTo().tell(new FinalizeDone(spec.worker(), finalizeUnits));
        return Behaviors.stopped();
    }

    private Behavior<Command> onCancel() {
        phase = Phase.FINISHED;
        return Behaviors.stopped();
    }

    private Behavior<Command> fail(Throwable thrown) {
        phase = Phase.FINISHED;
        // The task goes first: on a full heap its tables are what the report needs freed.
        task = null;
        finalizeWork = null;
        Throwable cause = QueryFailedException.caught(spec.ctx().queryId(), spec.role(), thrown);
        spec.reportTo().tell(new WorkerFailed(spec.worker(), cause));
        getContext().getLog().debug("[query {}] [{}] failed: {}", spec.ctx().queryId(), spec.role(), cause.toString());
        return Behaviors.stopped();
    }

    private Behavior<Command> onPostStop() {
        if (spec.outlet() != null) {
            spec.outlet().close();
        }
        spec.live().decrementAndGet();
        return this;
    }
}
