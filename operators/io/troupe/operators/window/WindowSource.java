package io.troupe.operators.window;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Source;
import io.troupe.operators.exec.StateKey;

import java.util.List;

/**
 * The output side of a window: each reader claims a hash part that the {@link WindowSink} kept, sorts it and
 * computes every function over it ({@link WindowPart}), emits its rows with the functions' columns in batches
 * of at most the query's batch size, gives the part's memory back and claims the next. Readers share nothing
 * but the claim counter, so every worker computes parts while any are left.
 *
 * <p>Immutable and threadsafe; each execution's state is threadsafe, its readers are not.
 */
public final class WindowSource implements Source {

    private final StateKey<WindowParts> key;

    public WindowSource(StateKey<WindowParts> key) {
        this.key = key;
    }

    @Override
    public SourceState open(ExecContext ctx) {
        WindowParts parts = ctx.lookup(key);
        int batchSize = ctx.batchSize();
        return () -> new SourceReader() {
            private WindowPart current;
            private int emitted;

            @Override
            public Batch next() {
                while (current == null || emitted == current.rows()) {
                    if (current != null) {
                        current.release();
                        current = null;
                    }
                    List<Batch> claimed = parts.claim();
                    if (claimed == null) {
                        return null;
                    }
                    current = WindowPart.compute(parts.spec(), claimed, parts.memory());
                    emitted = 0;
                }
                int count = Math.min(batchSize, current.rows() - emitted);
                Batch out = current.output(emitted, count);
                emitted += count;
                return out;
            }
        };
    }
}
