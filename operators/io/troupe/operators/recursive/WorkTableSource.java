package io.troupe.operators.recursive;

import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Source;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.scan.CollectedScanSource;

/**
 * A recursive union's work table as its recursive term reads it (PostgreSQL's WorkTable Scan): the rows the last
 * round added, each kept batch a morsel claimed from one shared counter, so that a round's readers run in parallel and
 * read every row once. Opened anew each round, after the round before ended. See the package's note.
 *
 * <p>Immutable and threadsafe.
 */
public final class WorkTableSource implements Source {

    private final StateKey<Recursion> key;

    public WorkTableSource(StateKey<Recursion> key) {
        this.key = key;
    }

    @Override
    public SourceState open(ExecContext ctx) {
        return CollectedScanSource.morsels(ctx.lookup(key).workTable());
    }
}
