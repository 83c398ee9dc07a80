package io.troupe.operators.sort;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Source;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sorting a run and merging runs, checked against a boxed reference comparator written
 * independently of the normalised keys (Java's own compareTo per type).
 */
class RunSorterTest {

    private static final DataType DEC = DataType.decimal(12, 3);
    private static final DataType[] TYPES = {DataType.INT32, DataType.INT64, DataType.FLOAT64, DEC,
        DataType.DATE, DataType.BOOLEAN, DataType.VARCHAR};
    private static final String[] STRINGS = {"", "a", "ab", "abcdefgh", "abcdefghi", "abcdefgz", "abcdefg",
        "prefix__1", "prefix__10", "prefix__2", "\u00e9", "z", "\u65e5\u672c", "\ud83d\ude00", "Ab", "\uffff"};
    private static final double[] DOUBLES = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
        -0.0, 0.0, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE, -Double.MIN_VALUE, 1.5, -1.5};

    @Test
    void shouldSortEveryTypeInEveryDirection() {
        Random random = new Random(42);
        for (DataType type : TYPES) {
            for (int n : new int[] {0, 1, 2, 24, 25, 300, 5000}) {
                List<Object> values = values(type, n, random);
                for (int dir = 0; dir < 4; dir++) {
                    OrderKey key = new OrderKey(new ColumnExpression(0, type, "k"), dir < 2, dir % 2 == 0);
                    SortSpec spec = new SortSpec(List.of(key), 1, "Sort k");
                    SortedRun run = SortedRun.sort(spec, List.of(batch(List.of(type), List.of(values))), Integer.MAX_VALUE);
                    assertSorted(List.of(values), List.of(key), run, type + " n=" + n + " " + key);
                }
            }
        }
    }

    @Test
    void shouldBreakTiesOnLaterKeys() {
        Random random = new Random(7);
        for (int n : new int[] {30, 4000}) {
            List<DataType> types = List.of(DataType.VARCHAR, DataType.INT32, DataType.FLOAT64, DataType.BOOLEAN);
            List<List<Object>> columns = new ArrayList<>();
            for (DataType t : types) {
                columns.add(values(t, n, random));
            }
            List<OrderKey> keys = List.of(
                    new OrderKey(new ColumnExpression(0, types.get(0), "s"), false, false),
                    new OrderKey(new ColumnExpression(1, types.get(1), "i"), true, true),
                    new OrderKey(new ColumnExpression(2, types.get(2), "d"), false, true),
                    new OrderKey(new ColumnExpression(3, types.get(3), "b"), true, false));
            SortSpec spec = new SortSpec(keys, 4, "Sort s, i, d, b");
            SortedRun run = SortedRun.sort(spec, List.of(batch(types, columns)), Integer.MAX_VALUE);
            assertSorted(columns, keys, run, "n=" + n);
        }
    }

    @Test
    void shouldSortStringsByEveryChunkAndByLength() {
        // Strings from {NUL, a, b} with long shared prefixes: ties in one 7-byte chunk after another,
        // strings that differ only in trailing NUL bytes, and prefixes past the chunked levels.
        Random random = new Random(9);
        String[] prefixes = {"", "a", "abababa", "abababab", "ab\u0000ab\u0000ab\u0000ab\u0000ab\u0000ab\u0000ab\u0000ab"};
        char[] alphabet = {'\u0000', 'a', 'b'};
        for (int n : new int[] {100, 5000}) {
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                StringBuilder sb = new StringBuilder(prefixes[random.nextInt(prefixes.length)]);
                int tail = random.nextInt(random.nextBoolean() ? 3 : 20);
                for (int j = 0; j < tail; j++) {
                    sb.append(alphabet[random.nextInt(alphabet.length)]);
                }
                values.add(random.nextInt(20) == 0 ? null : sb.toString());
            }
            List<Object> ids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ids.add(random.nextInt(3));
            }
            for (int dir = 0; dir < 4; dir++) {
                List<OrderKey> keys = List.of(
                        new OrderKey(new ColumnExpression(0, DataType.VARCHAR, "s"), dir < 2, dir % 2 == 0),
                        new OrderKey(new ColumnExpression(1, DataType.INT32, "x"), dir % 2 == 0, false));
                SortedRun run = SortedRun.sort(new SortSpec(keys, 2, "Sort s, x"),
                        List.of(batch(List.of(DataType.VARCHAR, DataType.INT32), List.of(values, ids))), Integer.MAX_VALUE);
                assertSorted(List.of(values, ids), keys, run, "n=" + n + " " + keys);
            }
        }
    }

    @Test
    void shouldTreatNegativeZeroAsZero() {
        List<Object> d = List.of(0.0, -0.0, 0.0, -0.0);
        List<Object> id = List.of(3, 2, 1, 0);
        List<OrderKey> keys = List.of(new OrderKey(new ColumnExpression(0, DataType.FLOAT64, "d"), true, false),
                new OrderKey(new ColumnExpression(1, DataType.INT32, "id"), true, false));
        SortedRun run = SortedRun.sort(new SortSpec(keys, 2, "Sort"),
                List.of(batch(List.of(DataType.FLOAT64, DataType.INT32), List.of(d, id))), Integer.MAX_VALUE);
        int[] ids = new int[4];
        for (int i = 0; i < 4; i++) {
            ids[i] = (Integer) run.column(1).getObject(run.row(i));
        }
        assertEquals("[0, 1, 2, 3]", Arrays.toString(ids));
    }

    @Test
    void shouldMergeRunsAsOneSortWouldAndStopAtALimit() {
        Random random = new Random(3);
        DataType type = DataType.INT64;
        OrderKey key = new OrderKey(new ColumnExpression(0, type, "k"), false, false);
        SortSpec spec = new SortSpec(List.of(key), 1, "Sort k");
        List<SortedRun> runs = new ArrayList<>();
        List<Object> all = new ArrayList<>();
        for (int r = 0; r < 5; r++) {
            List<Object> values = values(type, r == 2 ? 0 : 100 + 37 * r, random);
            all.addAll(values);
            if (!values.isEmpty()) {
                runs.add(SortedRun.sort(spec, List.of(batch(List.of(type), List.of(values))), Integer.MAX_VALUE));
            }
        }
        List<Object> expected = new ArrayList<>(all);
        expected.sort(reference(type, key));
        assertEquals(expected, read(spec, runs, 0, Long.MAX_VALUE, 7));
        assertEquals(expected.subList(95, 115), read(spec, runs, 95, 20, 7));
        assertEquals(expected.subList(all.size() - 3, all.size()), read(spec, runs, all.size() - 3, 20, 2));
        assertEquals(List.of(), read(spec, runs, all.size(), 20, 7));
        assertEquals(List.of(), read(spec, List.of(), 0, 20, 7));
    }

    /** Rows {@code offset..offset+count} of the merged runs, as the sorted source's single reader emits them. */
    private static List<Object> read(SortSpec spec, List<SortedRun> runs, long offset, long count, int batchSize) {
        ExecContext ctx = new ExecContext(1, batchSize);
        StateKey<SortedResult> key = new StateKey<>("sort", SortedResult.class);
        ctx.publish(key, new SortedResult(spec, runs.stream().map(WorkerRuns::inMemory).toList(), offset, count, null));
        Source.SourceReader reader = new SortedSource(key).open(ctx).reader();
        List<Object> out = new ArrayList<>();
        Batch b;
        while ((b = reader.next()) != null) {
            assertTrue(b.size() > 0 && b.size() <= batchSize, "a batch of " + b.size() + " rows");
            for (int i = 0; i < b.size(); i++) {
                out.add(b.column(0).getObject(b.row(i)));
            }
        }
        return out;
    }

    private static void assertSorted(List<List<Object>> columns, List<OrderKey> keys, SortedRun run, String what) {
        int n = columns.get(0).size();
        assertEquals(n, run.size(), what);
        boolean[] seen = new boolean[n];
        for (int i = 0; i < n; i++) {
            int r = run.row(i);
            assertTrue(!seen[r], what + ": row " + r + " twice");
            seen[r] = true;
        }
        for (int i = 1; i < n; i++) {
            int a = run.row(i - 1);
            int b = run.row(i);
            for (int k = 0; k < keys.size(); k++) {
                Object va = columns.get(k).get(a);
                Object vb = columns.get(k).get(b);
                int c = reference(keys.get(k).expression().type(), keys.get(k)).compare(va, vb);
                assertTrue(c <= 0, what + ": position " + i + ": " + va + " before " + vb);
                if (c < 0) {
                    break;
                }
            }
        }
    }

    /** An independent comparator: NULL placement, then Java's compareTo (UTF-8 bytes for strings). */
    @SuppressWarnings("unchecked")
    private static Comparator<Object> reference(DataType type, OrderKey key) {
        Comparator<Object> values;
        if (type.equals(DataType.VARCHAR)) {
            values = (a, b) -> Arrays.compareUnsigned(((String) a).getBytes(StandardCharsets.UTF_8),
                    ((String) b).getBytes(StandardCharsets.UTF_8));
        } else if (type.equals(DataType.FLOAT64)) {
            values = (a, b) -> Double.compare((Double) a + 0.0, (Double) b + 0.0);
        } else {
            values = (a, b) -> ((Comparable<Object>) a).compareTo(b);
        }
        Comparator<Object> directed = key.ascending() ? values : values.reversed();
        return (a, b) -> {
            if (a == null || b == null) {
                if (a == b) {
                    return 0;
                }
                return (a == null) == key.nullsFirst() ? -1 : 1;
            }
            return directed.compare(a, b);
        };
    }

    static List<Object> values(DataType type, int n, Random random) {
        List<Object> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(random.nextInt(7) == 0 ? null : value(type, random));
        }
        return out;
    }

    private static Object value(DataType type, Random random) {
        boolean extreme = random.nextInt(10) == 0;
        switch (type.id()) {
            case INT32:
                return extreme ? (random.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE) : random.nextInt(21) - 10;
            case INT64:
                return extreme ? (random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE)
                        : (random.nextBoolean() ? random.nextLong() : (long) random.nextInt(50) - 25);
            case FLOAT64:
                return extreme ? DOUBLES[random.nextInt(DOUBLES.length)] : (random.nextInt(2000) - 1000) / 8.0;
            case DECIMAL:
                return BigDecimal.valueOf(extreme ? (random.nextBoolean() ? 999_999_999_999L : -999_999_999_999L)
                        : random.nextInt(20001) - 10000, 3);
            case DATE:
                // From year 53 on: DuckDB's JDBC driver reads dates before year 1 back off by an era.
                return LocalDate.ofEpochDay(extreme ? random.nextInt(1_700_000) - 700_000 : random.nextInt(60) - 30);
            case BOOLEAN:
                return random.nextBoolean();
            default:
                return STRINGS[random.nextInt(STRINGS.length)];
        }
    }

    private static Batch batch(List<DataType> types, List<List<Object>> columns) {
        int n = columns.get(0).size();
        ColumnVector[] vectors = new ColumnVector[types.size()];
        for (int c = 0; c < vectors.length; c++) {
            VectorBuilder b = new VectorBuilder(types.get(c), Math.max(1, n));
            for (Object v : columns.get(c)) {
                b.appendObject(v);
            }
            vectors[c] = b.build();
        }
        return Batch.of(n, vectors);
    }
}
