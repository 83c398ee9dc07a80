package io.troupe.operators.types;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;

/**
 * A value as SQL prints it, from the Java form a vector's {@code getObject} gives: a decimal's digits at its
 * scale ({@code 12.50}, never {@code 1.25E+1}), a date, timestamp or time as CAST to VARCHAR writes it, an instant
 * in a zone with that zone's offset ({@code 2024-03-15 13:45:30+01}), a BLOB's bytes in the hex form ({@code \x01ff}),
 * anything else by its {@code toString}. For results shown to people (the shell, JDBC's getString, {@code
 * QueryResult.format}). Stateless; threadsafe.
 */
public final class ValueText {

    private ValueText() {
    }

    /** {@code value}'s text, an instant's in {@code zone}; null for null. */
    public static String of(Object value, ZoneId zone) {
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        } else if (value instanceof LocalDate d) {
            return Dates.text(Dates.fromLocalDate(d));
        } else if (value instanceof LocalDateTime t) {
            return Timestamps.timestampText(Timestamps.fromLocalDateTime(t));
        } else if (value instanceof LocalTime t) {
            return Timestamps.timeText(Timestamps.fromLocalTime(t));
        } else if (value instanceof Instant i) {
            return Timestamps.instantText(Timestamps.fromInstant(i), zone);
        } else if (value instanceof byte[] b) {
            return Blobs.text(b);
        }
        return value == null ? null : value.toString();
    }
}
