package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.DateField;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.TypeId;

/**
 * A field of a DATE, TIMESTAMP, TIMESTAMP_TZ (in UTC: SQL converts to the session's local time first) or
 * TIME, or of an INTERVAL ({@link DateField#ofInterval}): {@code date_part('dow', t)}, what SQL's {@code EXTRACT(DOW FROM t)} lowers to, BIGINT (EPOCH a
 * DOUBLE, with the fraction of a second), as DuckDB types them; and {@code year(d)}, {@code month(d)},
 * {@code day(d)}, INT32. Fields are {@link DateField}'s, computed on the primitives without allocating.
 *
 * <p>Immutable and threadsafe.
 */
final class DatePart implements Expression {

    private final DateField field;
    private final Expression value;
    private final DataType type;
    private final String text;

    private DatePart(DateField field, Expression value, DataType type, String text) {
        this.field = field;
        this.value = value;
        this.type = type;
        this.text = text;
    }

    /** {@code year(d)}, {@code month(d)}, {@code day(d)}: INT32 fields of a DATE or a TIMESTAMP. */
    static Expression bind(Function part, Expression value, String text) {
        TypeId t = value.type().id();
        if (t != TypeId.DATE && t != TypeId.TIMESTAMP && t != TypeId.TIMESTAMP_TZ) {
            throw new ExpressionTypeException(part.symbol() + " needs a DATE or TIMESTAMP argument, got "
                    + value.type().sqlName() + " in " + text);
        }
        DateField field = switch (part) {
            case EXTRACT_YEAR -> DateField.YEAR;
            case EXTRACT_MONTH -> DateField.MONTH;
            default -> DateField.DAY;
        };
        return Functions.fold(new DatePart(field, value, DataType.INT32, text), value);
    }

    /** {@code date_part(field, t)}: {@code field} a VARCHAR literal naming a {@link DateField}. */
    static Expression bindNamed(Expression field, Expression value, String text) {
        if (!(field instanceof LiteralExpression lit) || lit.type().id() != TypeId.VARCHAR || lit.isNull()) {
            throw new ExpressionTypeException("date_part needs a field name as its first argument (a VARCHAR literal "
                    + "such as 'year'), got " + field + " in " + text);
        }
        DateField f;
        try {
            f = DateField.named((String) lit.value());
        } catch (IllegalArgumentException e) {
            throw new ExpressionTypeException(e.getMessage() + " in " + text);
        }
        TypeId t = value.type().id();
        if (!t.isTemporal() && t != TypeId.INTERVAL) {
            throw new ExpressionTypeException("date_part needs a DATE, TIMESTAMP, TIME or INTERVAL value, got "
                    + value.type().sqlName() + " in " + text);
        }
        if (t == TypeId.TIME && !f.ofTimeOfDay() || t == TypeId.INTERVAL && !f.ofInterval()) {
            throw new ExpressionTypeException("unit \"" + lit.value() + "\" not supported for type "
                    + value.type().sqlName() + " in " + text);
        }
        DataType type = f == DateField.EPOCH ? DataType.FLOAT64 : DataType.INT64;
        return Functions.fold(new DatePart(f, value, type, text), value);
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        ColumnVector v = value.evaluate(batch);
        int rows = batch.rowCount();
        int n = batch.size();
        int[] sel = batch.selection();
        ColumnVector out;
        if (type.id() == TypeId.FLOAT64) {
            double[] o = new double[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = epoch(v, r);
            }
            out = new DoubleVector(o);
        } else if (type.id() == TypeId.INT32) {
            int[] o = new int[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = (int) part(v, r);
            }
            out = new IntVector(type, o);
        } else {
            long[] o = new long[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = part(v, r);
            }
            out = new LongVector(type, o);
        }
        out.setValidity(Kernels.copy(v));
        return out;
    }

    private long part(ColumnVector v, int r) {
        if (v instanceof IntVector days) {
            return field.of(days.get(r), 0);
        }
        if (v instanceof Int128Vector iv) {
            long high = iv.high(r);
            return field.ofInterval(Interval.months(high), Interval.days(high), iv.low(r));
        }
        long micros = ((LongVector) v).get(r);
        return v.type().id() == TypeId.TIME ? field.ofTime(micros) : field.ofTimestamp(micros);
    }

    private static double epoch(ColumnVector v, int r) {
        if (v instanceof IntVector days) {
            return days.get(r) * (double) Dates.SECONDS_PER_DAY;
        }
        if (v instanceof Int128Vector iv) {
            return Interval.of(iv.high(r), iv.low(r)).epoch();
        }
        return DateField.epoch(((LongVector) v).get(r));
    }
}
