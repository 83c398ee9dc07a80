package io.troupe.operators.recursive;

import io.troupe.operators.agg.DistinctRows;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.memory.MemoryReservation;
import io.troupe.operators.types.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * One execution of one recursive union: the rows it produced so far, and the work table, the rows its last round
 * added, which the next round of the recursive term reads. Made by the non-recursive term's sink and published for
 * the rounds ({@link RecursiveUnionSink}). See the package's note for the protocol.
 *
 * <p>Public for the key its state is published under; the rest is this package's. UNION ALL keeps every row each round adds, as the batches came (compacted), and the work table is the last
 * round's batches. UNION keeps a {@link DistinctRows}, which drops what it holds already; the work table is what it
 * newly holds, copied out once per round.
 *
 * <h2>Concurrency</h2>
 * {@link #local()}'s consumers run on the workers of a round at once: UNION ALL's each collects its batches alone and
 * hands them over under this object's lock when it finishes; UNION's add to the threadsafe set. {@link #endRound()},
 * {@link #again()} and the readers ({@link #workTable()}, {@link #resultBatches()}, {@link #distinctRows()}) run
 * between pipelines: the executor starts a pipeline after the last worker of the one before reported, so they see
 * every add, and no add runs while they do.
 */
public final class Recursion {

    private final String name;
    private final boolean all;
    private final int limit;
    private final int batchSize;
    private final MemoryReservation memory;
    /** UNION's rows; null for UNION ALL. */
    private final DistinctRows distinct;
    /** UNION ALL's rows of the rounds ended so far. Read between rounds only. */
    private final List<Batch> result = new ArrayList<>();
    /** UNION ALL's rows of the round running. Guarded by this. */
    private final List<Batch> added = new ArrayList<>();
    /** The rows the last round added. */
    private List<Batch> workTable = List.of();
    /** UNION's bytes reserved for the work table's copies. */
    private long workTableBytes;
    /** Rounds of the recursive term ended so far (the non-recursive term's is none of them). */
    private int rounds = -1;

    /**
     * @param name      the recursive union's name, for errors
     * @param types     its columns' types
     * @param all       UNION ALL; else UNION
     * @param limit     how many rounds of the recursive term may run ({@code troupe.sql.recursion-limit})
     * @param batchSize rows per batch of UNION's work table
     * @param memory    the account every kept row is reserved from
     */
    Recursion(String name, List<DataType> types, boolean all, int limit, int batchSize, MemoryReservation memory) {
        this.name = name;
        this.all = all;
        this.limit = limit;
        this.batchSize = batchSize;
        this.memory = memory;
        this.distinct = all ? null : new DistinctRows(types, memory);
    }

    /** A consumer of one worker's rows of the round running. Not threadsafe: the worker's. */
    RoundConsumer local() {
        return all ? new AllRows() : new NewRows();
    }

    /** What a round's worker pushes its rows into. */
    interface RoundConsumer {
        void accept(Batch batch);

        void finish();
    }

    /** UNION ALL: each batch kept, reserved first; handed over when the worker finishes. */
    private final class AllRows implements RoundConsumer {
        private final List<Batch> mine = new ArrayList<>();

        @Override
        public void accept(Batch batch) {
            if (batch.size() > 0) {
                Batch kept = batch.compact();
                memory.grow(kept.sizeInBytes());
                mine.add(kept);
            }
        }

        @Override
        public void finish() {
            synchronized (Recursion.this) {
                added.addAll(mine);
            }
        }
    }

    /** UNION: each batch's rows added to the set, which keeps those it lacked. */
    private final class NewRows implements RoundConsumer {
        @Override
        public void accept(Batch batch) {
            distinct.add(batch);
        }

        @Override
        public void finish() {
            // The set holds the rows already.
        }
    }

    /** Ends a round (the non-recursive term's first): the rows it added become the work table. */
    void endRound() {
        rounds++;
        if (all) {
            synchronized (this) {
                workTable = List.copyOf(added);
                result.addAll(added);
                added.clear();
            }
        } else {
            memory.shrink(workTableBytes);
            workTable = distinct.takeNew(batchSize);
            workTableBytes = 0;
            for (Batch b : workTable) {
                workTableBytes += b.sizeInBytes();
            }
            memory.grow(workTableBytes);
        }
    }

    /**
     * Whether the recursive term runs again: its last round added rows.
     *
     * @throws QueryFailedException when it did, and the term ran {@code limit} rounds already
     */
    boolean again() {
        if (workTable.isEmpty()) {
            return false;
        }
        if (rounds >= limit) {
            throw new QueryFailedException("WITH RECURSIVE " + name + ": the recursive term ran " + rounds
                    + " times and its last run still added rows; troupe.sql.recursion-limit = " + limit
                    + " stops it here (raise it if the recursion does end)");
        }
        return true;
    }

    /** The rows the last round added. */
    List<Batch> workTable() {
        return workTable;
    }

    /** UNION ALL's rows, once the recursion ended; null for UNION. */
    List<Batch> resultBatches() {
        return all ? result : null;
    }

    /** UNION's rows, once the recursion ended; null for UNION ALL. */
    DistinctRows distinctRows() {
        return distinct;
    }
}
