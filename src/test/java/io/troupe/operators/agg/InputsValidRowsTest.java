package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.Validity;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link Inputs#validRows}: the dense positions of the valid live rows, with and without a
 * selection, for row counts on and off word boundaries, with bits past the batch's rows set.
 */
class InputsValidRowsTest {

    @Test
    void shouldListTheValidLiveRows() {
        Random random = new Random(7);
        for (int rows : new int[] {1, 5, 63, 64, 65, 128, 130, 2048}) {
            for (double density : new double[] {0.0, 1.0 / 7, 0.5, 1.0}) {
                LongVector v = new LongVector(DataType.INT64, rows + 70);
                long[] bits = Validity.allValid(rows + 70); // rows past the batch stay valid
                for (int r = 0; r < rows; r++) {
                    if (random.nextDouble() >= density) {
                        bits[r >>> 6] &= ~(1L << r);
                    }
                }
                v.setValidity(bits);
                Batch dense = Batch.of(rows, v);
                assertEquals(expected(v, dense), actual(v, dense), rows + " rows, density " + density);
                int[] sel = random.ints(0, rows).distinct().limit(Math.max(1, rows / 3)).sorted().toArray();
                Batch narrowed = dense.withSelection(sel, sel.length);
                assertEquals(expected(v, narrowed), actual(v, narrowed), rows + " rows, selected, density " + density);
            }
        }
        LongVector allValid = new LongVector(DataType.INT64, 3);
        assertEquals(List.of(0, 1, 2), actual(allValid, Batch.of(3, allValid)));
    }

    private static List<Integer> expected(LongVector v, Batch batch) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            if (!v.isNull(batch.row(i))) {
                out.add(i);
            }
        }
        return out;
    }

    private static List<Integer> actual(LongVector v, Batch batch) {
        int[] out = new int[batch.size()];
        int m = Inputs.validRows(v, batch, out);
        return Arrays.stream(out, 0, m).boxed().toList();
    }
}
