package io.troupe.operators.table;

import io.troupe.operators.exec.ShareReads;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A table scan split between the nodes of a spread query: for 1 to 4 nodes, the nodes' shares together
 * read every row of every chunk exactly once, whether the table has fewer chunks than nodes, none, or many.
 */
class TableScanShareTest {

    @Test
    void theSharesTogetherReadEveryRowOnce() {
        for (int rows : new int[] {0, 1, 5, 7, 50, 1000}) {
            for (int chunkRows : new int[] {1, 7, 100}) {
                Table table = table(rows, chunkRows);
                for (int nodes = 1; nodes <= 4; nodes++) {
                    List<Long> all = new ArrayList<>();
                    for (int n = 0; n < nodes; n++) {
                        all.addAll(ShareReads.read(new TableScanSource(table, new int[] {1}), n, nodes, 1024));
                    }
                    all.sort(null);
                    String where = rows + " rows in chunks of " + chunkRows + " over " + nodes + " nodes";
                    assertEquals(rows, all.size(), where);
                    for (int i = 0; i < rows; i++) {
                        assertEquals(i, all.get(i), where);
                    }
                }
            }
        }
    }

    @Test
    void eachNodeReadsEveryNthChunk() {
        Table table = table(50, 7); // chunks of rows 0-6, 7-13, ... 49
        List<Long> second = ShareReads.read(new TableScanSource(table, new int[] {1}), 1, 3, 1024);
        second.sort(null);
        List<Long> expected = new ArrayList<>();
        for (long r = 0; r < 50; r++) {
            if (r / 7 % 3 == 1) {
                expected.add(r);
            }
        }
        assertEquals(expected, second);
    }

    /** {@code rows} rows (a label, then the row's number) in chunks of {@code chunkRows}. */
    private static Table table(int rows, int chunkRows) {
        TableBuilder builder = new TableBuilder("t", Schema.of(Field.of("label", DataType.VARCHAR),
                Field.of("n", DataType.INT64)), chunkRows);
        for (long r = 0; r < rows; r++) {
            builder.addRow("row " + r, r);
        }
        return builder.build();
    }
}
