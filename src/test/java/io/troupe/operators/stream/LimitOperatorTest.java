package io.troupe.operators.stream;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * LIMIT n OFFSET m without a sort, with m at and past 2^31, passes exactly rows
 * m..m+n-1 of its input. The input is every row position 0, 1, 2, ... in order, in batches of
 * {@value #BATCH} rows; the billions before the window share one batch of -1s (cheap, and wrong
 * wherever a row of it comes out), the batches near the window hold their own positions, so the
 * expected output is the positions themselves.
 */
class LimitOperatorTest {

    private static final int BATCH = 2048;
    private static final long COUNT = 5000;

    @ParameterizedTest(name = "offset {0}")
    @ValueSource(longs = {(1L << 31) - 7, 1L << 31, (1L << 31) + 5, (1L << 32) + 3, 3L * (1L << 31) + 1000})
    void shouldPassExactlyTheRowsAfterAnOffsetPastTwoToThe31(long offset) {
        List<Long> out = new ArrayList<>();
        BatchConsumer limit = new LimitOperator(COUNT, offset).open(new ExecContext(1, BATCH)).bind(collect(out));
        Batch skipped = positions(-1, BATCH, true);
        long total = offset + COUNT + 3L * BATCH;
        boolean wanted = true;
        for (long position = 0; position < total && wanted; position += BATCH) {
            int rows = (int) Math.min(BATCH, total - position);
            boolean nearWindow = position + 2L * BATCH > offset;
            wanted = limit.accept(nearWindow || rows < BATCH ? positions(position, rows, false) : skipped);
        }
        limit.finish();
        assertEquals(LongStream.range(offset, offset + COUNT).boxed().toList(), out);
    }

    /** {@code rows} rows of one INT64 column: positions from {@code first}, or all -1 when {@code filler}. */
    private static Batch positions(long first, int rows, boolean filler) {
        long[] values = new long[rows];
        for (int i = 0; i < rows; i++) {
            values[i] = filler ? -1 : first + i;
        }
        return Batch.of(rows, new LongVector(DataType.INT64, values));
    }

    private static BatchConsumer collect(List<Long> out) {
        return new BatchConsumer() {
            @Override
            public boolean accept(Batch batch) {
                LongVector column = (LongVector) batch.column(0);
                for (int i = 0; i < batch.size(); i++) {
                    out.add(column.get(batch.row(i)));
                }
                return true;
            }

            @Override
            public void finish() {
            }
        };
    }
}
