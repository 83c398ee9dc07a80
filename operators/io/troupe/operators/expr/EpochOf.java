package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;

/**
 * DuckDB's {@code epoch_ms(t)}, {@code epoch_us(t)} and {@code epoch_ns(t)}: a DATE, TIMESTAMP or TIMESTAMP_TZ
 * as milliseconds, microseconds or nanoseconds since 1970-01-01 00:00:00 (a TIME: since midnight), a BIGINT;
 * a timestamp's milliseconds rounded half away from 1970, a TIME's truncated, as DuckDB counts them. NULL where
 * {@code t} is; nanoseconds past a BIGINT (after 2262) fail.
 *
 * <p>Immutable and threadsafe.
 */
final class EpochOf implements Expression {

    /** The unit counted. */
    enum Unit {
        MILLISECONDS, MICROSECONDS, NANOSECONDS
    }

    static Signature.Kernel kernel(Unit unit) {
        return (args, type, text) -> new EpochOf(unit, args.get(0), text);
    }

    private final Unit unit;
    private final Expression value;
    private final String text;

    private EpochOf(Unit unit, Expression value, String text) {
        this.unit = unit;
        this.value = value;
        this.text = text;
    }

    @Override
    public DataType type() {
        return DataType.INT64;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        ColumnVector v = value.evaluate(batch);
        long[] o = new long[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        long[] valid = v.validity();
        boolean time = v.type().id() == TypeId.TIME;
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            long micros = DateTimeFields.micros(v, r);
            o[r] = switch (unit) {
                case MILLISECONDS -> time ? micros / 1000 : roundedMillis(micros);
                case MICROSECONDS -> micros;
                case NANOSECONDS -> Kernels.isValid(valid, r) ? nanos(micros) : 0;
            };
        }
        LongVector out = new LongVector(DataType.INT64, o);
        out.setValidity(Kernels.copy(v));
        return out;
    }

    /** DuckDB's Timestamp::GetEpochRounded to milliseconds: half a millisecond away from 1970 rounds away. */
    private static long roundedMillis(long micros) {
        long halves = micros / 500;
        return (halves < 0 ? halves - 1 : halves + 1) / 2;
    }

    private long nanos(long micros) {
        try {
            return Math.multiplyExact(micros, 1000L);
        } catch (ArithmeticException e) {
            throw new QueryDataException(QueryDataException.Kind.OVERFLOW, "bigint out of range: "
                    + Timestamps.timestampText(micros) + " in nanoseconds in " + text);
        }
    }
}
