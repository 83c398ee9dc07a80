package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.FinalizeWork;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.types.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * The build side of a hash aggregate (GROUP BY, DISTINCT): evaluates the group keys and the
 * aggregates' inputs of each batch and aggregates them into a worker-local {@link Aggregation}
 * (partial aggregation, no sharing while rows flow); the locals hand their partials in at their
 * {@code finish()}, every worker then takes merge units ({@link FinalizeWork}: a partition of the
 * key space each, or the whole merge when it is small), and {@code finalizeSink()} publishes the
 * merged parts for a {@link HashAggregateSource}. See the package note for the phases. Its
 * {@link AggregateStep} says what it takes in and gives out.
 *
 * <p>Immutable and threadsafe; the state of an execution is threadsafe as {@link Sink} requires:
 * several workers may finish at once and take turns on one lock to hand in their partials (once
 * per worker, so the lock is not on the per-batch path).
 */
public final class HashAggregateSink implements Sink {

    private final List<Expression> keys;
    private final List<AggregateSpec> aggregates;
    /** Per aggregate, what each row gives it ({@link AggregateSpec#inputs}). */
    private final List<List<Expression>> inputExpressions;
    private final AggregateStep step;
    /** Per aggregate, the input column where its partial state starts (FINAL step), or -1: it takes its argument. */
    private final int[] inputAt;
    private final List<DataType> keyTypes;
    private final StateKey<AggregateResult> resultKey;
    /** Groups at which a partial splits into partitions (see {@link PartialAggregation}); never without group keys. */
    private final int splitAt;

    /**
     * @param keys       the group keys (none: one group over the whole input)
     * @param aggregates the aggregates, computed per group
     * @param resultKey  where the result is published
     */
    public HashAggregateSink(List<Expression> keys, List<AggregateSpec> aggregates,
                             StateKey<AggregateResult> resultKey) {
        this(keys, aggregates, resultKey, AggregateStep.COMPLETE);
    }

    /**
     * @param step what it takes in and gives out; in a FINAL step the keys are the input's first
     *             columns, each aggregate's partial state the columns after them, in order
     */
    public HashAggregateSink(List<Expression> keys, List<AggregateSpec> aggregates,
                             StateKey<AggregateResult> resultKey, AggregateStep step) {
        this(keys, aggregates, resultKey, step, PartialAggregation.SPLIT_AT);
    }

    // visible for testing: a small split threshold lets small inputs take the partitioned merge
    HashAggregateSink(List<Expression> keys, List<AggregateSpec> aggregates, StateKey<AggregateResult> resultKey,
                      AggregateStep step, int splitAt) {
        this.keys = List.copyOf(keys);
        this.aggregates = List.copyOf(aggregates);
        this.inputExpressions = this.aggregates.stream().map(AggregateSpec::inputs).toList();
        this.step = step;
        this.resultKey = resultKey;
        this.inputAt = new int[aggregates.size()];
        int column = this.keys.size();
        for (int a = 0; a < inputAt.length; a++) {
            AggregateSpec spec = aggregates.get(a);
            if (spec.distinct() && spec.function() == AggregateFunction.COUNT) {
                throw new IllegalArgumentException(spec.text() + ": count(DISTINCT) runs as plain aggregates in steps "
                        + "(AggregateStep), not in one sink");
            }
            inputAt[a] = -1;
            if (step == AggregateStep.FINAL) {
                inputAt[a] = column;
                column += AggregateState.create(spec).partialTypes().length;
            }
        }
        List<DataType> types = new ArrayList<>();
        for (Expression key : this.keys) {
            types.add(key.type());
        }
        this.keyTypes = List.copyOf(types);
        this.splitAt = this.keys.isEmpty() ? Integer.MAX_VALUE : splitAt;
    }

    @Override
    public String role() {
        return "aggregate";
    }

    @Override
    public SinkState open(ExecContext ctx) {
        return new Shared(ctx);
    }

    private static ColumnVector[] evaluate(List<Expression> expressions, Batch batch) {
        ColumnVector[] vectors = new ColumnVector[expressions.size()];
        for (int i = 0; i < vectors.length; i++) {
            vectors[i] = expressions.get(i).evaluate(batch);
        }
        return vectors;
    }

    /** The phases of one execution's shared state. */
    private enum Phase {
        /** Workers aggregate locally and hand their partials in on finish. */
        AGGREGATING,
        /** The partials merge, a unit of work at a time, on every worker. */
        MERGING,
        /** The result is published; nothing changes any more. */
        FINALIZED
    }

    /**
     * The partials of one execution and their merge. Partials come in under the lock (once per
     * worker); the merge units ({@link MergeQueue}) hand their parts to the queue, which the
     * executor orders before {@code finalizeSink()} (see {@link FinalizeWork}).
     */
    private final class Shared implements SinkState {

        private final ExecContext ctx;
        private final AggregateMemory memory;
        private final Object lock = new Object();
        /** The non-empty partials; guarded by lock until prepareFinalize, then read-only. */
        private final List<PartialAggregation> partials = new ArrayList<>();
        private Phase phase = Phase.AGGREGATING;
        private MergeQueue merge;

        Shared(ExecContext ctx) {
            this.ctx = ctx;
            this.memory = new AggregateMemory(ctx, HashAggregateSink.this, "hash aggregate " + resultKey, keyTypes,
                    aggregates, step, inputAt);
        }

        @Override
        public BatchConsumer local() {
            return new Local(this);
        }

        void add(PartialAggregation partial) {
            synchronized (lock) {
                if (phase != Phase.AGGREGATING) {
                    throw new IllegalStateException("a worker finished after the merge began: " + resultKey);
                }
                if (partial.groupCount() > 0) {
                    partials.add(partial);
                }
            }
        }

        /**
         * One merge unit per partition when some partial split (it had many groups) or spilled:
         * the split partials' partition (the largest adopted as it is), the ranges of the small
         * ones and the runs spilled for it. Otherwise a single unit that merges every partial into
         * the largest. Sorting the partials that did not split by partition is quick: each has
         * fewer than {@link PartialAggregation#SPLIT_AT} groups (over the budget, it spills instead).
         */
        @Override
        public FinalizeWork prepareFinalize() {
            synchronized (lock) {
                if (phase != Phase.AGGREGATING) {
                    throw new IllegalStateException("prepareFinalize called twice: " + resultKey);
                }
                phase = Phase.MERGING;
            }
            List<PartitionMerge> units = new ArrayList<>();
            if (!memory.spilled() && partials.stream().noneMatch(PartialAggregation::isSplit)) {
                List<PartitionMerge.Input> all = new ArrayList<>();
                for (PartialAggregation partial : partials) {
                    all.add(new PartitionMerge.Whole(partial.whole()));
                }
                units.add(new PartitionMerge(memory, "", 0, false, all));
                merge = new MergeQueue(resultKey.toString(), units);
                return merge;
            }
            List<PartitionedGroups> unsplit = new ArrayList<>();
            for (PartialAggregation partial : partials) {
                if (!partial.isSplit() && partial.groupCount() > 0) {
                    long bytes = PartitionedGroups.bytesFor(partial.whole());
                    if (memory.memory().tryGrow(bytes)) {
                        unsplit.add(PartitionedGroups.of(partial.whole(), 0));
                    } else if (memory.maySpill()) {
                        partial.spill();
                    } else {
                        throw memory.memory().overBudget(bytes);
                    }
                }
            }
            for (int p = 0; p < PartitionedGroups.PARTITIONS; p++) {
                List<PartitionMerge.Input> inputs = new ArrayList<>();
                for (PartialAggregation partial : partials) {
                    if (partial.isSplit()) {
                        inputs.add(new PartitionMerge.Whole(partial.takePartition(p)));
                    }
                }
                for (PartitionedGroups small : unsplit) {
                    inputs.add(new PartitionMerge.Range(small, p));
                }
                for (SpillRun run : memory.runsOf(p)) {
                    inputs.add(new PartitionMerge.Run(run));
                }
                units.add(new PartitionMerge(memory, String.format("%02x", p), 1, memory.spilled(), inputs));
            }
            merge = new MergeQueue(resultKey.toString(), units);
            return merge;
        }

        @Override
        public void finalizeSink() {
            List<ResultPart> parts;
            synchronized (lock) {
                if (phase != Phase.MERGING) {
                    throw new IllegalStateException("finalizeSink in phase " + phase + ", expected MERGING: " + resultKey);
                }
                parts = merge.parts();
                memory.finishResults();
                phase = Phase.FINALIZED;
            }
            ctx.publish(resultKey, new AggregateResult(parts));
        }
    }

    /** One worker's partial aggregation. Not threadsafe. */
    private final class Local implements BatchConsumer {

        private final Shared shared;
        private final ColumnVector[] keyColumns = new ColumnVector[keys.size()];
        private final ColumnVector[][] inputs = new ColumnVector[aggregates.size()][];
        private PartialAggregation aggregation;

        Local(Shared shared) {
            this.shared = shared;
            this.aggregation = new PartialAggregation(shared.memory, splitAt);
        }

        @Override
        public boolean accept(Batch batch) {
            if (batch.size() == 0) {
                return true;
            }
            for (int k = 0; k < keyColumns.length; k++) {
                keyColumns[k] = keys.get(k).evaluate(batch);
            }
            for (int a = 0; a < inputs.length; a++) {
                inputs[a] = inputAt[a] >= 0 ? null : evaluate(inputExpressions.get(a), batch);
            }
            aggregation.add(batch, keyColumns, inputs);
            return true;
        }

        @Override
        public void finish() {
            if (aggregation == null) {
                throw new IllegalStateException("finish called twice on a worker of " + resultKey);
            }
            // Rows that went to a spill file as they were, while no partial had spilled, would be lost otherwise.
            aggregation.handInRows();
            // Once another worker spilled, this one does too: the merge then starts with its memory free.
            if (shared.memory.spilled() && shared.memory.maySpill()) {
                aggregation.spill();
            }
            shared.add(aggregation);
            aggregation = null;
        }
    }
}
