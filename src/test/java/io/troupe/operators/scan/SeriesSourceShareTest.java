package io.troupe.operators.scan;

import io.troupe.operators.exec.ShareReads;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * generate_series split between the nodes of a spread query: for 1 to 4 nodes, the nodes' shares
 * together make every value of the range exactly once, at either end of the long range too, and an
 * empty range makes nothing anywhere.
 */
class SeriesSourceShareTest {

    @Test
    void theSharesTogetherMakeEveryValueOnce() {
        long[][] ranges = {{1, 1000}, {-17, 17}, {0, 0}, {Long.MAX_VALUE - 20, Long.MAX_VALUE},
            {Long.MIN_VALUE, Long.MIN_VALUE + 20}, {Long.MAX_VALUE, Long.MAX_VALUE}};
        for (long[] range : ranges) {
            for (int batchSize : new int[] {1, 3, 7, 64, 2048}) {
                for (int nodes = 1; nodes <= 4; nodes++) {
                    List<Long> all = new ArrayList<>();
                    for (int n = 0; n < nodes; n++) {
                        all.addAll(ShareReads.read(series(range[0], range[1]), n, nodes, batchSize));
                    }
                    all.sort(null);
                    String where = "generate_series(" + range[0] + ", " + range[1] + ") in batches of " + batchSize
                            + " over " + nodes + " nodes";
                    assertEquals(range[1] - range[0] + 1, all.size(), where);
                    for (int i = 0; i < all.size(); i++) {
                        assertEquals(range[0] + i, all.get(i), where);
                    }
                }
            }
        }
    }

    @Test
    void anEmptyRangeMakesNothingOnAnyNode() {
        for (int nodes = 1; nodes <= 4; nodes++) {
            for (int n = 0; n < nodes; n++) {
                assertTrue(ShareReads.read(series(5, 4), n, nodes, 3).isEmpty());
                assertTrue(ShareReads.read(series(Long.MAX_VALUE, Long.MIN_VALUE), n, nodes, 3).isEmpty());
            }
        }
    }

    @Test
    void theWholeLongRangeStartsAtItsFirstValueOnEveryShare() {
        // 2^64 values: the batch count overflows a long in batches of one, so the first values are read, not all.
        for (int nodes = 1; nodes <= 4; nodes++) {
            for (int n = 0; n < nodes; n++) {
                SeriesSource all = series(Long.MIN_VALUE, Long.MAX_VALUE);
                assertEquals(List.of(Long.MIN_VALUE + n), ShareReads.first(all, n, nodes, 1), nodes + " nodes");
                assertEquals(Long.MIN_VALUE + 3L * n, ShareReads.first(all, n, nodes, 3).get(0), nodes + " nodes");
            }
        }
    }

    @Test
    void theNodesSplitTheBatchesEvenly() {
        // 100 batches of 10 over 3 nodes: 34, 33 and 33 batches, one morsel in three each.
        int[] expected = {340, 330, 330};
        for (int n = 0; n < 3; n++) {
            assertEquals(expected[n], ShareReads.read(series(1, 1000), n, 3, 10).size(), "node " + n);
        }
    }

    private static SeriesSource series(long start, long stop) {
        return SeriesSource.fixed(DataType.INT64, start, stop, 1, true);
    }
}
