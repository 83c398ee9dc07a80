package io.troupe.operators.exec;

import io.troupe.operators.batch.Batch;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One execution of one {@link Pipeline}: its sink, source and operator states, opened once, and the
 * per-worker tasks bound over them. Shared by the executors (the leader alone in
 * {@link LocalRun}, the worker actors of the parallel executor) so that both open and bind a
 * pipeline the same way.
 *
 * <p>Lifecycle: {@link #open} once; {@link #bind} once per worker; every worker drives its
 * {@link WorkerTask} to the end; {@link #prepareFinalize()} once; every worker steps the returned
 * {@link FinalizeWork} until it has none left; then {@link #finalizeSink()} once.
 *
 * <p>EXPLAIN ANALYZE: when the context has an {@link ExecutionProbe}, {@link #bind} lets it wrap each
 * reader and consumer of the task in a counting one, and {@link #finalizeSink()} reports its time;
 * without one nothing is wrapped.
 *
 * <h2>Concurrency</h2>
 * {@link #open}, {@link #prepareFinalize()} and {@link #finalizeSink()} run on one thread (the executor's). {@link #bind} may be
 * called from any thread and concurrently (the states it binds over are threadsafe), but every worker
 * must be bound before any drives its task: an operator shared by the branches of a union, or a
 * RIGHT join's probe, learns its number of consumers at bind time and lets the last to finish emit
 * what is left. A {@link WorkerTask} is not threadsafe: it is owned by one worker.
 */
public final class PipelineRun {

    private final Pipeline pipeline;
    private final ExecContext ctx;
    private final Sink.SinkState sinkState;
    private final List<Source.SourceState> sources;
    private final Map<Operator, Operator.OperatorState> operators;

    private PipelineRun(Pipeline pipeline, ExecContext ctx, Sink.SinkState sinkState,
                        List<Source.SourceState> sources, Map<Operator, Operator.OperatorState> operators) {
        this.pipeline = pipeline;
        this.ctx = ctx;
        this.sinkState = sinkState;
        this.sources = sources;
        this.operators = operators;
    }

    /** Opens the sink, then every branch's source and operators (an operator shared by branches once). */
    public static PipelineRun open(Pipeline pipeline, ExecContext ctx) {
        Sink.SinkState sinkState = pipeline.sink().open(ctx);
        List<Source.SourceState> sources = new ArrayList<>();
        Map<Operator, Operator.OperatorState> opened = new IdentityHashMap<>();
        for (Pipeline.Branch branch : pipeline.branches()) {
            ctx.checkCancelled();
            sources.add(branch.source().open(ctx));
            List<Operator> ops = branch.operators();
            for (int i = ops.size() - 1; i >= 0; i--) {
                opened.computeIfAbsent(ops.get(i), o -> o.open(ctx));
            }
        }
        return new PipelineRun(pipeline, ctx, sinkState, sources, opened);
    }

    /**
     * Opens the sink alone: for a node of a query spread over nodes that receives rows for this
     * pipeline's sink from other nodes but runs none of its workers, whose inputs are not here. Nothing
     * may be bound over the run.
     */
    public static PipelineRun openSink(Pipeline pipeline, ExecContext ctx) {
        return new PipelineRun(pipeline, ctx, pipeline.sink().open(ctx), List.of(), Map.of());
    }

    /** {@code pipelines} with every pipeline after its dependencies (a stable depth-first order). */
    public static List<Pipeline> inDependencyOrder(List<Pipeline> pipelines) {
        List<Pipeline> ordered = new ArrayList<>();
        Set<Pipeline> seen = new HashSet<>();
        for (Pipeline p : pipelines) {
            addWithDependencies(p, ordered, seen);
        }
        return ordered;
    }

    private static void addWithDependencies(Pipeline pipeline, List<Pipeline> ordered, Set<Pipeline> seen) {
        if (!seen.add(pipeline)) {
            return;
        }
        for (Pipeline dependency : pipeline.dependencies()) {
            addWithDependencies(dependency, ordered, seen);
        }
        ordered.add(pipeline);
    }

    public Pipeline pipeline() {
        return pipeline;
    }

    /** The opened sink state: for an executor that feeds it some other way (a Gather). */
    public Sink.SinkState sinkState() {
        return sinkState;
    }

    /** The leader's task whose branches end in locals of this pipeline's sink. */
    public WorkerTask bind() {
        return bind(sinkState::local, ExecutionProbe.LEADER);
    }

    /** Worker {@code worker}'s task whose branches end in locals of this pipeline's sink. */
    public WorkerTask bind(int worker) {
        return bind(sinkState::local, worker);
    }

    /** The leader's task whose branches end in consumers from {@code tails} (see {@link #bind(Supplier, int)}). */
    public WorkerTask bind(Supplier<BatchConsumer> tails) {
        return bind(tails, ExecutionProbe.LEADER);
    }

    /**
     * A task whose branches end in consumers from {@code tails} (one per branch): the sink's locals,
     * or an exchange that ships the batches elsewhere. {@code participant} (a worker's index, or
     * {@link ExecutionProbe#LEADER}) names the task to EXPLAIN ANALYZE's probe, when the query has one:
     * the probe then wraps every reader and consumer of the task.
     */
    public WorkerTask bind(Supplier<BatchConsumer> tails, int participant) {
        ExecutionProbe probe = ctx.probe();
        ExecutionProbe.Recorder recorder = probe == null ? null : probe.bind(pipeline, participant);
        List<Source.SourceReader> readers = new ArrayList<>();
        List<BatchConsumer> chains = new ArrayList<>();
        List<Pipeline.Branch> branches = pipeline.branches();
        for (int b = 0; b < branches.size(); b++) {
            if (sources.get(b).empty()) {
                continue;
            }
            Source.SourceReader reader = sources.get(b).reader();
            BatchConsumer chain = tails.get();
            if (recorder != null) {
                chain = recorder.sink(b, chain);
            }
            List<Operator> ops = branches.get(b).operators();
            for (int i = ops.size() - 1; i >= 0; i--) {
                chain = operators.get(ops.get(i)).bind(chain);
                if (recorder != null) {
                    chain = recorder.operator(b, i, chain);
                }
            }
            if (recorder != null) {
                // A pushing reader's batches are counted where they enter the chain.
                if (reader instanceof Source.PushingReader) {
                    chain = recorder.input(b, chain);
                } else {
                    reader = recorder.source(b, reader);
                }
            }
            readers.add(reader);
            chains.add(chain);
        }
        return new WorkerTask(readers, chains);
    }

    /**
     * The work every worker shares before {@link #finalizeSink()}, once every worker's task is done.
     * Under EXPLAIN ANALYZE the preparation and every step count in the sink's finalize time.
     */
    public FinalizeWork prepareFinalize() {
        ctx.checkCancelled();
        ExecutionProbe probe = ctx.probe();
        if (probe == null) {
            return sinkState.prepareFinalize();
        }
        long start = System.nanoTime();
        FinalizeWork work = sinkState.prepareFinalize();
        probe.finalized(pipeline, System.nanoTime() - start);
        return () -> {
            long stepStart = System.nanoTime();
            boolean did = work.step();
            probe.finalized(pipeline, System.nanoTime() - stepStart);
            return did;
        };
    }

    /** Finalizes the sink, once every worker has stepped the {@link #prepareFinalize() finalize work} to its end. */
    public void finalizeSink() {
        ctx.checkCancelled();
        ExecutionProbe probe = ctx.probe();
        if (probe == null) {
            sinkState.finalizeSink();
            return;
        }
        long start = System.nanoTime();
        sinkState.finalizeSink();
        probe.finalized(pipeline, System.nanoTime() - start);
    }

    /** What one {@link WorkerTask#step()} did. */
    public enum Step {
        /** Read a batch (or did a unit of a {@link Source.PushingReader}), or finished a branch: more is left. */
        RAN,
        /**
         * The current branch's input is not ready yet (a hash join's spilled partitions while another
         * participant still probes the join): nothing was done; step again later, without holding the
         * thread meanwhile. A lone participant is never blocked: what it waits for is its own earlier
         * work.
         */
        BLOCKED,
        /** Every branch's chain has finished. */
        DONE
    }

    /**
     * One worker's share of a pipeline: its reader and bound chain per branch, driven one batch per
     * {@link #step()} so that the driver can look for a cancel between batches. Not threadsafe.
     */
    public static final class WorkerTask {
        private final List<Source.SourceReader> readers;
        private final List<BatchConsumer> chains;
        private int branch;
        private long batches;

        WorkerTask(List<Source.SourceReader> readers, List<BatchConsumer> chains) {
            this.readers = readers;
            this.chains = chains;
        }

        /**
         * Reads one batch and pushes it through the current branch's chain (or lets a pushing reader
         * do one unit); finishes the chain when its reader is exhausted or the chain wants no more,
         * and moves to the next branch.
         */
        public Step step() {
            if (branch >= chains.size()) {
                return Step.DONE;
            }
            BatchConsumer chain = chains.get(branch);
            Source.SourceReader reader = readers.get(branch);
            if (reader instanceof Source.PushingReader pushing) {
                Step pushed = pushing.push(chain);
                if (pushed != Step.DONE) {
                    batches += pushed == Step.RAN ? 1 : 0;
                    return pushed;
                }
            } else {
                Batch batch = reader.next();
                if (batch != null) {
                    batches++;
                    if (chain.accept(batch)) {
                        return Step.RAN;
                    }
                }
            }
            chain.finish();
            branch++;
            return branch < chains.size() ? Step.RAN : Step.DONE;
        }

        /** Batches read so far, over all branches. */
        public long batches() {
            return batches;
        }
    }
}
