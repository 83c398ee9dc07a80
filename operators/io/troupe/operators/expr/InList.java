package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.PhysicalType;
import io.troupe.operators.types.TypeId;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code value IN (c1, c2, ...)} over a list of literals: TRUE when the value equals one of them,
 * else NULL when the value or any candidate is NULL, else FALSE (SQL's rules).
 *
 * <p>The candidates are converted once, at bind time, to the value's own type: a candidate that
 * no value of that type can equal (2.5 for an INT32, 5000000000 for an INT32) is dropped, which
 * keeps the comparison exact without converting the column. When a FLOAT64 is involved all
 * compare as doubles, as {@code =} does. The set is sorted; lookups scan up to
 * {@value #LINEAR_SCAN_MAX} candidates and binary-search beyond.
 *
 * <p>A list with a non-literal candidate binds to {@code value = c1 OR value = c2 ...} instead.
 *
 * <p>Immutable and threadsafe.
 */
final class InList implements Expression {

    /** Up to this many candidates a linear scan beats a binary search's branches. */
    private static final int LINEAR_SCAN_MAX = 8;

    private final Expression value;
    /** Sorted, distinct candidates of the value's physical type; only one of these is set. */
    private final long[] longs;
    private final double[] doubles;
    private final byte[][] strings;
    private final boolean hasNull;
    private final String text;

    private InList(Expression value, long[] longs, double[] doubles, byte[][] strings, boolean hasNull, String text) {
        this.value = value;
        this.longs = longs;
        this.doubles = doubles;
        this.strings = strings;
        this.hasNull = hasNull;
        this.text = text;
    }

    static Expression bind(Expression value, List<Expression> candidates, String text) {
        DataType common = value.type();
        boolean literals = true;
        for (Expression c : candidates) {
            DataType next = TypeRules.comparisonType(common, c.type());
            if (next == null) {
                throw new ExpressionTypeException("cannot compare " + value.type() + " with " + c.type() + " in " + text);
            }
            common = next;
            literals &= c instanceof LiteralExpression;
        }
        // A value of two words (an interval, equal by its length; a decimal of more than 18 digits): each candidate
        // is a comparison.
        if (!literals || common.physical() == PhysicalType.INT128) {
            Expression any = null;
            for (Expression c : candidates) {
                Expression eq = Comparison.bind(Function.EQ, value, c, text);
                any = any == null ? eq : Conjunction.bind(Function.OR, any, eq, text);
            }
            return any;
        }
        // A FLOAT32 is looked up as the double it is exactly, among doubles.
        Expression v = common.id() == TypeId.FLOAT64 || common.id() == TypeId.FLOAT32
                ? CastExpression.of(value, DataType.FLOAT64, text)
                : common.id() == TypeId.TIMESTAMP ? CastExpression.of(value, common, text) : value;
        DataType target = v.type();
        boolean hasNull = false;
        List<Object> keys = new ArrayList<>();
        for (Expression c : candidates) {
            LiteralExpression lit = (LiteralExpression) c;
            if (lit.isNull()) {
                hasNull = true;
                continue;
            }
            Object key = key(lit, target);
            if (key != null) {
                keys.add(key);
            }
        }
        InList in;
        switch (target.id()) {
            case FLOAT64 -> {
                double[] d = keys.stream().mapToDouble(k -> (Double) k).filter(x -> !Double.isNaN(x)).map(x -> x + 0.0)
                        .sorted().distinct().toArray();
                in = new InList(v, null, d, null, hasNull, text);
            }
            case VARCHAR -> {
                byte[][] s = keys.stream().map(k -> (byte[]) k).sorted(Arrays::compareUnsigned).toArray(byte[][]::new);
                in = new InList(v, null, null, s, hasNull, text);
            }
            default -> {
                long[] l = keys.stream().mapToLong(k -> (Long) k).sorted().distinct().toArray();
                in = new InList(v, l, null, null, hasNull, text);
            }
        }
        return Functions.fold(in, value);
    }

    /** The candidate as the value type's physical key (Long, Double, byte[]), or null when no value can equal it. */
    private static Object key(LiteralExpression lit, DataType target) {
        switch (target.id()) {
            case FLOAT64 -> {
                Expression d = CastExpression.of(lit, DataType.FLOAT64, lit.text());
                return ((LiteralExpression) d).doubleValue();
            }
            case VARCHAR -> {
                return lit.utf8();
            }
            case BOOLEAN -> {
                return lit.longValue();
            }
            case DATE, TIMESTAMP, TIMESTAMP_TZ, TIME -> {
                LiteralExpression same = (LiteralExpression) CastExpression.of(lit, target, lit.text());
                return target.id() == TypeId.DATE ? (long) same.intValue() : same.longValue();
            }
            default -> {
                // Exact numerics: the candidate on the value's scale, if it lands on it and in range.
                BigDecimal exact = lit.type().isIntBacked() ? BigDecimal.valueOf(lit.intValue())
                        : BigDecimal.valueOf(lit.longValue(), TypeRules.scale(lit.type()));
                BigDecimal scaled = exact.movePointRight(TypeRules.scale(target));
                if (scaled.signum() != 0 && scaled.stripTrailingZeros().scale() > 0) {
                    return null;
                }
                try {
                    long k = scaled.setScale(0).longValueExact();
                    return target.isIntBacked() && k != (int) k ? null : k;
                } catch (ArithmeticException e) {
                    return null;
                }
            }
        }
    }

    @Override
    public DataType type() {
        return DataType.BOOLEAN;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        ColumnVector v = value.evaluate(batch);
        byte[] o = new byte[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        if (v instanceof IntVector iv) {
            int[] a = iv.values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = (byte) (contains(longs, a[r]) ? 1 : 0);
            }
        } else if (v instanceof LongVector lv) {
            long[] a = lv.values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = (byte) (contains(longs, a[r]) ? 1 : 0);
            }
        } else if (v instanceof BooleanVector bv) {
            byte[] a = bv.values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = (byte) (contains(longs, a[r]) ? 1 : 0);
            }
        } else if (v instanceof DoubleVector dv) {
            double[] a = dv.values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = (byte) (contains(doubles, a[r] + 0.0) ? 1 : 0);
            }
        } else {
            StringVector sv = (StringVector) v;
            byte[] data = sv.data();
            int[] offsets = sv.offsets();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = (byte) (contains(strings, data, offsets[r], offsets[r + 1]) ? 1 : 0);
            }
        }
        long[] valid = Kernels.copy(v);
        if (hasNull) {
            // No match and a NULL candidate: unknown whether the value equals the NULL.
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                if (o[r] == 0) {
                    valid = Kernels.setNull(valid, batch.rowCount(), r);
                }
            }
        }
        BooleanVector out = new BooleanVector(o);
        out.setValidity(valid);
        return out;
    }

    private static boolean contains(long[] set, long x) {
        if (set.length <= LINEAR_SCAN_MAX) {
            for (long s : set) {
                if (s == x) {
                    return true;
                }
            }
            return false;
        }
        return Arrays.binarySearch(set, x) >= 0;
    }

    private static boolean contains(double[] set, double x) {
        if (set.length <= LINEAR_SCAN_MAX) {
            for (double s : set) {
                if (s == x) {
                    return true;
                }
            }
            return false;
        }
        return Arrays.binarySearch(set, x) >= 0;
    }

    private static boolean contains(byte[][] set, byte[] data, int from, int to) {
        int lo = 0;
        int hi = set.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int cmp = Arrays.compareUnsigned(set[mid], 0, set[mid].length, data, from, to);
            if (cmp == 0) {
                return true;
            }
            if (cmp < 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return false;
    }
}
