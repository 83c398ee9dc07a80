package io.troupe.oracle;

import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.operators.types.TypeId;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Generates a random "world": a few tables with random schemas over every Troupe type, NULLs,
 * duplicates, skewed keys (a few hot values take most rows), empty tables, and value ranges small
 * enough that the generated arithmetic cannot overflow (each column records its magnitude bound).
 *
 * <p>A world is a pure function of its seed. Not threadsafe (one generator, one Random).
 */
final class RandomTables {

    /** The column types tables draw from: every Troupe type, and a few decimal shapes. */
    static final List<DataType> TYPES = List.of(
            DataType.INT32, DataType.INT64, DataType.FLOAT64, DataType.INT16, DataType.INT8,
            DataType.decimal(9, 2), DataType.decimal(4, 1), DataType.decimal(18, 4), DataType.decimal(3, 3),
            DataType.DATE, DataType.BOOLEAN, DataType.VARCHAR, DataType.TIMESTAMP, DataType.TIMESTAMP_TZ, DataType.TIME,
            DataType.INTERVAL);

    /** Strings with the cases that break string kernels: empty, case, LIKE wildcards, multi-byte UTF-8. */
    private static final List<String> WORDS = List.of(
            "", "a", "A", "ab", "abc", "b", "ba", "x_y", "50%", "é", "été", "ü", "日本", "日本語", "zebra",
            "Zebra", " a", "a ", "hello world", "aaa", "ñu", "b%_", "Ab", "😀", "a😀b",
            // Long strings that share a prefix past any inline or key-prefix length.
            "a common prefix of thirty-two bytes: 1", "a common prefix of thirty-two bytes: 2",
            "a common prefix of thirty-two bytes:", "a common prefix of thirty-two bytes: é");
    private static final String ALPHABET = "abcAB_%xé日 😀";

    /** Where timestamps are drawn from, a whole range either side. */
    private static final LocalDateTime EPOCH_2000 = LocalDateTime.of(2000, 1, 1, 0, 0);

    /** Dates where calendars go wrong, mixed in with dense recent ranges. */
    private static final List<LocalDate> EDGE_DATES = List.of(
            LocalDate.of(1970, 1, 1), LocalDate.of(1969, 12, 31), LocalDate.of(1900, 3, 1),
            LocalDate.of(2000, 2, 29), LocalDate.of(2400, 2, 29), LocalDate.of(1, 1, 1),
            LocalDate.of(9999, 12, 31), LocalDate.of(1582, 10, 15), LocalDate.of(2024, 12, 31));

    /**
     * Times where calendars and clocks go wrong: just before 1970 (negative microseconds, which floor rather than
     * truncate), a leap day, the Gregorian switch, the first and last microsecond of the calendar's range.
     */
    private static final List<LocalDateTime> EDGE_TIMESTAMPS = List.of(
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000), LocalDateTime.of(1969, 12, 31, 0, 0, 0, 500_000_000),
            LocalDateTime.of(1970, 1, 1, 0, 0), LocalDateTime.of(1900, 3, 1, 12, 30),
            LocalDateTime.of(2000, 2, 29, 23, 59, 59), LocalDateTime.of(1582, 10, 15, 0, 0, 1), LocalDateTime.of(1, 1, 1, 0, 0),
            LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000), LocalDateTime.of(2024, 12, 31, 12, 0));
    private static final List<LocalTime> EDGE_TIMES = List.of(LocalTime.MIDNIGHT, LocalTime.of(23, 59, 59, 999_999_000),
            LocalTime.NOON, LocalTime.of(0, 0, 0, 1000));

    /**
     * One column: its name and type, and {@code bound}, the largest magnitude of its values
     * (numeric types only), so generated arithmetic can be kept from overflowing.
     */
    record ColumnSpec(String name, DataType type, boolean nullable, double bound) {
    }

    /** One table: its Troupe form (which DuckDB loads too) and its column specs. */
    record TableSpec(Table table, List<ColumnSpec> columns) {
        String name() {
            return table.name();
        }

        long rows() {
            return table.rowCount();
        }
    }

    /** A set of tables plans draw from. Immutable once built. */
    record World(long seed, List<TableSpec> tables) {
        Catalog catalog() {
            Catalog catalog = new Catalog();
            for (TableSpec t : tables) {
                catalog.register(t.table());
            }
            return catalog;
        }
    }

    private final Random rnd;

    private RandomTables(long seed) {
        this.rnd = new Random(seed);
    }

    /** The world of {@code seed}. */
    static World world(long seed) {
        return new RandomTables(seed).generate(seed);
    }

    private World generate(long seed) {
        // A world draws its columns from a subset of the types, so tables share types and join.
        List<DataType> pool = new ArrayList<>(TYPES);
        Collections.shuffle(pool, rnd);
        List<DataType> types = pool.subList(0, 4 + rnd.nextInt(pool.size() - 3));
        int tableCount = 3 + rnd.nextInt(4);
        List<TableSpec> tables = new ArrayList<>();
        for (int t = 0; t < tableCount; t++) {
            tables.add(table("t" + t, types));
        }
        return new World(seed, List.copyOf(tables));
    }

    private TableSpec table(String name, List<DataType> types) {
        int columnCount = 2 + rnd.nextInt(5);
        List<ColumnSpec> specs = new ArrayList<>();
        List<ValueSource> sources = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        for (int c = 0; c < columnCount; c++) {
            DataType type = types.get(rnd.nextInt(types.size()));
            boolean nullable = rnd.nextInt(10) < 7;
            ValueSource source = new ValueSource(type, nullable);
            String columnName = tag(type) + c;
            specs.add(new ColumnSpec(columnName, type, nullable, source.bound));
            sources.add(source);
            fields.add(new Field(null, columnName, type, nullable));
        }
        long rows = rowCount();
        int chunkRows = rows < 50 && rnd.nextBoolean() ? 1 + rnd.nextInt(3) : pick(7, 100, 1000, 16 * 1024);
        TableBuilder builder = new TableBuilder(name, new Schema(fields), chunkRows);
        Object[] row = new Object[columnCount];
        for (long r = 0; r < rows; r++) {
            for (int c = 0; c < columnCount; c++) {
                row[c] = sources.get(c).next();
            }
            builder.addRow(row);
        }
        return new TableSpec(builder.build(), List.copyOf(specs));
    }

    private long rowCount() {
        int p = rnd.nextInt(100);
        if (p < 8) {
            return 0;
        }
        if (p < 30) {
            return 1 + rnd.nextInt(10);
        }
        if (p < 85) {
            return 10 + rnd.nextInt(200);
        }
        if (p < 98) {
            return 200 + rnd.nextInt(2800);
        }
        return 10_000 + rnd.nextInt(20_000);
    }

    private static String tag(DataType type) {
        return switch (type.id()) {
            case INT32 -> "i";
            case INT64 -> "l";
            case FLOAT64 -> "f";
            case DECIMAL -> "d";
            case DATE -> "dt";
            case BOOLEAN -> "b";
            case VARCHAR -> "s";
            case TIMESTAMP -> "ts";
            case TIMESTAMP_TZ -> "tz";
            case TIME -> "tm";
            case INTERVAL -> "iv";
            case INT16 -> "si";
            case INT8 -> "ti";
            case FLOAT32 -> "r";
            case UUID -> "u";
            case BLOB -> "bl";
        };
    }

    private int pick(int... choices) {
        return choices[rnd.nextInt(choices.length)];
    }

    /**
     * The values of one column: a NULL fraction, a few hot values that take a share of the rows
     * (skew), and a uniform draw from a small or a wide domain for the rest.
     */
    private final class ValueSource {
        private final DataType type;
        private final double nullFraction;
        private final double hotFraction;
        private final List<Object> hot = new ArrayList<>();
        /** For numbers: the largest magnitude; the domain is [-range, range] (or [0, range]). */
        private final long range;
        private final boolean nonNegative;
        private double bound;

        ValueSource(DataType type, boolean nullable) {
            this.type = type;
            this.nullFraction = nullable ? new double[] {0.0, 0.05, 0.3, 0.9}[rnd.nextInt(4)] : 0.0;
            this.nonNegative = rnd.nextBoolean();
            this.range = switch (type.id()) {
                case INT32, INT16 -> pick(3, 10, 100, 1000);
                case INT8 -> pick(3, 10, 100);
                case INT64 -> new long[] {5, 100, 100_000, 1_000_000_000_000L}[rnd.nextInt(4)];
                case FLOAT64 -> pick(2, 50, 1000) * 4L;
                case DECIMAL -> Math.min(pow10(type.precision()) - 1,
                        new long[] {10, 1000, 1_000_000, Long.MAX_VALUE}[rnd.nextInt(4)]);
                case DATE -> pick(10, 60, 20000);
                // Seconds, in a day, a month or thirty years.
                case TIMESTAMP, TIMESTAMP_TZ -> pick(86_400, 2_678_400, 946_080_000);
                case TIME, INTERVAL -> 86_399;
                default -> 0;
            };
            this.bound = switch (type.id()) {
                case INT32, INT64, INT16, INT8 -> range;
                case FLOAT64 -> range / 4.0;
                case DECIMAL -> range / Math.pow(10, type.scale());
                default -> 0;
            };
            this.hotFraction = new double[] {0.0, 0.3, 0.7}[rnd.nextInt(3)];
            int hotCount = 1 + rnd.nextInt(3);
            for (int i = 0; i < hotCount; i++) {
                hot.add(fresh());
            }
            // Now and then the type's extremes, where sort keys, hashes and min/max go wrong; the
            // bound grows with them, which keeps this column out of arithmetic.
            Object extreme = rnd.nextInt(7) == 0 ? extreme() : null;
            if (extreme != null) {
                hot.add(extreme);
                bound = Math.max(bound, Math.abs(((Number) (extreme instanceof BigDecimal d ? d.doubleValue()
                        : extreme)).doubleValue()));
            }
        }

        private Object extreme() {
            return switch (type.id()) {
                case INT32 -> rnd.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE;
                case INT16 -> rnd.nextBoolean() ? Short.MIN_VALUE : Short.MAX_VALUE;
                case INT8 -> rnd.nextBoolean() ? Byte.MIN_VALUE : Byte.MAX_VALUE;
                case INT64 -> rnd.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
                case FLOAT64 -> new double[] {1e300, -1e300, Double.MIN_VALUE, -Double.MAX_VALUE}[rnd.nextInt(4)];
                case DECIMAL -> BigDecimal.valueOf(rnd.nextBoolean() ? pow10(type.precision()) - 1
                        : 1 - pow10(type.precision()), type.scale());
                default -> null;
            };
        }

        Object next() {
            double p = rnd.nextDouble();
            if (p < nullFraction) {
                return null;
            }
            if (rnd.nextDouble() < hotFraction) {
                return hot.get(rnd.nextInt(hot.size()));
            }
            return fresh();
        }

        private long draw() {
            long v = range <= 0 ? 0 : (long) (rnd.nextDouble() * (range + 1));
            v = Math.min(v, range);
            return nonNegative || rnd.nextBoolean() ? v : -v;
        }

        private Object fresh() {
            TypeId id = type.id();
            return switch (id) {
                case INT32 -> (int) draw();
                case INT64 -> draw();
                case FLOAT64 -> {
                    double v = draw() / 4.0;
                    // -0.0 equals 0.0 in SQL: in comparisons, joins, groups and DISTINCT.
                    yield v == 0.0 && rnd.nextBoolean() ? -0.0 : v;
                }
                case DECIMAL -> BigDecimal.valueOf(draw(), type.scale());
                case DATE -> rnd.nextInt(8) == 0 ? EDGE_DATES.get(rnd.nextInt(EDGE_DATES.size()))
                        : LocalDate.of(2000, 1, 1).plusDays(draw());
                case BOOLEAN -> rnd.nextBoolean();
                case VARCHAR -> rnd.nextInt(3) > 0 ? WORDS.get(rnd.nextInt(WORDS.size())) : randomString();
                case TIMESTAMP -> timestamp();
                case TIMESTAMP_TZ -> timestamp().toInstant(ZoneOffset.UTC);
                case TIME -> rnd.nextInt(8) == 0 ? EDGE_TIMES.get(rnd.nextInt(EDGE_TIMES.size()))
                        : LocalTime.ofSecondOfDay(Math.abs(draw())).plusNanos(fraction());
                case INTERVAL -> interval();
                case INT16 -> (short) draw();
                case INT8 -> (byte) draw();
                // Quarters are floats exactly while below 2^22.
                case FLOAT32 -> (float) ((draw() % (1 << 22)) / 4.0);
                // Drawn values repeat, for joins and groups; a scrambled multiplier spreads their bytes.
                case UUID -> new java.util.UUID(draw() * 0x9E3779B97F4A7C15L, draw());
                case BLOB -> java.math.BigInteger.valueOf(draw()).toByteArray();
            };
        }

        /**
         * An interval of months, days or a time, or all three, of either sign; now and then one of the same length
         * as another written otherwise ('1 month' and '30 days', '1 day' and '24 hours'), which compare equal.
         */
        private Interval interval() {
            return switch (rnd.nextInt(6)) {
                case 0 -> Interval.ofMonths((int) (draw() % 25));
                case 1 -> Interval.ofDays((int) (draw() % 40));
                case 2 -> Interval.ofMicros(draw() * 1_000_000L + fraction() / 1000);
                case 3 -> rnd.nextInt(4) == 0 ? new Interval((int) (draw() % 1200), 0, draw() * 7_919L)
                        : new Interval(rnd.nextInt(3) - 1, rnd.nextInt(61) - 30, draw() * 1_000_000L);
                case 4 -> rnd.nextBoolean() ? Interval.ofDays(30) : Interval.ofMonths(1);
                default -> rnd.nextBoolean() ? Interval.ofDays(1) : Interval.ofMicros(86_400_000_000L);
            };
        }

        private LocalDateTime timestamp() {
            return rnd.nextInt(8) == 0 ? EDGE_TIMESTAMPS.get(rnd.nextInt(EDGE_TIMESTAMPS.size()))
                    : EPOCH_2000.plusSeconds(draw()).plusNanos(fraction());
        }

        /** Nanoseconds of a second, whole microseconds: none, whole milliseconds, or any. */
        private long fraction() {
            return switch (rnd.nextInt(3)) {
                case 0 -> 0;
                case 1 -> rnd.nextInt(1000) * 1_000_000L;
                default -> rnd.nextInt(1_000_000) * 1_000L;
            };
        }

        private String randomString() {
            int n = rnd.nextInt(7);
            StringBuilder sb = new StringBuilder(rnd.nextInt(4) == 0 ? "the same sixteen" : "");
            int[] codePoints = ALPHABET.codePoints().toArray();
            for (int i = 0; i < n; i++) {
                sb.appendCodePoint(codePoints[rnd.nextInt(codePoints.length)]);
            }
            return sb.toString();
        }
    }

    static long pow10(int n) {
        long p = 1;
        for (int i = 0; i < n && p <= Long.MAX_VALUE / 10; i++) {
            p *= 10;
        }
        return p;
    }
}
