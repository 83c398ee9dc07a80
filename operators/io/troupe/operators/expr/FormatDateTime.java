package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;

/**
 * A time as text in a {@link DateTimeFormat}: {@code strftime(t, format)}, {@code to_char(t, pattern)}, and
 * {@code dayname(t)}, {@code monthname(t)} with a fixed format. A DATE is its midnight and a TIMESTAMP its
 * local time, both without a zone (an offset +00, no zone name); a TIMESTAMP_TZ is the local time in the
 * call's zone (its third argument; UTC without one), with that zone's offset at the instant and its name.
 * NULL where {@code t} is; to_char's empty pattern gives NULL, as in PostgreSQL. The format is compiled once;
 * each row is written into one buffer and copied into the result, so nothing is allocated per row.
 *
 * <p>Immutable and threadsafe.
 */
final class FormatDateTime implements Expression {

    private final Expression value;
    private final DateTimeFormat format;
    /** The zone a TIMESTAMP_TZ is shown in; null for the other types. */
    private final ZoneRules rules;
    /** The zone's name for %Z, null for none. */
    private final byte[] zoneName;
    private final String text;

    private FormatDateTime(Expression value, DateTimeFormat format, ZoneRules rules, byte[] zoneName, String text) {
        this.value = value;
        this.format = format;
        this.rules = rules;
        this.zoneName = zoneName;
        this.text = text;
    }

    /** The kernel of strftime's or to_char's signatures: (t, format) and (TIMESTAMP_TZ, format, zone). */
    static Signature.Kernel kernel(DateTimeFormat.Dialect dialect) {
        return (args, type, text) -> {
            Object pattern = ((LiteralExpression) args.get(1)).value();
            ZoneId zone = DateTimeFunctions.zoneArgument(args, 2);
            if (pattern == null || zone == null || dialect == DateTimeFormat.Dialect.TO_CHAR && ((String) pattern).isEmpty()) {
                return new LiteralExpression(null, DataType.VARCHAR, text);
            }
            return of(args.get(0), DateTimeFunctions.format(dialect, pattern, false), zone, text);
        };
    }

    /** {@code value} in {@code format}; a TIMESTAMP_TZ in {@code zone} (null: UTC). */
    static Expression of(Expression value, DateTimeFormat format, ZoneId zone, String text) {
        if (value.type().id() != TypeId.TIMESTAMP_TZ) {
            return new FormatDateTime(value, format, null, null, text);
        }
        ZoneId z = zone == null ? ZoneOffset.UTC : zone;
        String name = z.equals(ZoneOffset.UTC) ? "UTC" : z.getId();
        return new FormatDateTime(value, format, z.getRules(), name.getBytes(StandardCharsets.UTF_8), text);
    }

    @Override
    public DataType type() {
        return DataType.VARCHAR;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        ColumnVector v = value.evaluate(batch);
        int n = batch.size();
        int[] sel = batch.selection();
        StringVector out = new StringVector(batch.rowCount(), Math.max(16, n * 16));
        byte[] buf = new byte[format.maxLength() + (zoneName == null ? 0 : zoneName.length)];
        DateTimeFields fields = new DateTimeFields();
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (v.isNull(r)) {
                continue;
            }
            if (v instanceof IntVector days) {
                fields.set(Timestamps.ofDay(days.get(r)), 0);
            } else if (rules == null) {
                fields.set(((LongVector) v).get(r), 0);
            } else {
                long instant = ((LongVector) v).get(r);
                int offset = Timestamps.offsetSeconds(rules, instant);
                fields.set(instant + offset * Timestamps.MICROS_PER_SECOND, offset);
            }
            out.put(r, buf, 0, format.format(fields, zoneName, buf, 0));
        }
        out.seal();
        out.setValidity(Kernels.copy(v));
        return out;
    }
}
