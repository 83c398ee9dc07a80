package io.troupe.operators.expr;

import io.troupe.operators.expr.DateTimeFormat.Code;
import io.troupe.operators.types.Timestamps;

import java.nio.charset.StandardCharsets;

/**
 * A strftime format ({@code %m/%d/%Y}, {@code %d-%m-%Y %H:%M:%S}) compiled for reading text as the SQL function
 * {@code strptime} reads it ({@link StrptimeParser}, DuckDB's rules): the way a file loader reads a DATE or
 * TIMESTAMP column that is not ISO 8601, and a CSV detector tries a spelling on a sample.
 *
 * <p>Immutable and threadsafe; a {@link Reader} is not.
 */
public final class Strptime {

    private final DateTimeFormat format;

    private Strptime(DateTimeFormat format) {
        this.format = format;
    }

    /**
     * Compiles {@code text}.
     *
     * @throws IllegalArgumentException naming the format and what DuckDB's strptime would not read in it (an
     *                                  unknown code, a lone %), or an offset (%z), which a DATE or TIMESTAMP lacks
     */
    public static Strptime of(String text) {
        DateTimeFormat format;
        try {
            format = DateTimeFormat.compile(DateTimeFormat.Dialect.STRFTIME, text, true);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("date format '" + text + "': " + e.getMessage(), e);
        }
        if (format.hasOffset()) {
            throw new IllegalArgumentException("date format '" + text + "': an offset (%z) reads no DATE or TIMESTAMP");
        }
        return new Strptime(format);
    }

    /** The format as written. */
    public String text() {
        return format.text();
    }

    /** Whether the format reads a time of day (an hour, minute, second, fraction or AM/PM), not just a date. */
    public boolean hasTime() {
        return format.items().stream().anyMatch(i -> i.code() == Code.HOUR || i.code() == Code.HOUR_OF_HALF_DAY
                || i.code() == Code.MINUTE || i.code() == Code.SECOND || i.code() == Code.FRACTION
                || i.code() == Code.MERIDIEM);
    }

    /** Whether {@code value} reads with this format (a real date and time). */
    public boolean matches(String value) {
        byte[] b = value.getBytes(StandardCharsets.UTF_8);
        return reader().read(b, 0, b.length);
    }

    /** A reader of values, for one thread. */
    public Reader reader() {
        return new Reader();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Strptime s && s.text().equals(text());
    }

    @Override
    public int hashCode() {
        return text().hashCode();
    }

    @Override
    public String toString() {
        return text();
    }

    /** Reads one value after another with the format. Not threadsafe: one per load or thread. */
    public final class Reader {

        private final StrptimeParser parser = new StrptimeParser();

        private Reader() {
        }

        /** Reads {@code b[from .. to)}: whether it matches; when it does, {@link #micros()} is its value. */
        public boolean read(byte[] b, int from, int to) {
            try {
                parser.parse(format, b, from, to);
                return true;
            } catch (DomainException e) {
                return false;
            }
        }

        /** The timestamp last read, in microseconds since 1970-01-01 00:00:00. */
        public long micros() {
            return parser.local;
        }

        /** The day last read, in days since 1970-01-01. */
        public int day() {
            return Timestamps.day(parser.local);
        }
    }
}
