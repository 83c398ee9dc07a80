package io.troupe.operators.table;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.oracle.DuckDbOracle;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Table statistics against DuckDB's own counts over the same rows: exact NULL counts, least and greatest
 * values and row counts; distinct counts within the HyperLogLog's error (nearly exact when small);
 * uniqueness exact, a column one duplicate short of unique included; repeats of the row before.
 */
class TableStatisticsTest {

    @Test
    void shouldMatchDuckDbsCounts() throws Exception {
        Table table = table(new Random(3));
        TableStatistics stats = TableStatistics.of(table);
        try (DuckDbOracle duck = new DuckDbOracle()) {
            duck.load(List.of(table));
            assertEquals(((Number) duck.query("SELECT count(*) FROM t").rows().get(0).get(0)).longValue(),
                    stats.rowCount());
            for (int c = 0; c < table.schema().size(); c++) {
                String name = table.schema().field(c).name();
                List<Object> exact = duck.query("SELECT count(DISTINCT " + name + "), count(*) - count(" + name
                        + "), min(" + name + "), max(" + name + ") FROM t").rows().get(0);
                ColumnStatistics column = stats.column(c);
                long distinct = ((Number) exact.get(0)).longValue();
                assertTrue(Math.abs(column.distinct() - distinct) <= Math.max(2, 0.03 * distinct),
                        name + ": estimated " + column.distinct() + " distinct, DuckDB counts " + distinct);
                assertEquals(((Number) exact.get(1)).longValue(), column.nulls(), name);
                List<Object> range = new ArrayList<>();
                range.add(column.min());
                range.add(column.max());
                assertEquals(DuckDbOracle.normalise(List.of(exact.subList(2, 4))),
                        DuckDbOracle.normalise(List.of(range)), name);
            }
        }
        assertTrue(stats.column(0).unique(), "id");
        assertFalse(stats.column(1).unique(), "almost, one duplicate");
        assertFalse(stats.column(2).unique(), "wide");
        assertEquals(0, stats.column(0).repeats(), "id");
        assertEquals(90_000 / 99_999.0, stats.column(9).repeats(), 1e-4, "runs of 10 (chunks' first rows unpaired)");
        assertTrue(stats.column(7).repeats() < 0.01, "names in random order: " + stats.column(7).repeats());
    }

    @Test
    void shouldKeepStatisticsUntilTheTableIsReplaced() {
        Catalog catalog = new Catalog();
        Table table = table(new Random(4));
        catalog.register(table);
        TableStatistics first = catalog.statistics("t");
        assertSame(first, catalog.statistics("T"));
        catalog.register(Tables.fromColumns("t", Schema.of(Field.of("id", DataType.INT32)), (Object) new int[] {1, 1}));
        TableStatistics second = catalog.statistics("t");
        assertEquals(2, second.rowCount());
        assertEquals(1, second.column(0).distinct());
        assertFalse(second.column(0).unique());
    }

    @Test
    void shouldTellUniquenessOfIntegersSpanningTheWholeLong() {
        long[] extremes = {Long.MIN_VALUE, 0, Long.MAX_VALUE};
        Table table = Tables.fromColumns("t", Schema.of(new Field(null, "x", DataType.INT64, false)), (Object) extremes);
        assertTrue(TableStatistics.of(table).column(0).unique());
        long[] twice = {Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE};
        Table repeated = Tables.fromColumns("t", Schema.of(new Field(null, "x", DataType.INT64, false)), (Object) twice);
        assertFalse(TableStatistics.of(repeated).column(0).unique());
    }

    /** 100,000 rows of every type, with NULLs, small and large distinct counts. */
    private static Table table(Random random) {
        TableBuilder t = new TableBuilder("t", Schema.of(
                new Field(null, "id", DataType.INT64, false),
                new Field(null, "almost", DataType.INT32, false),
                Field.of("wide", DataType.INT32),
                Field.of("amount", DataType.decimal(12, 2)),
                Field.of("day", DataType.DATE),
                Field.of("score", DataType.FLOAT64),
                Field.of("flag", DataType.BOOLEAN),
                Field.of("name", DataType.VARCHAR),
                Field.of("never", DataType.INT32),
                new Field(null, "runs", DataType.INT32, false)));
        int rows = 100_000;
        for (int i = 0; i < rows; i++) {
            t.addRow((long) i * 7 - 300_000,
                    i == rows - 1 ? 0 : i,
                    random.nextInt(10) == 0 ? null : random.nextInt(60_000),
                    random.nextInt(10) == 0 ? null : BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2),
                    random.nextInt(10) == 0 ? null : LocalDate.of(2000, 1, 1).plusDays(random.nextInt(3_000)),
                    random.nextInt(10) == 0 ? null : random.nextGaussian(),
                    random.nextInt(10) == 0 ? null : random.nextBoolean(),
                    random.nextInt(10) == 0 ? null : "n" + random.nextInt(500),
                    null,
                    i / 10);
        }
        return t.build();
    }
}
