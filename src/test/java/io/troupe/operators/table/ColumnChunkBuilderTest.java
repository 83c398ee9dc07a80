package io.troupe.operators.table;

import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ColumnChunkBuilderTest {

    @Test
    void shouldGrowTextPastTheFirstGuessAndSizeTheNextChunkFromIt() {
        ColumnChunkBuilder b = new ColumnChunkBuilder(DataType.VARCHAR, 100);
        byte[] word = "x".repeat(50).getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 100; i++) {
            if (i % 10 == 3) {
                b.appendNull();
            } else {
                b.appendBytes(word, 0, 10 + i % 40);
            }
        }
        assertTrue(b.isFull());
        StringVector first = (StringVector) b.finish();

        assertEquals(100, first.capacity());
        assertTrue(first.isNull(3));
        assertEquals(0, first.length(3));
        assertFalse(first.isNull(4));
        assertEquals("x".repeat(14), first.getString(4));
        int used = first.offsets()[100];
        assertTrue(first.data().length <= used + used / 4, "spare text kept: " + first.data().length);

        b.appendBytes(word, 0, 5);
        StringVector second = (StringVector) b.finish();
        assertEquals(1, second.capacity());
        assertEquals("xxxxx", second.getString(0));
        assertNull(second.validity());
        assertEquals(5, second.data().length);
    }

    @Test
    void shouldTrimAShortChunkAndItsValidity() {
        ColumnChunkBuilder b = new ColumnChunkBuilder(DataType.decimal(7, 2), 1000);
        for (int i = 0; i < 70; i++) {
            if (i == 65) {
                b.appendNull();
            } else {
                b.appendLong(i);
            }
        }
        ColumnVector v = b.finish();

        assertEquals(70, v.capacity());
        assertEquals(70, ((LongVector) v).values().length);
        assertEquals(2, v.validity().length);
        assertTrue(v.isNull(65));
        assertFalse(v.isNull(64));
        assertEquals(69L, ((LongVector) v).get(69));
        assertEquals(0, b.size());
    }
}
