package io.troupe.operators.exec;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which an executor runs a query's pipelines: each after its dependencies
 * ({@link PipelineRun#inDependencyOrder}), and a loop's body again and again while the sink that ends it asks
 * ({@link Sink#loopStart()}, {@link Sink.SinkState#again()}): WITH RECURSIVE's recursive term. The executors (the
 * leader's {@link LocalRun}, the parallel executor's coordinator) hold positions in this order and ask it which comes
 * next, so that both loop the same way.
 *
 * <p>A loop's body is the pipelines from its first to the one whose sink ends it, in this order; the compiler
 * registers them one after another. When the body runs again, the query comes back to where it stood before the
 * body's first pipeline first ran ({@link ExecContext#rollBack}): what the body's pipelines published is forgotten and
 * the memory of their operators given back, so that each round publishes anew and a loop of many rounds holds no more
 * than one round's operators. What the loop keeps from round to round lives in state published before the body (the
 * recursive union's, see {@code io.troupe.operators.recursive}).
 *
 * <p>Not threadsafe: one executor thread uses it, between pipelines.
 */
public final class PipelineOrder {

    private final List<Pipeline> ordered;
    private final ExecContext ctx;
    /** By the position of each loop's last pipeline, the position of its first. */
    private final Map<Integer, Integer> loopStarts = new HashMap<>();
    /** By the position of each loop's first pipeline, where the query stood before it first ran. */
    private final Map<Integer, ExecContext.Checkpoint> checkpoints = new HashMap<>();
    /** How many times the pipeline at each position started. */
    private final int[] runs;

    /**
     * The order of {@code pipelines}, run in {@code ctx}.
     *
     * @throws IllegalArgumentException when a sink ends a loop whose first pipeline the query lacks, or runs after it
     */
    public PipelineOrder(List<Pipeline> pipelines, ExecContext ctx) {
        this.ordered = PipelineRun.inDependencyOrder(pipelines);
        this.ctx = ctx;
        this.runs = new int[ordered.size()];
        Map<Integer, Integer> positions = new HashMap<>();
        for (int i = 0; i < ordered.size(); i++) {
            positions.put(ordered.get(i).id(), i);
        }
        for (int i = 0; i < ordered.size(); i++) {
            int start = ordered.get(i).sink().loopStart();
            if (start < 0) {
                continue;
            }
            Integer first = positions.get(start);
            if (first == null || first > i) {
                throw new IllegalArgumentException("pipeline " + ordered.get(i).id() + " ends a loop from pipeline "
                        + start + ", which " + (first == null ? "the query lacks" : "runs after it"));
            }
            loopStarts.put(i, first);
        }
    }

    /** How many pipelines there are. */
    public int size() {
        return ordered.size();
    }

    /** The pipeline at {@code position}. */
    public Pipeline get(int position) {
        return ordered.get(position);
    }

    /**
     * The executor is about to open the pipeline at {@code position}: where a loop's body starts, the first time,
     * remembers where the query stands. Returns how many times that pipeline started, this one included (1 the
     * first), which tells the rounds' workers apart.
     */
    public int opening(int position) {
        if (runs[position] == 0 && loopStarts.containsValue(position)) {
            checkpoints.put(position, ctx.checkpoint());
        }
        return ++runs[position];
    }

    /**
     * The position to run after the pipeline at {@code position}, whose sink {@code finalized} has finalized: the
     * next, or {@link #size()} after the last; or, where that sink ends a loop's body and asks for another round, the
     * body's first, the query rolled back to where it stood before the body first ran.
     */
    public int next(int position, PipelineRun finalized) {
        Integer first = loopStarts.get(position);
        if (first != null && finalized.sinkState().again()) {
            ctx.rollBack(checkpoints.get(first));
            return first;
        }
        return position + 1;
    }
}
