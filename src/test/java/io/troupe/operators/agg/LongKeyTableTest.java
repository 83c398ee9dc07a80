package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.Validity;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LongKeyTable} through many growths, narrow (INT32) and wide (INT64) keys: every row gets
 * the group of its key, numbered in order of first appearance as a map numbers them, the NULL key
 * is one group, and the keys come back by group id. Batches of 1 to 5000 rows, under a selection,
 * so that a growth falls in the middle of a batch and one batch grows the table more than once.
 */
class LongKeyTableTest {

    @ParameterizedTest(name = "wide {0}")
    @ValueSource(booleans = {false, true})
    void shouldNumberEveryKeyInOrderOfFirstAppearanceThroughGrowths(boolean wide) {
        Random random = new Random(11);
        LongKeyTable table = new LongKeyTable(wide ? DataType.INT64 : DataType.INT32);
        Map<Long, Integer> expected = new HashMap<>();
        Integer nullGroup = null;
        int next = 0;
        int keyRange = 300_000;
        int rows = 0;
        while (rows < 600_000) {
            int n = 1 + random.nextInt(random.nextBoolean() ? 5000 : 64);
            int physical = n + 3;
            long[] values = new long[physical];
            long[] validity = Validity.allValid(physical);
            for (int r = 0; r < physical; r++) {
                values[r] = (random.nextInt(keyRange) - keyRange / 2) * (wide ? 0x1_0000_0001L : 1L);
                if (random.nextInt(1000) == 0) {
                    validity[r >>> 6] &= ~(1L << r);
                }
            }
            ColumnVector column = wide ? new LongVector(DataType.INT64, values) : narrowOf(values);
            column.setValidity(validity);
            int[] selection = new int[n];
            for (int i = 0; i < n; i++) {
                selection[i] = i + 3;
            }
            int[] gids = new int[n];
            Batch batch = Batch.of(physical, column).withSelection(selection, n);
            table.findOrInsert(new ColumnVector[] {column}, batch, gids);
            for (int i = 0; i < n; i++) {
                int row = selection[i];
                Integer want;
                if (column.isNull(row)) {
                    if (nullGroup == null) {
                        nullGroup = next++;
                    }
                    want = nullGroup;
                } else {
                    want = expected.get(values[row]);
                    if (want == null) {
                        want = next++;
                        expected.put(values[row], want);
                    }
                }
                assertEquals(want, gids[i], "row " + (rows + i) + ", key " + values[row]);
            }
            rows += n;
        }
        int groups = table.groupCount();
        assertTrue(groups > 200_000, "the keys took several growths: " + groups + " groups");
        ColumnVector keys = table.keys(0, groups)[0];
        for (Map.Entry<Long, Integer> e : expected.entrySet()) {
            long key = wide ? ((LongVector) keys).values()[e.getValue()] : ((IntVector) keys).values()[e.getValue()];
            assertEquals(e.getKey(), key, "key of group " + e.getValue());
        }
        assertTrue(nullGroup != null && keys.isNull(nullGroup), "one NULL group, its key NULL");
        assertEquals(expected.size() + 1, groups, "groups: the distinct keys and NULL");
    }

    private static IntVector narrowOf(long[] values) {
        int[] ints = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            ints[i] = (int) values[i];
        }
        return new IntVector(DataType.INT32, ints);
    }
}
