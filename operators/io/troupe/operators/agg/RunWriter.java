package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.memory.MemoryReservation;
import io.troupe.operators.spill.SpillFile;
import io.troupe.operators.spill.SpillWriter;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes partial rows of a hash aggregate into one spill file, each batch under the partition of
 * its rows (the parts of one cut, see {@link PartitionedGroups}), and makes one
 * {@link SpillRun} per partition that got rows: the byte ranges of its blocks. A worker's partial
 * writes its partitions one after the other, so each is one range; a partition cut again writes
 * each batch's rows to the parts they fall in, so a part is a range per batch.
 *
 * <p>Not threadsafe: owned by one worker while it spills.
 */
final class RunWriter {

    private final SpillFile file;
    private final SpillWriter writer;
    private final int level;
    private final int keyCount;
    private final long[][] ranges;
    private final int[] rangeCount;
    private final long[] rows;
    private final PartitionScatter scatter;

    RunWriter(SpillFile file, int level, int keyCount) {
        this.file = file;
        this.writer = file.writer();
        this.level = level;
        this.keyCount = keyCount;
        int partitions = PartitionedGroups.partitions(level);
        ranges = new long[partitions][];
        rangeCount = new int[partitions];
        rows = new long[partitions];
        scatter = new PartitionScatter(level);
    }

    /** The cut whose parts this file's runs are. */
    int level() {
        return level;
    }

    /** Appends {@code batch} (partial rows, all of partition {@code p}). */
    void write(int p, Batch batch) {
        if (batch.size() == 0) {
            return;
        }
        long from = writer.position();
        writer.write(batch);
        long to = writer.position();
        long[] r = ranges[p];
        int count = rangeCount[p];
        if (count > 0 && r[count - 1] == from) {
            r[count - 1] = to;
        } else {
            if (r == null || r.length == count) {
                r = ranges[p] = r == null ? new long[8] : Arrays.copyOf(r, 2 * count);
            }
            r[count] = from;
            r[count + 1] = to;
            rangeCount[p] = count + 2;
        }
        rows[p] += batch.size();
    }

    /**
     * Appends every group of {@code aggregation} as a partial row under its part: sorted by part
     * first, so that each part is one range, when the memory for the sort (5 bytes a group) can be
     * had; else a chunk of groups at a time, each chunk's rows under their parts.
     */
    void writeAll(Aggregation aggregation, AggregateMemory memory) {
        long sortBytes = PartitionedGroups.bytesFor(aggregation);
        if (memory.memory().tryGrow(sortBytes)) {
            try {
                PartitionedGroups.of(aggregation, level).writeAll(this, memory);
            } finally {
                memory.memory().shrink(sortBytes);
            }
            return;
        }
        int groups = aggregation.groupCount();
        for (int from = 0; from < groups; from += Aggregation.SPILL_CHUNK) {
            memory.ctx().checkCancelled();
            int n = Math.min(Aggregation.SPILL_CHUNK, groups - from);
            scatter(aggregation.partialRows(Inputs.range(from, n), n));
        }
    }

    /** Appends the live rows of {@code batch} (partial rows), each under the partition its keys fall in. */
    void scatter(Batch batch) {
        ColumnVector[] keys = new ColumnVector[keyCount];
        for (int c = 0; c < keyCount; c++) {
            keys[c] = batch.column(c);
        }
        scatter.sort(keys, batch);
        for (int p = 0; p < ranges.length; p++) {
            write(p, scatter.part(batch, p));
        }
    }

    /**
     * Finishes the file and counts it as spilled by {@code memory}'s operator: the runs of each
     * partition, null for a partition without rows. A file without rows is deleted at once.
     */
    SpillRun[] finish(MemoryReservation memory) {
        writer.finish();
        memory.spilled(file.length());
        SpillRun[] runs = new SpillRun[ranges.length];
        int nonEmpty = 0;
        for (long r : rows) {
            nonEmpty += r > 0 ? 1 : 0;
        }
        if (nonEmpty == 0) {
            file.delete();
            return runs;
        }
        AtomicInteger unread = new AtomicInteger(nonEmpty);
        for (int p = 0; p < runs.length; p++) {
            if (rows[p] > 0) {
                runs[p] = new SpillRun(file, unread, Arrays.copyOf(ranges[p], rangeCount[p]), rows[p]);
            }
        }
        return runs;
    }
}
