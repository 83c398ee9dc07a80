package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Timestamps;

/**
 * A time from a count since 1970-01-01 00:00:00: {@code to_timestamp(seconds)} (a DOUBLE, rounded to the
 * microsecond half to even, as PostgreSQL does) to a TIMESTAMP_TZ, and DuckDB's {@code epoch_ms(ms)}, {@code
 * make_timestamp(us)} and {@code make_timestamptz(us)} (a BIGINT) to a TIMESTAMP or TIMESTAMP_TZ. NULL where
 * the count is; NaN, infinities and counts past the range of a timestamp fail as PostgreSQL says it.
 *
 * <p>Immutable and threadsafe.
 */
final class FromEpoch implements Expression {

    /** to_timestamp(DOUBLE): seconds. */
    static final Signature.Kernel SECONDS = (args, type, text) -> new FromEpoch(args.get(0), 0, type, text);

    /** The count of {@code microsPerUnit} microseconds: 1000 for epoch_ms, 1 for make_timestamp. */
    static Signature.Kernel kernel(long microsPerUnit) {
        return (args, type, text) -> new FromEpoch(args.get(0), microsPerUnit, type, text);
    }

    private final Expression count;
    /** Microseconds per unit of a BIGINT count; 0 for a DOUBLE of seconds. */
    private final long microsPerUnit;
    private final DataType type;
    private final String text;

    private FromEpoch(Expression count, long microsPerUnit, DataType type, String text) {
        this.count = count;
        this.microsPerUnit = microsPerUnit;
        this.type = type;
        this.text = text;
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
        ColumnVector v = count.evaluate(batch);
        long[] o = new long[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        long[] valid = v.validity();
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (Kernels.isValid(valid, r)) {
                o[r] = v instanceof DoubleVector d ? seconds(d.get(r)) : units(((LongVector) v).get(r));
            }
        }
        LongVector out = new LongVector(type, o);
        out.setValidity(Kernels.copy(v));
        return out;
    }

    private long seconds(double seconds) {
        if (Double.isNaN(seconds)) {
            throw new QueryDataException(QueryDataException.Kind.INVALID_ARGUMENT, "timestamp cannot be NaN in " + text);
        }
        double micros = Math.rint(seconds * Timestamps.MICROS_PER_SECOND);
        if (!(micros >= Long.MIN_VALUE && micros < Long.MAX_VALUE)) {
            throw outOfRange(Double.toString(seconds));
        }
        return (long) micros;
    }

    private long units(long count) {
        try {
            return Math.multiplyExact(count, microsPerUnit);
        } catch (ArithmeticException e) {
            throw outOfRange(Long.toString(count));
        }
    }

    private QueryDataException outOfRange(String value) {
        return new QueryDataException(QueryDataException.Kind.OVERFLOW,
                "timestamp out of range: \"" + value + "\" in " + text);
    }
}
