package io.troupe.operators.join;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.PipelineRun.Step;
import io.troupe.operators.exec.Source;
import io.troupe.operators.spill.SpillFile;
import io.troupe.operators.spill.SpillReader;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * One participant's share of a hash join's spilled partitions: it claims a partition, loads its build
 * rows into a table of its own, probes that table with the partition's probe rows, pushing the joined
 * rows into its branch's chain, emits the partition's unmatched build rows (RIGHT, FULL), gives the
 * table's memory back and deletes the partition's files; then claims the next. One spill-file batch
 * per {@link #push}, so the driver sees a cancel between batches.
 *
 * <pre>
 *   IDLE      claim a partition; none now while another participant still probes or joins one
 *             that may split: BLOCKED; none left anywhere: DONE
 *   BUILDING  one build batch per push into the partition's table, which spills to partitions a
 *             level deeper if it does not fit (see {@link BuildWorker}); after the last, allocate,
 *             insert every chunk and bind the partition's prober
 *   PROBING   one probe batch per push; after the last, the prober finishes (unmatched build rows),
 *             a table that spilled queues its own partitions, and the partition completes
 * </pre>
 * A partition that needs more memory than the account gives it, and cannot split (too skewed), fails
 * its load with a {@link JoinOverBudgetException} before it emitted a row: it is queued again, to be
 * joined alone once the others gave their memory back ({@link PartitionQueue}), or, when it was
 * alone already, the query fails with that error.
 *
 * <p>Not threadsafe: owned by one participant.
 */
final class PartitionJoiner implements Source.PushingReader {

    private enum Phase { IDLE, BUILDING, PROBING }

    private final HashJoinTable join;
    private final HashJoinProbeOperator probe;
    private final ExecContext ctx;
    private final PartitionQueue queue;
    private Phase phase = Phase.IDLE;
    private PartitionTask task;
    private HashJoinTable table;
    private BuildWorker builder;
    private BatchConsumer prober;
    private final Deque<SpillFile> files = new ArrayDeque<>();
    private SpillReader reader;

    PartitionJoiner(HashJoinTable join, HashJoinProbeOperator probe, ExecContext ctx) {
        this.join = join;
        this.probe = probe;
        this.ctx = ctx;
        this.queue = join.partitions();
    }

    @Override
    public Step push(BatchConsumer chain) {
        ctx.checkCancelled();
        if (phase == Phase.IDLE) {
            return claim();
        }
        if (phase == Phase.BUILDING) {
            try {
                build(chain);
            } catch (JoinOverBudgetException e) {
                return tryAgainLater(e);
            }
            return Step.RAN;
        }
        return probe();
    }

    private Step claim() {
        task = queue.claim();
        if (task == null) {
            return queue.drained() ? Step.DONE : Step.BLOCKED;
        }
        table = join.forPartition(task.name(), task.level(), task.unsplittable(), task.buildRows(), task.exclusive());
        builder = new BuildWorker(table, table.fileKeys());
        files.addAll(task.build());
        phase = Phase.BUILDING;
        return Step.RAN;
    }

    /** One build batch; after the last, the table is made ready and the prober bound over {@code chain}. */
    private void build(BatchConsumer chain) {
        Batch batch = nextBatch();
        if (batch != null) {
            builder.accept(batch);
            return;
        }
        builder.finish();
        table.allocate();
        while (table.insertNextChunk()) {
            ctx.checkCancelled();
        }
        table.startProbing();
        prober = probe.partitionState(table, ctx).bind(new Unfinished(chain));
        task.build().forEach(SpillFile::delete);
        files.addAll(task.probe());
        phase = Phase.PROBING;
    }

    /** One probe batch; after the last, the partition completes. */
    private Step probe() {
        Batch batch = nextBatch();
        if (batch != null) {
            if (prober.accept(batch)) {
                return Step.RAN;
            }
            // The operators above want no more rows: nor do the other participants' (they share them).
            prober.finish();
            table.discard();
            task.probe().forEach(SpillFile::delete);
            queue.complete(task);
            reset();
            return Step.DONE;
        }
        prober.finish();
        if (table.spilled()) {
            queue.add(PartitionTask.of(table, probe.type()));
        }
        table.release();
        task.probe().forEach(SpillFile::delete);
        queue.complete(task);
        reset();
        return Step.RAN;
    }

    /** The partition did not fit: drops what was done and queues it again, or fails when it was alone already. */
    private Step tryAgainLater(JoinOverBudgetException e) {
        builder.abandon();
        table.discard();
        files.clear();
        reader = null;
        PartitionTask failed = task;
        reset();
        if (!queue.retry(failed)) {
            throw e;
        }
        return Step.BLOCKED;
    }

    private void reset() {
        phase = Phase.IDLE;
        task = null;
        table = null;
        builder = null;
        prober = null;
    }

    private Batch nextBatch() {
        while (true) {
            if (reader != null) {
                Batch batch = reader.next();
                if (batch != null) {
                    return batch;
                }
                reader = null;
            }
            SpillFile file = files.poll();
            if (file == null) {
                return null;
            }
            reader = file.reader();
        }
    }

    /** The branch's chain, which the driver finishes once the branch ends, not each partition's prober. */
    private record Unfinished(BatchConsumer chain) implements BatchConsumer {
        @Override
        public boolean accept(Batch batch) {
            return chain.accept(batch);
        }

        @Override
        public void finish() {
            // The chain ends with the branch (WorkerTask), after the last partition.
        }
    }
}
