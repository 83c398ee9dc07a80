package io.troupe.operators.table;

import io.troupe.operators.TroupeException;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TablesTest {

    private static final Schema ALL = Schema.of(
            Field.of("i", DataType.INT32),
            Field.of("l", DataType.INT64),
            Field.of("d", DataType.FLOAT64),
            Field.of("m", DataType.decimal(7, 2)),
            Field.of("day", DataType.DATE),
            Field.of("b", DataType.BOOLEAN),
            Field.of("s", DataType.VARCHAR));

    private static String message(Runnable r) {
        TroupeException e = assertThrows(TroupeException.class, r::run);
        assertEquals(TroupeException.Category.QUERY, e.category());
        return e.getMessage();
    }

    @Test
    void shouldBuildATableFromPrimitiveAndObjectArrays() {
        Table t = Tables.fromColumns("t", ALL,
                new int[] {1, 2, 3},
                new long[] {Long.MIN_VALUE, 0, Long.MAX_VALUE},
                new double[] {0.5, -1, 1e300},
                new BigDecimal[] {new BigDecimal("1.5"), null, new BigDecimal("-99999.99")},
                new LocalDate[] {LocalDate.of(2024, 2, 29), LocalDate.of(1, 1, 1), null},
                new boolean[] {true, false, true},
                new String[] {"a", null, "日本"});

        assertEquals(3, t.rowCount());
        assertEquals(List.of(List.of(1, Long.MIN_VALUE, 0.5, new BigDecimal("1.50"), LocalDate.of(2024, 2, 29), true, "a"),
                Arrays.asList(2, 0L, -1.0, null, LocalDate.of(1, 1, 1), false, null),
                Arrays.asList(3, Long.MAX_VALUE, 1e300, new BigDecimal("-99999.99"), null, true, "日本")),
                DelimitedFileLoaderTest.rowsOf(t));
    }

    @Test
    void shouldTakeBoxedArraysForNullableNumbersAndBooleans() {
        Schema schema = Schema.of(Field.of("i", DataType.INT32), Field.of("l", DataType.INT64),
                Field.of("d", DataType.FLOAT64), Field.of("b", DataType.BOOLEAN));
        Table t = Tables.fromColumns("t", schema, new Integer[] {null, 2}, new Long[] {3L, null},
                new Double[] {null, 4.0}, new Boolean[] {false, null});

        assertEquals(List.of(Arrays.asList(null, 3L, null, false), Arrays.asList(2, null, 4.0, null)),
                DelimitedFileLoaderTest.rowsOf(t));
    }

    @Test
    void shouldCutChunksLikeTableBuilder() {
        int[] ids = new int[10];
        String[] names = new String[10];
        for (int i = 0; i < 10; i++) {
            ids[i] = i;
            names[i] = i % 3 == 0 ? null : "v" + i;
        }
        Schema schema = Schema.of(Field.of("a", DataType.INT32), Field.of("s", DataType.VARCHAR));

        Table t = Tables.fromColumnsChunked("t", schema, 4, ids, names);
        TableBuilder b = new TableBuilder("t", schema, 4);
        for (int i = 0; i < 10; i++) {
            b.addRow(ids[i], names[i]);
        }
        Table expected = b.build();

        assertEquals(List.of(4, 4, 2), t.chunks().stream().map(Batch::size).toList());
        assertEquals(DelimitedFileLoaderTest.rowsOf(expected), DelimitedFileLoaderTest.rowsOf(t));
        assertEquals(0, Tables.fromColumns("e", schema, new int[0], new String[0]).chunks().size());
    }

    @Test
    void shouldNameTheMismatchedColumn() {
        Schema two = Schema.of(Field.of("a", DataType.INT32), Field.of("b", DataType.INT64).withNullable(false));
        assertEquals("table t: expected 2 columns (a int32, b int64), got 1",
                message(() -> Tables.fromColumns("t", two, (Object) new int[] {1})));
        assertEquals("table t: column 2 (b INT64 NOT NULL): expected long[] or Long[], got int[]",
                message(() -> Tables.fromColumns("t", two, new int[] {1}, new int[] {2})));
        assertEquals("table t: column 1 (a INT32): expected int[] or Integer[], got null",
                message(() -> Tables.fromColumns("t", two, null, new long[] {2})));
        assertEquals("table t: column 2 (b INT64 NOT NULL) has 2 values, column 1 (a INT32) has 1",
                message(() -> Tables.fromColumns("t", two, new int[] {1}, new long[] {2, 3})));
        assertEquals("table t: column 2 (b INT64 NOT NULL), row 2: NULL in a NOT NULL column",
                message(() -> Tables.fromColumns("t", two, new int[] {1, 2}, new Long[] {2L, null})));
    }

    @Test
    void shouldRejectDecimalsThatWouldRound() {
        Schema m = Schema.of(Field.of("m", DataType.decimal(7, 2)));
        assertEquals("table t: column 1 (m DECIMAL(7,2)), row 2: more than 2 fractional digits: 1.005",
                message(() -> Tables.fromColumns("t", m, (Object) new BigDecimal[] {BigDecimal.ONE,
                        new BigDecimal("1.005")})));
        assertEquals("table t: column 1 (m DECIMAL(7,2)), row 1: more than 5 integer digits: 100000",
                message(() -> Tables.fromColumns("t", m, (Object) new BigDecimal[] {new BigDecimal("100000")})));
        assertEquals(new BigDecimal("1.20"), DelimitedFileLoaderTest.rowsOf(
                Tables.fromColumns("t", m, (Object) new BigDecimal[] {new BigDecimal("1.2000")})).get(0).get(0));
    }
}
