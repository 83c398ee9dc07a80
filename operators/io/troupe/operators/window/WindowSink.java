package io.troupe.operators.window;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.memory.MemoryReservation;

import java.util.ArrayList;
import java.util.List;

/**
 * The input side of a window: every worker's rows, split by the hash of their PARTITION BY keys into
 * {@link #PARTS} parts (one part without keys), kept until every worker has finished; then published as
 * {@link WindowParts} for the {@link WindowSource} that computes the functions part by part. See the
 * package's note for the whole protocol.
 *
 * <p>Memory: each piece of a batch that a worker keeps is reserved on the window's account before it is kept;
 * a refused reservation fails the query with the budget's error (a window does not spill).
 *
 * <p>Immutable and threadsafe. Per execution, the shared state is the parts' lists, each worker adding its
 * own at {@code finish()} under the lists' monitor; the executor's barrier orders the adds before
 * {@code finalizeSink}, which publishes them.
 */
public final class WindowSink implements Sink {

    /**
     * Hash parts of a window with PARTITION BY keys: the units the readers claim, so several times the
     * workers a machine runs (16 cores: 4 each), which evens out parts of unequal size; a part may hold
     * many partitions.
     */
    static final int PARTS = 64;

    private final WindowSpec spec;
    private final StateKey<WindowParts> key;

    public WindowSink(WindowSpec spec, StateKey<WindowParts> key) {
        this.spec = spec;
        this.key = key;
    }

    @Override
    public String role() {
        return "window";
    }

    @Override
    public SinkState open(ExecContext ctx) {
        MemoryReservation memory = ctx.memory().reservation(this, spec.label());
        int parts = spec.partitioned() ? PARTS : 1;
        List<List<Batch>> kept = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
            kept.add(new ArrayList<>());
        }
        return new SinkState() {
            @Override
            public BatchConsumer local() {
                return new WindowBuffer(spec, parts, memory, mine -> {
                    synchronized (kept) {
                        for (int p = 0; p < parts; p++) {
                            kept.get(p).addAll(mine.get(p));
                        }
                    }
                });
            }

            @Override
            public void finalizeSink() {
                synchronized (kept) {
                    ctx.publish(key, new WindowParts(spec, kept, memory));
                }
            }
        };
    }

    @Override
    public String toString() {
        return spec.label();
    }
}
