package io.troupe.operators.table;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.VectorHash;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A table's parts, as nodes of a cluster keep them: together every row once, equal keys in one part. */
class TablePartTest {

    private static Table table() {
        TableBuilder b = new TableBuilder("t", io.troupe.operators.types.Schema.parse("id INT64 NOT NULL, k INT32"));
        for (long i = 0; i < 10_000; i++) {
            b.addRow(i, i % 17 == 0 ? null : (int) (i % 101));
        }
        return b.build();
    }

    @Test
    void thePartsHoldEveryRowOnceRoundRobinOrByHash() {
        Table whole = table();
        for (String column : new String[] {null, "k"}) {
            for (int count = 1; count <= 4; count++) {
                List<Object> ids = new ArrayList<>();
                for (int index = 0; index < count; index++) {
                    Table part = whole.part(new Table.Part(index, count, column));
                    assertEquals(new Table.Part(index, count, column), part.part());
                    for (Batch chunk : part.chunks()) {
                        for (int r = 0; r < chunk.size(); r++) {
                            Object[] row = chunk.rowObjects(r);
                            ids.add(row[0]);
                            if (column != null && row[1] != null) {
                                assertEquals(index, VectorHash.part(VectorHash.hashAt(chunk.column(1), chunk.row(r)),
                                        count), "key " + row[1] + " in its hash's part");
                            }
                        }
                    }
                }
                Collections.sort(ids, (a, b) -> Long.compare((Long) a, (Long) b));
                assertEquals(10_000, ids.size(), column + " of " + count);
                for (int i = 0; i < ids.size(); i++) {
                    assertEquals((long) i, ids.get(i));
                }
            }
        }
    }

    @Test
    void aBadColumnOrAPartOfAPartIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> table().part(new Table.Part(0, 2, "nope")));
        assertTrue(e.getMessage().contains("no column nope"), e.getMessage());
        Table part = table().part(new Table.Part(0, 2, null));
        assertThrows(IllegalArgumentException.class, () -> part.part(new Table.Part(0, 2, null)));
        assertThrows(IllegalArgumentException.class, () -> new Table.Part(2, 2, null));
    }
}
