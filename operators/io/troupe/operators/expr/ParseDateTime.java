package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;

import java.time.ZoneId;
import java.time.zone.ZoneRules;

/**
 * Text read back with a {@link DateTimeFormat}: DuckDB's {@code strptime(text, format)} (a TIMESTAMP, or a
 * TIMESTAMP_TZ when the format has %z) by {@link StrptimeParser}, PostgreSQL's {@code to_date(text,
 * pattern)} (a DATE) and {@code to_timestamp(text, pattern[, zone])} (a TIMESTAMP_TZ: the text's offset if
 * it has one, else its local time in the zone, UTC without one) by {@link ToCharParser}. NULL where the text
 * is; text that does not match fails naming the text, the format and what was wrong.
 *
 * <p>Immutable and threadsafe.
 */
final class ParseDateTime implements Expression {

    private final Expression value;
    private final DateTimeFormat format;
    private final ZoneRules rules;
    private final DataType type;
    private final String text;

    private ParseDateTime(Expression value, DateTimeFormat format, ZoneRules rules, DataType type, String text) {
        this.value = value;
        this.format = format;
        this.rules = rules;
        this.type = type;
        this.text = text;
    }

    /** The kernel of strptime's, to_date's or to_timestamp's text signatures: (text, format[, zone]). */
    static Signature.Kernel kernel(DateTimeFormat.Dialect dialect) {
        return (args, type, text) -> {
            Object pattern = ((LiteralExpression) args.get(1)).value();
            ZoneId zone = DateTimeFunctions.zoneArgument(args, 2);
            if (pattern == null || zone == null) {
                return new LiteralExpression(null, type, text);
            }
            return new ParseDateTime(args.get(0), DateTimeFunctions.format(dialect, pattern, true), zone.getRules(),
                    type, text);
        };
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
        StringVector v = (StringVector) value.evaluate(batch);
        int n = batch.size();
        int[] sel = batch.selection();
        int rows = batch.rowCount();
        boolean date = type.id() == TypeId.DATE;
        int[] days = date ? new int[rows] : null;
        long[] micros = date ? null : new long[rows];
        StrptimeParser strptime = format.dialect() == DateTimeFormat.Dialect.STRFTIME ? new StrptimeParser() : null;
        ToCharParser toChar = strptime == null ? new ToCharParser() : null;
        byte[] data = v.data();
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (v.isNull(r)) {
                continue;
            }
            int from = v.start(r);
            int to = from + v.length(r);
            try {
                long result;
                if (strptime != null) {
                    strptime.parse(format, data, from, to);
                    result = type.id() == TypeId.TIMESTAMP_TZ
                            ? strptime.local - strptime.offsetSeconds * Timestamps.MICROS_PER_SECOND : strptime.local;
                } else {
                    toChar.parse(format, data, from, to);
                    result = type.id() != TypeId.TIMESTAMP_TZ ? toChar.local : toChar.hasOffset
                            ? toChar.local - toChar.offsetSeconds * Timestamps.MICROS_PER_SECOND
                            : Timestamps.fromLocal(toChar.local, rules);
                }
                if (date) {
                    days[r] = Timestamps.day(result);
                } else {
                    micros[r] = result;
                }
            } catch (DomainException | ArithmeticException e) {
                throw new QueryDataException(QueryDataException.Kind.INVALID_ARGUMENT, e.getMessage() + ": \""
                        + v.getString(r) + "\" does not match the format \"" + format.text() + "\" in " + text);
            }
        }
        ColumnVector out = date ? new IntVector(DataType.DATE, days) : new LongVector(type, micros);
        out.setValidity(Kernels.copy(v));
        return out;
    }
}
