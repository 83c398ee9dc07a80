package io.troupe.operators.join;

import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.FinalizeWork;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.types.DataType;

import java.util.List;

/**
 * The build side of a hash join: materialises its input (the join's right input) into a
 * {@link HashJoinTable} and publishes the finished table under a {@link StateKey} for the probe
 * pipeline. Each worker copies its batches into chunks of its own ({@link BuildWorker}, phase
 * BUILDING), or, once the table spilled, into spill files; the one thread that prepares the
 * finalize sizes the bucket array (ALLOCATING), every worker then links chunks of rows into it
 * ({@link FinalizeWork}: INSERTING), and finalize publishes the table. See note on parallelism in
 * {@code package-info.java}.
 *
 * <p>Immutable and threadsafe; the state of an execution is in the {@link SinkState} it opens,
 * whose {@code local()} consumers are each owned by one worker.
 */
public final class HashJoinBuildSink implements Sink {

    private final StateKey<HashJoinTable> key;
    private final String name;
    private final Expression[] keys;
    private final DataType[] payloadTypes;
    private final boolean matchFlagsNeeded;

    /**
     * @param key              where the finished table is published
     * @param name             the join, for messages
     * @param keys             the build-side key expressions, over the build input's columns
     * @param payloadTypes     the build input's column types when the join emits them, else empty
     * @param matchFlagsNeeded whether the probe records matched rows (RIGHT and FULL, and every join
     *                         under the always-write baseline)
     */
    public HashJoinBuildSink(StateKey<HashJoinTable> key, String name, List<Expression> keys,
                             DataType[] payloadTypes, boolean matchFlagsNeeded) {
        this.key = key;
        this.name = name;
        this.keys = keys.toArray(new Expression[0]);
        this.payloadTypes = payloadTypes.clone();
        this.matchFlagsNeeded = matchFlagsNeeded;
    }

    @Override
    public String role() {
        return "hash-build";
    }

    @Override
    public SinkState open(ExecContext ctx) {
        DataType[] keyTypes = new DataType[keys.length];
        for (int k = 0; k < keys.length; k++) {
            keyTypes[k] = keys[k].type();
        }
        int keyColumn = keys.length == 1 && keys[0] instanceof ColumnExpression column ? column.index() : -1;
        return new BuildState(new HashJoinTable(name, keyTypes, payloadTypes, keyColumn, matchFlagsNeeded,
                ctx.memory().reservation(this, "hash join " + name), ctx.memory().chunkLongs(),
                ctx.spill().enabled() ? ctx.spill() : null), ctx);
    }

    /** One execution: the table being built. Threadsafe as {@link Sink} describes. */
    final class BuildState implements SinkState {

        private final HashJoinTable table;
        private final ExecContext ctx;

        BuildState(HashJoinTable table, ExecContext ctx) {
            this.table = table;
            this.ctx = ctx;
        }

        @Override
        public BatchConsumer local() {
            return new BuildWorker(table, keys);
        }

        /** ALLOCATING, on the one thread that prepares; then INSERTING, a chunk per step, by every worker. */
        @Override
        public FinalizeWork prepareFinalize() {
            table.allocate();
            return table::insertNextChunk;
        }

        /** The barrier after INSERTING is passed: the table goes to the probers. */
        @Override
        public void finalizeSink() {
            table.startProbing();
            ctx.publish(key, table);
        }

        // visible for testing: lets a test run the phases from several threads
        HashJoinTable table() {
            return table;
        }
    }
}
