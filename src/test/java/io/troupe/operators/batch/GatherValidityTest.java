package io.troupe.operators.batch;

import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ColumnVector#gather} of every vector class carries each row's NULL with it (rows
 * repeated, out of order, across word boundaries), keeps no bitmap when the gathered rows are
 * all valid, and {@link ColumnVector#withValidity} shares the values under a new bitmap.
 */
class GatherValidityTest {

    @Test
    void shouldGatherValuesAndNulls() {
        Random random = new Random(11);
        int rows = 200;
        List<ColumnVector> vectors = List.of(new IntVector(DataType.INT32, rows),
                new LongVector(DataType.decimal(7, 2), rows), new DoubleVector(rows), new BooleanVector(rows),
                strings(rows));
        for (ColumnVector v : vectors) {
            for (int r = 0; r < rows; r++) {
                if (v instanceof IntVector x) {
                    x.set(r, r);
                } else if (v instanceof LongVector x) {
                    x.set(r, r * 3L);
                } else if (v instanceof DoubleVector x) {
                    x.values()[r] = r / 2.0;
                } else if (v instanceof BooleanVector x) {
                    x.values()[r] = (byte) (r & 1);
                }
                if (random.nextInt(4) == 0) {
                    v.setNull(r);
                }
            }
            int[] picks = random.ints(150, 0, rows).toArray();
            ColumnVector out = v.gather(picks, picks.length);
            for (int i = 0; i < picks.length; i++) {
                assertEquals(v.getObject(picks[i]), out.getObject(i), v.type() + " row " + i);
            }
            int[] valid = validRows(v);
            ColumnVector allValid = v.gather(valid, valid.length);
            assertNull(allValid.validity(), v.type() + ": no NULL gathered, no bitmap");
            assertEquals(v.getObject(valid[valid.length - 1]), allValid.getObject(valid.length - 1));
            ColumnVector shared = v.withValidity(null);
            assertFalse(shared.mayHaveNulls());
            assertEquals(v.getObject(valid[0]), shared.getObject(valid[0]));
            assertTrue(v.mayHaveNulls(), "the original keeps its bitmap");
        }
    }

    @Test
    void shouldShareTheValuesOfAnUnsealedStringVector() {
        StringVector s = new StringVector(5);
        s.put(0, "a");
        s.put(2, "ccc");
        StringVector shared = s.withValidity(new long[] {0b11101});
        List<Object> values = new ArrayList<>();
        for (int r = 0; r < 5; r++) {
            values.add(shared.getObject(r));
        }
        assertEquals(java.util.Arrays.asList("a", null, "ccc", "", ""), values, "NULL at row 1 only");
        s.put(3, "dd");
        assertEquals("dd", s.getObject(3), "the original is still written in order");
    }

    private static StringVector strings(int rows) {
        StringVector s = new StringVector(rows);
        for (int r = 0; r < rows; r++) {
            s.put(r, "v" + r);
        }
        return s.seal();
    }

    private static int[] validRows(ColumnVector v) {
        List<Integer> out = new ArrayList<>();
        for (int r = 0; r < v.capacity(); r++) {
            if (!v.isNull(r)) {
                out.add(r);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }
}
