package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.memory.MemoryReservation;
import io.troupe.operators.spill.SpillFile;
import io.troupe.operators.spill.SpillWriter;
import io.troupe.operators.types.DataType;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The memory and spill files of one execution of a hash aggregate: its one account (every
 * {@link Aggregation} of every worker reserves there), whether it may spill, and the runs its
 * workers' partials spilled, by partition, for the merge.
 *
 * <p>It may spill when it has group keys and {@code troupe.spill.enabled} is on. Once a worker
 * spilled, the aggregate is "spilled": every other partial spills too when its worker
 * finishes (or before the merge, when it finished first), so that the merge starts with its
 * memory free, and every merged part goes to a spill file.
 *
 * <p>Threadsafe: workers add runs under this object's monitor (once per spill, not per batch);
 * the merge reads them after the executor's barrier, which orders every add before it.
 */
final class AggregateMemory {

    private final ExecContext ctx;
    private final List<DataType> keyTypes;
    private final List<AggregateSpec> aggregates;
    private final AggregateStep step;
    private final int[] inputAt;
    private final MemoryReservation memory;
    private final String label;
    private final boolean maySpill;
    private final DataType[] outputTypes;
    private volatile boolean spilled;
    // Guarded by this.
    private final List<List<SpillRun>> runs = new ArrayList<>();
    private DataType[] partialTypes;
    private final List<ResultFile> resultFiles = new ArrayList<>();
    private final Deque<ResultFile> idleResultFiles = new ArrayDeque<>();

    /** A file of result parts and its one writer. */
    private record ResultFile(SpillFile file, SpillWriter writer) {
    }

    /**
     * @param aggregates the aggregates
     * @param inputAt    per aggregate, the input column of its partial state, or -1 (see {@link Aggregation})
     */
    AggregateMemory(ExecContext ctx, Object owner, String label, List<DataType> keyTypes,
                    List<AggregateSpec> aggregates, AggregateStep step, int[] inputAt) {
        this.ctx = ctx;
        this.keyTypes = keyTypes;
        this.aggregates = aggregates;
        this.step = step;
        this.inputAt = inputAt;
        this.label = label;
        this.memory = ctx.memory().reservation(owner, label + holding(aggregates, keyTypes.isEmpty()));
        this.maySpill = !keyTypes.isEmpty() && ctx.spill().enabled();
        List<DataType> output = new ArrayList<>(keyTypes);
        aggregates.forEach(a -> output.add(a.resultType()));
        this.outputTypes = step == AggregateStep.PARTIAL ? partialTypes() : output.toArray(new DataType[0]);
        for (int p = 0; p < PartitionedGroups.PARTITIONS; p++) {
            runs.add(new ArrayList<>());
        }
    }

    /**
     * For the budget's errors, which name the account: the aggregates whose states hold every value of their groups,
     * which are what outgrows a budget that the groups alone would not.
     */
    private static String holding(List<AggregateSpec> aggregates, boolean ungrouped) {
        List<String> holding = aggregates.stream().filter(a -> a.function().holistic()).map(AggregateSpec::text)
                .toList();
        return holding.isEmpty() ? "" : " (" + String.join(", ", holding) + " holding every value of "
                + (ungrouped ? "its group" : "their groups") + ")";
    }

    ExecContext ctx() {
        return ctx;
    }

    MemoryReservation memory() {
        return memory;
    }

    int keyCount() {
        return keyTypes.size();
    }

    /** A new, empty aggregation that reserves from this aggregate's account. */
    Aggregation newAggregation() {
        return new Aggregation(keyTypes, aggregates, step, inputAt, memory, maySpill);
    }

    /** The live rows of {@code batch} as partial rows of one group each ({@link Aggregation#singletonRows}). */
    Batch singletonRows(Batch batch, ColumnVector[] keys, ColumnVector[][] inputs) {
        return Aggregation.singletonRows(aggregates, inputAt, batch, keys, inputs);
    }

    /** Whether a refused reservation may spill; if not, the refusal is the query's error. */
    boolean maySpill() {
        return maySpill;
    }

    /** Whether some partial spilled. */
    boolean spilled() {
        return spilled;
    }

    /** A writer of partial rows into a new spill file, cut at {@code level}. */
    RunWriter newRunWriter(int level, String what) {
        return new RunWriter(ctx.spill().newFile(label + " " + what, partialTypes()), level, keyTypes.size());
    }

    /** The runs of a worker's spilled partial, by partition (null where a partition had no groups). */
    void addRuns(SpillRun[] partitionRuns) {
        synchronized (this) {
            for (int p = 0; p < partitionRuns.length; p++) {
                if (partitionRuns[p] != null) {
                    runs.get(p).add(partitionRuns[p]);
                }
            }
        }
        spilled = true;
    }

    /** The runs of partition {@code p} (after every worker finished). */
    synchronized List<SpillRun> runsOf(int p) {
        return List.copyOf(runs.get(p));
    }

    /**
     * Writes the output of {@code merged} (finished) to a result file and gives its memory back. A
     * unit takes a result file no other unit writes now, or makes one, and puts it back after: as
     * many files as workers merged at once, however many units there were.
     */
    SpilledResult spillResult(Aggregation merged) {
        ResultFile out;
        synchronized (this) {
            out = idleResultFiles.poll();
        }
        if (out == null) {
            SpillFile file = ctx.spill().newFile(label + " result", outputTypes);
            out = new ResultFile(file, file.writer());
            synchronized (this) {
                resultFiles.add(out);
            }
        }
        SpilledResult result = SpilledResult.write(merged, out.file, out.writer, ctx.batchSize(), ctx);
        synchronized (this) {
            idleResultFiles.push(out);
        }
        memory.spilled(result.bytes());
        merged.release();
        return result;
    }

    /** Finishes the result files, so that readers may read them (after the last merge unit). */
    synchronized void finishResults() {
        for (ResultFile out : resultFiles) {
            out.writer.finish();
        }
    }

    private synchronized DataType[] partialTypes() {
        if (partialTypes == null) {
            partialTypes = newAggregation().partialTypes(keyTypes);
        }
        return partialTypes;
    }
}
