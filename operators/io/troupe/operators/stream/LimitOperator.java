package io.troupe.operators.stream;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Operator;

import java.util.concurrent.atomic.AtomicLong;

/**
 * LIMIT count OFFSET offset. Each batch claims a range of row positions from one shared counter,
 * so several workers together pass exactly {@code count} rows; which rows is then up to arrival
 * order, as SQL allows without ORDER BY (sorted input is limited by a top-N sink instead).
 * Says "no more input" once the range is used up, so the producers stop early.
 *
 * <h2>Concurrency</h2> The counter is the only shared state; getAndAdd makes claims disjoint.
 */
public final class LimitOperator implements Operator {

    private final long count;
    private final long offset;
    private final boolean wholeInput;

    public LimitOperator(long count, long offset) {
        this(count, offset, true);
    }

    private LimitOperator(long count, long offset, boolean wholeInput) {
        this.count = count;
        this.offset = offset;
        this.wholeInput = wholeInput;
    }

    /**
     * A node's own limit in a query spread over nodes: it passes at most {@code rows} of this node's
     * rows, so that no more rows leave each node than the final LIMIT and OFFSET can use; the
     * coordinator limits what they gather.
     */
    public static LimitOperator perNode(long rows) {
        return new LimitOperator(rows, 0, false);
    }

    /** Its count is of every row: it cannot count on several nodes at once (a node's own limit can). */
    @Override
    public boolean needsWholeInput() {
        return wholeInput;
    }

    @Override
    public OperatorState open(ExecContext ctx) {
        AtomicLong position = new AtomicLong();
        // Saturates: LIMIT Long.MAX_VALUE OFFSET n means "all rows after n", not an overflow.
        long end = count > Long.MAX_VALUE - offset ? Long.MAX_VALUE : offset + count;
        return downstream -> new BatchConsumer() {
            @Override
            public boolean accept(Batch batch) {
                int size = batch.size();
                long start = position.getAndAdd(size);
                if (start >= end) {
                    return false;
                }
                // Clamped to the batch in long before narrowing: offset - start passes 2^31 whenever
                // the offset does, and an int cast of it would keep the wrong bits.
                int from = (int) Math.min(size, Math.max(0, offset - start));
                int to = (int) Math.min(size, end - start);
                if (from < to) {
                    Batch out = batch;
                    if (from > 0 || to < size) {
                        int[] selection = new int[to - from];
                        for (int i = from; i < to; i++) {
                            selection[i - from] = batch.row(i);
                        }
                        out = batch.withSelection(selection, to - from);
                    }
                    if (!downstream.accept(out)) {
                        return false;
                    }
                }
                return start + size < end;
            }

            @Override
            public void finish() {
                downstream.finish();
            }
        };
    }
}
