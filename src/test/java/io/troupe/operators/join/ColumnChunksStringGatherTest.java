package io.troupe.operators.join;

import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Gathering VARCHAR payloads by row id: strings of every length around the 16 bytes moved as two
 * words (0, 7, 8, 15, 16, 17, long, multi-byte), at the end of a chunk's bytes (exactly sized
 * arrays, where the words would pass the end), NULLs, and missing rows (-1) for outer joins.
 */
class ColumnChunksStringGatherTest {

    private static final List<String> VALUES = Arrays.asList("", "seven.7", "eight..8", "fifteen bytes.x",
            "sixteen bytes..x", "seventeen bytes.x", null, "ünïcödé wörds ąre lönger thän they look", "a",
            "the last string of the chunk, long");

    @Test
    void shouldGatherStringsOfEveryLength() {
        int shift = 2; // 4 rows per chunk
        List<ColumnVector> chunks = new ArrayList<>();
        for (int from = 0; from < VALUES.size(); from += 1 << shift) {
            List<String> part = VALUES.subList(from, Math.min(VALUES.size(), from + (1 << shift)));
            chunks.add(exactlySized(part));
        }
        ColumnChunks column = new ColumnChunks(DataType.VARCHAR, chunks.toArray(ColumnVector[]::new), shift);
        int[] ids = {9, 0, 1, -1, 2, 3, 4, 5, 6, 7, 8, 9, 3, 3, 0, 7};
        ColumnVector out = column.gather(ids, ids.length, true);
        assertTrue(out instanceof StringVector);
        for (int i = 0; i < ids.length; i++) {
            String expected = ids[i] < 0 ? null : VALUES.get(ids[i]);
            assertEquals(expected, out.getObject(i), "row " + i + " (id " + ids[i] + ")");
        }
        // Only the longest strings: more bytes than the chunks' mean gives room for up front.
        int[] longest = {7, 7, 9, 7, 9, 9, 7, 7, 7, 7};
        ColumnVector grown = column.gather(longest, longest.length, false);
        for (int i = 0; i < longest.length; i++) {
            assertEquals(VALUES.get(longest[i]), grown.getObject(i), "longest row " + i);
        }
        StringVector s = (StringVector) out;
        assertEquals(0, s.start(0) - s.offsets()[0]);
        for (int i = 0; i < ids.length; i++) {
            int expectedLength = ids[i] < 0 || VALUES.get(ids[i]) == null ? 0
                    : VALUES.get(ids[i]).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            assertEquals(expectedLength, s.length(i), "bytes of row " + i);
        }
    }

    /** A sealed vector whose byte array holds exactly its strings' bytes. */
    private static StringVector exactlySized(List<String> values) {
        VectorBuilder b = new VectorBuilder(DataType.VARCHAR, values.size());
        values.forEach(b::appendObject);
        StringVector built = (StringVector) b.build();
        int[] offsets = Arrays.copyOf(built.offsets(), values.size() + 1);
        StringVector exact = new StringVector(Arrays.copyOf(built.data(), offsets[values.size()]), offsets);
        exact.setValidity(built.validity());
        return exact;
    }
}
