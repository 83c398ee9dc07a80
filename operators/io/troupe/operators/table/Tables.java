package io.troupe.operators.table;

import io.troupe.operators.TroupeException;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Int128;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Schema;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.Uuids;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds tables from whole Java columns, one array per column:
 *
 * <pre>{@code
 * Table t = Tables.fromColumns("t", schema,
 *         new int[] {1, 2, 3},
 *         new String[] {"a", null, "c"},
 *         new BigDecimal[] {new BigDecimal("1.50"), null, BigDecimal.ONE});
 * }</pre>
 *
 * <p>The array a column takes follows its type: INT32 {@code int[]} or {@code Integer[]}, INT64
 * {@code long[]} or {@code Long[]}, FLOAT64 {@code double[]} or {@code Double[]}, DECIMAL
 * {@code BigDecimal[]}, DATE {@code LocalDate[]}, BOOLEAN {@code boolean[]} or {@code Boolean[]},
 * VARCHAR {@code String[]}, TIMESTAMP {@code LocalDateTime[]}, TIMESTAMP_TZ {@code Instant[]}, TIME
 * {@code LocalTime[]}, INTERVAL {@code Interval[]}, UUID {@code UUID[]}, BLOB {@code byte[][]}. A null entry of an
 * object array is a NULL. A decimal must fit its
 * type without rounding. Any mismatch (column count, array type, lengths, a NULL in a NOT NULL
 * column, a decimal that does not fit) is a {@link TroupeException} (QUERY) naming the table, the
 * column and the row. The table is cut into chunks of {@link TableBuilder#DEFAULT_CHUNK_ROWS} rows
 * (or as asked), like {@link TableBuilder}; the arrays are copied.
 *
 * <p>Stateless and threadsafe (the arrays must not change during the call).
 */
public final class Tables {

    private Tables() {
    }

    /** A table of {@code columns} (one array per schema column) in chunks of the default size. */
    public static Table fromColumns(String name, Schema schema, Object... columns) {
        return fromColumnsChunked(name, schema, TableBuilder.DEFAULT_CHUNK_ROWS, columns);
    }

    /** A table of {@code columns} (one array per schema column) in chunks of {@code chunkRows} rows. */
    public static Table fromColumnsChunked(String name, Schema schema, int chunkRows, Object... columns) {
        if (chunkRows < 1) {
            throw new IllegalArgumentException("chunkRows must be positive: " + chunkRows);
        }
        if (columns.length != schema.size()) {
            throw error(name, "expected " + schema.size() + " columns (" + schema.describe() + "), got "
                    + columns.length);
        }
        int rows = 0;
        for (int c = 0; c < columns.length; c++) {
            Object column = columns[c];
            if (!accepts(schema.type(c), column)) {
                throw error(name, describe(schema, c) + ": expected " + expectedArrays(schema.type(c)) + ", got "
                        + (column == null ? "null" : column.getClass().getSimpleName()));
            }
            int length = Array.getLength(column);
            if (c == 0) {
                rows = length;
            } else if (length != rows) {
                throw error(name, describe(schema, c) + " has " + length + " values, " + describe(schema, 0)
                        + " has " + rows);
            }
            checkValues(name, schema, c, column);
        }
        List<Batch> chunks = new ArrayList<>();
        for (int from = 0; from < rows; from += chunkRows) {
            int to = Math.min(rows, from + chunkRows);
            ColumnVector[] vectors = new ColumnVector[columns.length];
            for (int c = 0; c < columns.length; c++) {
                vectors[c] = slice(schema.type(c), columns[c], from, to);
            }
            chunks.add(Batch.of(to - from, vectors));
        }
        return new Table(name, schema, chunks);
    }

    private static boolean accepts(DataType type, Object column) {
        return switch (type.id()) {
            case INT32 -> column instanceof int[] || column instanceof Integer[];
            case INT64 -> column instanceof long[] || column instanceof Long[];
            case FLOAT64 -> column instanceof double[] || column instanceof Double[];
            case DECIMAL -> column instanceof BigDecimal[];
            case DATE -> column instanceof LocalDate[];
            case BOOLEAN -> column instanceof boolean[] || column instanceof Boolean[];
            case VARCHAR -> column instanceof String[];
            case TIMESTAMP -> column instanceof LocalDateTime[];
            case TIMESTAMP_TZ -> column instanceof Instant[];
            case TIME -> column instanceof LocalTime[];
            case INTERVAL -> column instanceof Interval[];
            case INT16 -> column instanceof short[] || column instanceof Short[];
            case INT8 -> column instanceof byte[] || column instanceof Byte[];
            case FLOAT32 -> column instanceof float[] || column instanceof Float[];
            case UUID -> column instanceof java.util.UUID[];
            case BLOB -> column instanceof byte[][];
        };
    }

    /** The array types a column of {@code type} takes, as they read in messages. */
    private static String expectedArrays(DataType type) {
        return switch (type.id()) {
            case INT32 -> "int[] or Integer[]";
            case INT64 -> "long[] or Long[]";
            case FLOAT64 -> "double[] or Double[]";
            case DECIMAL -> "BigDecimal[]";
            case DATE -> "LocalDate[]";
            case BOOLEAN -> "boolean[] or Boolean[]";
            case VARCHAR -> "String[]";
            case TIMESTAMP -> "LocalDateTime[]";
            case TIMESTAMP_TZ -> "Instant[]";
            case TIME -> "LocalTime[]";
            case INTERVAL -> "Interval[]";
            case INT16 -> "short[] or Short[]";
            case INT8 -> "byte[] or Byte[]";
            case FLOAT32 -> "float[] or Float[]";
            case UUID -> "UUID[]";
            case BLOB -> "byte[][]";
        };
    }

    /** Rejects NULLs in a NOT NULL column and decimals that do not fit, before anything is built. */
    private static void checkValues(String name, Schema schema, int c, Object column) {
        if (!(column instanceof Object[] values)) {
            return;
        }
        Field f = schema.field(c);
        for (int r = 0; r < values.length; r++) {
            Object v = values[r];
            if (v == null) {
                if (!f.nullable()) {
                    throw error(name, describe(schema, c) + ", row " + (r + 1) + ": NULL in a NOT NULL column");
                }
            } else if (v instanceof BigDecimal d) {
                checkDecimal(name, schema, c, r, d);
            }
        }
    }

    private static void checkDecimal(String name, Schema schema, int c, int r, BigDecimal d) {
        DataType type = schema.type(c);
        BigDecimal exact;
        try {
            exact = d.setScale(type.scale());
        } catch (ArithmeticException e) {
            throw error(name, describe(schema, c) + ", row " + (r + 1) + ": more than " + type.scale()
                    + " fractional digits: " + d.toPlainString());
        }
        if (exact.precision() - exact.scale() > type.precision() - type.scale() && exact.signum() != 0) {
            throw error(name, describe(schema, c) + ", row " + (r + 1) + ": more than "
                    + (type.precision() - type.scale()) + " integer digits: " + d.toPlainString());
        }
    }

    private static ColumnVector slice(DataType type, Object column, int from, int to) {
        int n = to - from;
        if (column instanceof int[] a) {
            return new IntVector(type, Arrays.copyOfRange(a, from, to));
        }
        if (column instanceof long[] a) {
            return new LongVector(type, Arrays.copyOfRange(a, from, to));
        }
        if (column instanceof double[] a) {
            return new DoubleVector(type, Arrays.copyOfRange(a, from, to));
        }
        if (column instanceof short[] a) {
            int[] ints = new int[n];
            for (int i = 0; i < n; i++) {
                ints[i] = a[from + i];
            }
            return new IntVector(type, ints);
        }
        if (column instanceof byte[] a) {
            int[] ints = new int[n];
            for (int i = 0; i < n; i++) {
                ints[i] = a[from + i];
            }
            return new IntVector(type, ints);
        }
        if (column instanceof float[] a) {
            double[] doubles = new double[n];
            for (int i = 0; i < n; i++) {
                doubles[i] = a[from + i];
            }
            return new DoubleVector(type, doubles);
        }
        if (column instanceof boolean[] a) {
            byte[] bytes = new byte[n];
            for (int i = 0; i < n; i++) {
                bytes[i] = (byte) (a[from + i] ? 1 : 0);
            }
            return new BooleanVector(bytes);
        }
        Object[] values = (Object[]) column;
        ColumnVector out = ColumnVector.allocate(type, n);
        for (int i = 0; i < n; i++) {
            Object v = values[from + i];
            if (out instanceof StringVector s) {
                if (v == null) {
                    s.putNull(i);
                } else if (v instanceof byte[] b) {
                    s.put(i, b, 0, b.length);
                } else {
                    s.put(i, (String) v);
                }
            } else if (v == null) {
                out.setNull(i);
            } else {
                setValue(out, i, v);
            }
        }
        return out instanceof StringVector s ? s.seal() : out;
    }

    private static void setValue(ColumnVector out, int i, Object v) {
        if (out instanceof IntVector iv) {
            iv.set(i, v instanceof LocalDate d ? Dates.fromLocalDate(d) : ((Number) v).intValue());
        } else if (out instanceof LongVector lv) {
            lv.set(i, v instanceof BigDecimal d ? d.setScale(out.type().scale()).unscaledValue().longValueExact()
                    : v instanceof Long l ? l : Timestamps.valueOf(v, out.type().id()));
        } else if (out instanceof DoubleVector dv) {
            dv.set(i, ((Number) v).doubleValue());
        } else if (out instanceof Int128Vector iv && v instanceof BigDecimal d) {
            BigInteger unscaled = d.setScale(out.type().scale()).unscaledValue();
            iv.set(i, Int128.high(unscaled), unscaled.longValue());
        } else if (out instanceof Int128Vector iv && v instanceof java.util.UUID u) {
            iv.set(i, Uuids.high(u), Uuids.low(u));
        } else if (out instanceof Int128Vector iv) {
            Interval interval = (Interval) v;
            iv.set(i, interval.high(), interval.micros());
        } else {
            ((BooleanVector) out).set(i, (Boolean) v);
        }
    }

    private static String describe(Schema schema, int c) {
        Field f = schema.field(c);
        return "column " + (c + 1) + " (" + f.name() + " " + f.type() + (f.nullable() ? "" : " NOT NULL") + ")";
    }

    private static TroupeException error(String name, String detail) {
        return new TroupeException(TroupeException.Category.QUERY, "table " + name + ": " + detail);
    }
}
