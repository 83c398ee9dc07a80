package io.troupe.operators.sort;

import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.ExecutionProbe;
import io.troupe.operators.exec.Operator;
import io.troupe.operators.exec.Pipeline;

import java.util.List;
import java.util.Optional;

/**
 * A pipeline that reads a sort's output, split for a Gather Merge the way PostgreSQL places one:
 * directly above the per-worker sorted streams.
 * <pre>
 *   workers (all):  SortedSource.streams: one run each, every row, in the sort's output columns
 *                      |  one sorted stream per worker
 *   Gather Merge:   StreamMerger (k-way, applies OFFSET/LIMIT of a top-N)
 *                      |  one stream in the global order
 *                   the pipeline's operators above the sort (project, limit, probe ...) -> its sink
 * </pre>
 * The operators run after the merge, on its single stream, so a LIMIT or OFFSET among them counts
 * rows in the merged order and a projection may drop the sort keys: the merge compares whole rows
 * of the sort's output before anything above it touches them.
 *
 * <p>Immutable and threadsafe; {@link #merger} and {@link #chain} make per-execution state.
 */
public final class SortedStreams {

    private final Pipeline pipeline;
    private final SortedSource source;
    private final List<Operator> above;

    private SortedStreams(Pipeline pipeline, SortedSource source, List<Operator> above) {
        this.pipeline = pipeline;
        this.source = source;
        this.above = above;
    }

    /** The split of {@code pipeline}, when it has one branch and that branch reads a sort's output. */
    public static Optional<SortedStreams> of(Pipeline pipeline) {
        if (pipeline.branches().size() != 1) {
            return Optional.empty();
        }
        Pipeline.Branch branch = pipeline.branches().get(0);
        if (!(branch.source() instanceof SortedSource sorted)) {
            return Optional.empty();
        }
        return Optional.of(new SortedStreams(pipeline, sorted, branch.operators()));
    }

    /**
     * The workers' part: the same pipeline (id, sink, dependencies) whose one branch reads
     * {@code streams} sorted streams, one per reader, and has no operators.
     */
    public Pipeline streamPipeline(int streams) {
        return new Pipeline(pipeline.id(), List.of(new Pipeline.Branch(source.streams(streams), List.of())),
                pipeline.sink(), pipeline.dependencies());
    }

    /** A merger of {@code inputs} streams for the sort whose result {@code ctx} holds (published by then). */
    public StreamMerger merger(ExecContext ctx, int inputs) {
        SortedResult result = ctx.lookup(source.key());
        return new StreamMerger(result.spec(), inputs, result.offset(), result.count(), ctx.batchSize());
    }

    /**
     * The operators above the sort, opened for this execution and bound once, over {@code tail}.
     * Under EXPLAIN ANALYZE the chain is the leader's share of the pipeline ({@link ExecutionProbe#LEADER}
     * binds it): what the merge pushes in counts for the sort, the operators and the tail as
     * {@link io.troupe.operators.exec.PipelineRun#bind} would count them; without a probe nothing is wrapped.
     */
    public BatchConsumer chain(ExecContext ctx, BatchConsumer tail) {
        ExecutionProbe probe = ctx.probe();
        ExecutionProbe.Recorder recorder = probe == null ? null : probe.bind(pipeline, ExecutionProbe.LEADER);
        BatchConsumer chain = recorder == null ? tail : recorder.sink(0, tail);
        for (int i = above.size() - 1; i >= 0; i--) {
            chain = above.get(i).open(ctx).bind(chain);
            if (recorder != null) {
                chain = recorder.operator(0, i, chain);
            }
        }
        return recorder == null ? chain : recorder.input(0, chain);
    }
}
