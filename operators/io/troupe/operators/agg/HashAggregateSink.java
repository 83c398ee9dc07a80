package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.types.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * The build side of a hash aggregate (GROUP BY, DISTINCT): evaluates the group keys and the
 * aggregate arguments of each batch and aggregates them into a worker-local {@link Aggregation}
 * (partial aggregation, no sharing while rows flow); the locals merge into one at their
 * {@code finish()}, and {@code finalizeSink()} publishes the result for a
 * {@link HashAggregateSource}. See the package note for the phases.
 *
 * <p>Immutable and threadsafe; the state of an execution is threadsafe as {@link Sink} requires:
 * several workers may finish at once, and their merges take turns on one lock (each worker
 * merges once, so the lock is not on the per-batch path).
 */
public final class HashAggregateSink implements Sink {

    private final List<Expression> keys;
    private final List<AggregateSpec> aggregates;
    private final List<DataType> keyTypes;
    private final StateKey<AggregateResult> resultKey;

    /**
     * @param keys       the group keys (none: one group over the whole input)
     * @param aggregates the aggregates, computed per group
     * @param resultKey  where the result is published
     */
    public HashAggregateSink(List<Expression> keys, List<AggregateSpec> aggregates,
                             StateKey<AggregateResult> resultKey) {
        this.keys = List.copyOf(keys);
        this.aggregates = List.copyOf(aggregates);
        this.resultKey = resultKey;
        List<DataType> types = new ArrayList<>();
        for (Expression key : this.keys) {
            types.add(key.type());
        }
        this.keyTypes = List.copyOf(types);
    }

    @Override
    public String role() {
        return "aggregate";
    }

    @Override
    public SinkState open(ExecContext ctx) {
        return new Shared(ctx);
    }

    /** The phases of one execution's shared state. */
    private enum Phase {
        /** Workers aggregate locally and merge on finish. */
        AGGREGATING,
        /** The result is published; nothing changes any more. */
        FINALIZED
    }

    private final class Shared implements SinkState {

        private final ExecContext ctx;
        private final Object lock = new Object();
        /** The merge of the locals that finished so far; guarded by lock. */
        private Aggregation merged;
        private Phase phase = Phase.AGGREGATING;

        Shared(ExecContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public BatchConsumer local() {
            return new Local(this);
        }

        /** Merges a finished worker's aggregation, the smaller into the larger (the sum is symmetric). */
        void merge(Aggregation local) {
            synchronized (lock) {
                if (phase != Phase.AGGREGATING) {
                    throw new IllegalStateException("a worker finished after finalizeSink: " + resultKey);
                }
                if (merged == null) {
                    merged = local;
                } else if (local.groupCount() > merged.groupCount()) {
                    local.absorb(merged);
                    merged = local;
                } else {
                    merged.absorb(local);
                }
            }
        }

        @Override
        public void finalizeSink() {
            synchronized (lock) {
                if (phase != Phase.AGGREGATING) {
                    throw new IllegalStateException("finalizeSink called twice: " + resultKey);
                }
                Aggregation result = merged != null ? merged : new Aggregation(keyTypes, aggregates);
                merged = null;
                result.finish();
                phase = Phase.FINALIZED;
                ctx.publish(resultKey, new AggregateResult(result));
            }
        }
    }

    /** One worker's partial aggregation. Not threadsafe. */
    private final class Local implements BatchConsumer {

        private final Shared shared;
        private final ColumnVector[] keyColumns = new ColumnVector[keys.size()];
        private final ColumnVector[] arguments = new ColumnVector[aggregates.size()];
        private Aggregation aggregation = new Aggregation(keyTypes, aggregates);

        Local(Shared shared) {
            this.shared = shared;
        }

        @Override
        public boolean accept(Batch batch) {
            if (batch.size() == 0) {
                return true;
            }
            for (int k = 0; k < keyColumns.length; k++) {
                keyColumns[k] = keys.get(k).evaluate(batch);
            }
            for (int a = 0; a < arguments.length; a++) {
                Expression argument = aggregates.get(a).argument();
                arguments[a] = argument == null ? null : argument.evaluate(batch);
            }
            aggregation.add(batch, keyColumns, arguments);
            return true;
        }

        @Override
        public void finish() {
            if (aggregation == null) {
                throw new IllegalStateException("finish called twice on a worker of " + resultKey);
            }
            shared.merge(aggregation);
            aggregation = null;
        }
    }
}
