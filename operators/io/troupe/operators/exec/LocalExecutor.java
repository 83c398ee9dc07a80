package io.troupe.operators.exec;

import io.troupe.operators.batch.Batch;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs pipelines on the calling thread, one after another in dependency order: the executor of
 * a query with no workers (the leader alone), and the reference the parallel executor is tested
 * against. Checks for cancellation once per batch.
 *
 * <p>Not threadsafe: one instance runs one query at a time.
 */
public final class LocalExecutor {

    /** Runs {@code pipelines} (each listed after its dependencies, or in any order: it sorts them). */
    public void run(List<Pipeline> pipelines, ExecContext ctx) {
        Set<Pipeline> done = new HashSet<>();
        for (Pipeline p : pipelines) {
            runWithDependencies(p, ctx, done);
        }
    }

    private void runWithDependencies(Pipeline pipeline, ExecContext ctx, Set<Pipeline> done) {
        if (done.contains(pipeline)) {
            return;
        }
        for (Pipeline dependency : pipeline.dependencies()) {
            runWithDependencies(dependency, ctx, done);
        }
        runOne(pipeline, ctx);
        done.add(pipeline);
    }

    /**
     * Binds the chain of every branch before driving any: an operator shared by the branches of a
     * union (a RIGHT join's probe) must know all its consumers before the first one finishes.
     */
    private void runOne(Pipeline pipeline, ExecContext ctx) {
        Sink.SinkState sinkState = pipeline.sink().open(ctx);
        Map<Operator, Operator.OperatorState> opened = new IdentityHashMap<>();
        List<Source.SourceReader> readers = new ArrayList<>();
        List<BatchConsumer> chains = new ArrayList<>();
        for (Pipeline.Branch branch : pipeline.branches()) {
            ctx.checkCancelled();
            readers.add(branch.source().open(ctx).reader());
            BatchConsumer chain = sinkState.local();
            List<Operator> ops = branch.operators();
            for (int i = ops.size() - 1; i >= 0; i--) {
                Operator op = ops.get(i);
                chain = opened.computeIfAbsent(op, o -> o.open(ctx)).bind(chain);
            }
            chains.add(chain);
        }
        for (int b = 0; b < chains.size(); b++) {
            drive(readers.get(b), chains.get(b), ctx);
        }
        sinkState.finalizeSink();
    }

    /** Pushes every batch of {@code reader} into {@code chain}; stops early when the chain says so. */
    static void drive(Source.SourceReader reader, BatchConsumer chain, ExecContext ctx) {
        Batch batch;
        while ((batch = reader.next()) != null) {
            ctx.checkCancelled();
            if (!chain.accept(batch)) {
                break;
            }
        }
        chain.finish();
    }
}
