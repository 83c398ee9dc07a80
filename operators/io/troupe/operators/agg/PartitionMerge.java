package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryFailedException;

import java.util.ArrayList;
import java.util.List;

/**
 * One unit of a hash aggregate's merge: the groups of one part of the key space from every input
 * (the workers' in-memory partials, the ranges of partials too small to split, the runs that
 * partials spilled) merged into one {@link Aggregation}, which then is a part of the result, in
 * memory or, once the aggregate spilled, in a spill file.
 *
 * <p>When the merged groups do not fit (a reservation is refused), the unit cuts its part of the
 * key space once more by the next bits of the key hash ({@link PartitionedGroups#SUB_BITS}): it
 * writes what it merged so far and every input it has not merged yet into one spill file, a run
 * per sixteenth, gives the memory back, and leaves the sixteenths to the {@link MergeQueue}, each
 * a unit of its own that may be cut again. A group's rows always fall in one sixteenth, so each merges
 * exactly. Each cut takes four more bits; after {@link PartitionedGroups#MAX_LEVEL} cuts (a part
 * of 2^-38 of the key space, or a batch of one group that still does not fit) it fails the query
 * with the budget's error. Where the aggregate may not spill, the first refusal does.
 *
 * <p>A unit that finds no memory for even an empty aggregation while other workers merge does not
 * cut (that would not make its need smaller): it goes back to its {@link MergeQueue} for a worker
 * that has the memory once the others are done.
 *
 * <p>Not threadsafe: one worker runs a unit; the units of one merge touch different groups.
 */
final class PartitionMerge {

    private final AggregateMemory memory;
    /** Where in the key space: two hex digits for the partition, one more per cut. */
    private final String place;
    /** The cut this unit makes when its groups do not fit: one more than the cut its inputs came from. */
    private final int nextLevel;
    /** Whether the merged groups go to a spill file (the aggregate spilled) rather than stay in memory. */
    private final boolean toFile;
    private final List<Input> inputs;

    /**
     * @param place     the unit's place in the key space, which orders the result's parts
     * @param nextLevel the level of the cut to make when the merged groups do not fit (0 for a
     *                  merge of whole partials, 1 for one of a partition's, ...)
     * @param toFile    whether the merged groups go to a spill file
     * @param inputs    what to merge; the largest in-memory aggregation is adopted as it is
     */
    PartitionMerge(AggregateMemory memory, String place, int nextLevel, boolean toFile, List<Input> inputs) {
        this.memory = memory;
        this.place = place;
        this.nextLevel = nextLevel;
        this.toFile = toFile;
        this.inputs = inputs;
    }

    /**
     * Merges the inputs and hands the finished part to {@code queue}, or the units of its cut; or,
     * finding no memory at all while other workers merge, puts itself back.
     *
     * @return false when it put itself back: the calling worker stops merging
     */
    boolean run(MergeQueue queue) {
        List<Input> rest = new ArrayList<>(inputs);
        Aggregation merged = adoptLargest(rest);
        for (int i = 0; i < rest.size(); i++) {
            memory.ctx().checkCancelled();
            if (!rest.get(i).tryInto(merged)) {
                List<Input> left = new ArrayList<>(rest.subList(i, rest.size()));
                if (merged.groupCount() == 0) {
                    merged.release();
                    if (queue.putBack(new PartitionMerge(memory, place, nextLevel, toFile, left))) {
                        return false;
                    }
                }
                queue.add(cut(merged, left));
                return true;
            }
        }
        merged.finish();
        queue.finished(place, toFile ? memory.spillResult(merged) : merged);
        return true;
    }

    private Aggregation adoptLargest(List<Input> rest) {
        int largest = -1;
        for (int i = 0; i < rest.size(); i++) {
            if (rest.get(i) instanceof Whole w
                    && (largest < 0 || w.aggregation.groupCount() > ((Whole) rest.get(largest)).aggregation.groupCount())) {
                largest = i;
            }
        }
        return largest < 0 ? memory.newAggregation() : ((Whole) rest.remove(largest)).aggregation;
    }

    /** Writes {@code merged} and {@code rest} into sixteenths (or, at level 0, partitions): a unit each. */
    private List<PartitionMerge> cut(Aggregation merged, List<Input> rest) {
        if (!memory.maySpill()) {
            throw merged.refusal();
        }
        if (nextLevel > PartitionedGroups.MAX_LEVEL) {
            QueryFailedException refusal = merged.refusal();
            throw new QueryFailedException(refusal.getMessage() + "; its groups still do not fit after "
                    + PartitionedGroups.MAX_LEVEL + " cuts of one partition by hash", refusal);
        }
        RunWriter out = memory.newRunWriter(nextLevel, "level " + nextLevel);
        new Whole(merged).writeTo(out, memory);
        for (Input input : rest) {
            input.writeTo(out, memory);
        }
        SpillRun[] parts = out.finish(memory.memory());
        List<PartitionMerge> units = new ArrayList<>();
        for (int s = 0; s < parts.length; s++) {
            if (parts[s] != null) {
                String sub = nextLevel == 0 ? String.format("%02x", s) : place + Integer.toHexString(s);
                units.add(new PartitionMerge(memory, sub, nextLevel + 1, true, List.of(new Run(parts[s]))));
            }
        }
        return units;
    }

    /** Something a unit merges: it merges into the unit's aggregation, or goes to the unit's cut. */
    sealed interface Input permits Whole, Range, Run {

        /** Merges into {@code merged}; false (having merged what it can take back) when refused. */
        boolean tryInto(Aggregation merged);

        /** Writes what was not merged yet as partial rows under their parts of {@code out}'s cut. */
        void writeTo(RunWriter out, AggregateMemory memory);
    }

    /** A worker's partial aggregation of this unit's part (all of it, or a partition), in memory. */
    static final class Whole implements Input {

        /** Null once merged or written: its memory went back, so nothing may keep its arrays. */
        private Aggregation aggregation;

        Whole(Aggregation aggregation) {
            this.aggregation = aggregation;
        }

        @Override
        public boolean tryInto(Aggregation merged) {
            if (!merged.tryAbsorb(aggregation)) {
                return false;
            }
            drop();
            return true;
        }

        @Override
        public void writeTo(RunWriter out, AggregateMemory memory) {
            out.writeAll(aggregation, memory);
            drop();
        }

        private void drop() {
            Aggregation spent = aggregation;
            aggregation = null;
            spent.release();
        }
    }

    /** Partition {@code p} of a partial too small to split, whose groups were sorted by partition. */
    record Range(PartitionedGroups groups, int p) implements Input {

        @Override
        public boolean tryInto(Aggregation merged) {
            return groups.tryMergePartitionInto(merged, p);
        }

        @Override
        public void writeTo(RunWriter out, AggregateMemory memory) {
            groups.write(p, out, memory);
        }
    }

    /** A spilled run of this unit's part, read a batch at a time; a refused batch waits for the cut. */
    static final class Run implements Input {

        private final SpillRun.Reader reader;
        private Batch pending;

        Run(SpillRun run) {
            this.reader = run.reader();
        }

        /**
         * Starts with the rows refused last time, when the unit was put back. A refused batch is
         * tried again in halves, down to one row, before the unit cuts: under a small budget the
         * room for a batch's new groups may be missing where the room for a few is not.
         */
        @Override
        public boolean tryInto(Aggregation merged) {
            if (pending == null) {
                pending = reader.next();
            }
            while (pending != null) {
                int piece = pending.size();
                while (!merged.tryAbsorbPartial(piece == pending.size() ? pending : rows(pending, 0, piece))) {
                    if (piece == 1) {
                        return false;
                    }
                    piece /= 2;
                }
                pending = piece == pending.size() ? reader.next() : rows(pending, piece, pending.size() - piece);
            }
            return true;
        }

        /** Rows {@code from .. from + n} of dense {@code batch}, as a dense batch. */
        private static Batch rows(Batch batch, int from, int n) {
            int[] selection = new int[n];
            for (int i = 0; i < n; i++) {
                selection[i] = from + i;
            }
            return batch.withSelection(selection, n).compact();
        }

        @Override
        public void writeTo(RunWriter out, AggregateMemory memory) {
            Batch batch = pending != null ? pending : reader.next();
            pending = null;
            while (batch != null) {
                memory.ctx().checkCancelled();
                out.scatter(batch);
                batch = reader.next();
            }
        }
    }
}
