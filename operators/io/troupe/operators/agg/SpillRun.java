package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.spill.SpillFile;
import io.troupe.operators.spill.SpillReader;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One partition's partial rows in one spill file: the byte ranges of its blocks there (a file holds
 * every partition of one spill, see {@link RunWriter}). A run is read once, by the merge unit of
 * its partition; the file is deleted when the last of its runs was read, so that disk space comes
 * back while the merge goes on (and in any case when the query ends).
 *
 * <p>Immutable and threadsafe; its {@link Reader} is not, and the file's count of unread runs is
 * atomic (runs of one file are read by different workers).
 */
final class SpillRun {

    private final SpillFile file;
    private final AtomicInteger unreadRunsOfFile;
    /** Pairs (from, to) of byte ranges, in the order they were written. */
    private final long[] ranges;
    private final long rows;

    SpillRun(SpillFile file, AtomicInteger unreadRunsOfFile, long[] ranges, long rows) {
        this.file = file;
        this.unreadRunsOfFile = unreadRunsOfFile;
        this.ranges = ranges;
        this.rows = rows;
    }

    long rows() {
        return rows;
    }

    /** A reader of the run's batches, from the first; once it returned null the run counts as read. */
    Reader reader() {
        return new Reader();
    }

    /** Reads a run's batches in order. Not threadsafe: one merge unit's. */
    final class Reader {

        private int range;
        private SpillReader current;
        private boolean done;

        /** The next batch of partial rows (dense), or null after the last. */
        Batch next() {
            while (!done) {
                if (current == null) {
                    if (range == ranges.length) {
                        done = true;
                        if (unreadRunsOfFile.decrementAndGet() == 0) {
                            file.delete();
                        }
                        return null;
                    }
                    current = file.reader(ranges[range], ranges[range + 1]);
                    range += 2;
                }
                Batch batch = current.next();
                if (batch != null) {
                    return batch;
                }
                current = null;
            }
            return null;
        }
    }
}
