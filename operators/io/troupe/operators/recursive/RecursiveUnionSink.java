package io.troupe.operators.recursive;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.types.DataType;

import java.util.List;

/**
 * Where a recursive union's rows arrive: the sink of its non-recursive term ({@link #seed}), which makes the
 * execution's {@link Recursion} and publishes it once the term's rows are in, and the sink of its recursive term
 * ({@link #step}), which ends the loop's body and asks for another round while the last one added rows. See the
 * package's note for the protocol.
 *
 * <p>Immutable and threadsafe; the state of an execution is its {@link Recursion}.
 */
public final class RecursiveUnionSink implements Sink {

    private final StateKey<Recursion> key;
    /** The non-recursive term's sink: the fields below; null for the recursive term's. */
    private final Seed seed;
    /** The recursive term's: the id of the loop's first pipeline; -1 for the non-recursive term's. */
    private final int loopStart;

    private record Seed(String name, List<DataType> types, boolean all, int limit) {
    }

    private RecursiveUnionSink(StateKey<Recursion> key, Seed seed, int loopStart) {
        this.key = key;
        this.seed = seed;
        this.loopStart = loopStart;
    }

    /**
     * The sink of the non-recursive term, which publishes the recursion's state under {@code key}.
     *
     * @param name  the recursive union's name, for errors
     * @param types its columns' types
     * @param all   UNION ALL; else UNION
     * @param limit how many rounds of the recursive term may run
     */
    public static RecursiveUnionSink seed(StateKey<Recursion> key, String name, List<DataType> types, boolean all,
                                          int limit) {
        return new RecursiveUnionSink(key, new Seed(name, List.copyOf(types), all, limit), -1);
    }

    /**
     * The sink of the recursive term, which adds to the state published under {@code key} and ends the loop whose
     * first pipeline is {@code loopStart}.
     */
    public static RecursiveUnionSink step(StateKey<Recursion> key, int loopStart) {
        return new RecursiveUnionSink(key, null, loopStart);
    }

    @Override
    public String role() {
        return "recursive-union";
    }

    @Override
    public int loopStart() {
        return loopStart;
    }

    @Override
    public SinkState open(ExecContext ctx) {
        Recursion recursion = seed == null ? ctx.lookup(key)
                : new Recursion(seed.name(), seed.types(), seed.all(), seed.limit(), ctx.batchSize(),
                        ctx.memory().reservation(this, "WITH RECURSIVE " + seed.name()));
        return new SinkState() {
            @Override
            public BatchConsumer local() {
                Recursion.RoundConsumer rows = recursion.local();
                return new BatchConsumer() {
                    @Override
                    public boolean accept(Batch batch) {
                        rows.accept(batch);
                        return true;
                    }

                    @Override
                    public void finish() {
                        rows.finish();
                    }
                };
            }

            @Override
            public void finalizeSink() {
                recursion.endRound();
                if (seed != null) {
                    ctx.publish(key, recursion);
                }
            }

            @Override
            public boolean again() {
                return seed == null && recursion.again();
            }
        };
    }
}
