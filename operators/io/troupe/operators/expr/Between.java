package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.PhysicalType;
import io.troupe.operators.types.TypeId;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * {@code value BETWEEN low AND high}, which is {@code low <= value AND value <= high} with SQL's
 * NULL rules ({@code 5 BETWEEN 6 AND NULL} is FALSE, {@code 5 BETWEEN 1 AND NULL} is NULL).
 *
 * <p>The hot shape, an exact numeric or DATE value between two non-NULL literals, runs as one
 * fused loop: the bounds are moved onto the value's own grid at bind time (the low bound rounded
 * up, the high one down: an INT32 is BETWEEN 1.5 AND 3.7 exactly when it is BETWEEN 2 AND 3), so
 * the column is never converted. With a FLOAT64 involved the value compares as a double. As a
 * filter it writes the selection directly. Any other shape binds to the two comparisons and an AND.
 *
 * <p>Immutable and threadsafe.
 */
final class Between implements Expression {

    private final Expression value;
    private final long low;
    private final long high;
    private final double lowDouble;
    private final double highDouble;
    private final String text;

    private Between(Expression value, long low, long high, double lowDouble, double highDouble, String text) {
        this.value = value;
        this.low = low;
        this.high = high;
        this.lowDouble = lowDouble;
        this.highDouble = highDouble;
        this.text = text;
    }

    static Expression bind(Expression value, Expression low, Expression high, String text) {
        DataType withLow = TypeRules.comparisonType(value.type(), low.type());
        DataType withHigh = TypeRules.comparisonType(value.type(), high.type());
        if (withLow == null || withHigh == null) {
            throw new ExpressionTypeException("cannot compare " + value.type() + " with "
                    + (withLow == null ? low.type() : high.type()) + " in " + text);
        }
        if (low instanceof LiteralExpression lo && !lo.isNull() && high instanceof LiteralExpression hi && !hi.isNull()) {
            Expression fused = fused(value, lo, hi, withLow.id() == TypeId.FLOAT64 || withHigh.id() == TypeId.FLOAT64, text);
            if (fused != null) {
                return Functions.fold(fused, value);
            }
        }
        return Conjunction.bind(Function.AND, Comparison.bind(Function.GE, value, low, text),
                Comparison.bind(Function.LE, value, high, text), text);
    }

    private static Expression fused(Expression value, LiteralExpression lo, LiteralExpression hi, boolean asDouble,
                                    String text) {
        TypeId t = value.type().id();
        if (value.type().physical() == PhysicalType.INT128) {
            // Two words a value (an interval, a decimal of more than 18 digits): the comparisons take it.
            return null;
        }
        if (asDouble) {
            double l = ((LiteralExpression) CastExpression.of(lo, DataType.FLOAT64, text)).doubleValue();
            double h = ((LiteralExpression) CastExpression.of(hi, DataType.FLOAT64, text)).doubleValue();
            return new Between(CastExpression.of(value, DataType.FLOAT64, text), 0, 0, l, h, text);
        }
        if (t.isTemporal()) {
            if (!lo.type().equals(value.type()) || !hi.type().equals(value.type())) {
                return null;
            }
            return t == TypeId.DATE ? new Between(value, lo.intValue(), hi.intValue(), 0, 0, text)
                    : new Between(value, lo.longValue(), hi.longValue(), 0, 0, text);
        }
        if (TypeRules.isInteger(value.type()) || t == TypeId.DECIMAL) {
            int scale = TypeRules.scale(value.type());
            long l = onGrid(exact(lo), scale, RoundingMode.CEILING);
            long h = onGrid(exact(hi), scale, RoundingMode.FLOOR);
            return new Between(value, l, h, 0, 0, text);
        }
        return null;
    }

    private static BigDecimal exact(LiteralExpression lit) {
        return lit.type().isIntBacked() ? BigDecimal.valueOf(lit.intValue())
                : BigDecimal.valueOf(lit.longValue(), TypeRules.scale(lit.type()));
    }

    /** The bound as an unscaled long at {@code scale}, clamped to the long range (no value lies beyond it). */
    private static long onGrid(BigDecimal bound, int scale, RoundingMode mode) {
        BigDecimal scaled = bound.movePointRight(scale).setScale(0, mode);
        if (scaled.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            return Long.MAX_VALUE;
        }
        if (scaled.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0) {
            return Long.MIN_VALUE;
        }
        return scaled.longValueExact();
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
                o[r] = (byte) (a[r] >= low && a[r] <= high ? 1 : 0);
            }
        } else if (v instanceof LongVector lv) {
            long[] a = lv.values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = (byte) (a[r] >= low && a[r] <= high ? 1 : 0);
            }
        } else {
            double[] a = ((DoubleVector) v).values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = (byte) (a[r] >= lowDouble && a[r] <= highDouble ? 1 : 0);
            }
        }
        BooleanVector out = new BooleanVector(o);
        out.setValidity(Kernels.copy(v));
        return out;
    }

    @Override
    public int select(Batch batch, int[] out) {
        ColumnVector v = value.evaluate(batch);
        long[] valid = v.validity();
        int n = batch.size();
        int[] sel = batch.selection();
        int k = 0;
        if (v instanceof IntVector iv) {
            int[] a = iv.values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                out[k] = r;
                k += (a[r] >= low && a[r] <= high ? 1 : 0) & Kernels.bit(valid, r);
            }
        } else if (v instanceof LongVector lv) {
            long[] a = lv.values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                out[k] = r;
                k += (a[r] >= low && a[r] <= high ? 1 : 0) & Kernels.bit(valid, r);
            }
        } else {
            double[] a = ((DoubleVector) v).values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                out[k] = r;
                k += (a[r] >= lowDouble && a[r] <= highDouble ? 1 : 0) & Kernels.bit(valid, r);
            }
        }
        return k;
    }
}
