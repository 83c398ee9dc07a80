package io.troupe.operators.table;

import io.troupe.operators.types.Blobs;
import io.troupe.operators.types.ByteChars;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;
import io.troupe.operators.types.Uuids;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;

/**
 * Parses one field's text, {@code bytes[from .. to)}, straight from the bytes of a file: no String,
 * no boxing, no allocation unless the text is wrong. Strict on purpose: no surrounding spaces, no
 * rounding; a text that does not parse throws a {@link FieldParseException} with the reason, which
 * the caller turns into a message that names the file, line and column.
 *
 * <p>Stateless and threadsafe.
 */
final class FieldParsers {

    /** Significant digits that a double holds exactly: below 2^53, so m * 10^e rounds once. */
    private static final int EXACT_DOUBLE_DIGITS = 15;
    /** 10^0 .. 10^22: the powers of ten a double holds exactly (Clinger's fast path). */
    private static final double[] EXACT_POWERS_OF_TEN = new double[23];

    static {
        double p = 1;
        for (int i = 0; i < EXACT_POWERS_OF_TEN.length; i++) {
            EXACT_POWERS_OF_TEN[i] = p;
            p *= 10;
        }
    }

    private FieldParsers() {
    }

    /** Why a field's text was rejected; no stack trace, as it is always rethrown with context. */
    static final class FieldParseException extends RuntimeException {

        FieldParseException(String reason) {
            super(reason, null, false, false);
        }
    }

    static int parseInt(byte[] b, int from, int to) {
        int p = from;
        boolean negative = false;
        if (p < to && (b[p] == '-' || b[p] == '+')) {
            negative = b[p] == '-';
            p++;
        }
        if (p == to) {
            throw new FieldParseException("not an integer");
        }
        long value = 0;
        for (; p < to; p++) {
            int d = b[p] - '0';
            if (d < 0 || d > 9) {
                throw new FieldParseException("not an integer");
            }
            // stops growing once out of range, so it never wraps; the digits are still checked
            if (value <= Integer.MAX_VALUE + 1L) {
                value = value * 10 + d;
            }
        }
        long signed = negative ? -value : value;
        if (signed < Integer.MIN_VALUE || signed > Integer.MAX_VALUE) {
            throw new FieldParseException("out of range");
        }
        return (int) signed;
    }

    static long parseLong(byte[] b, int from, int to) {
        int p = from;
        boolean negative = false;
        if (p < to && (b[p] == '-' || b[p] == '+')) {
            negative = b[p] == '-';
            p++;
        }
        if (p == to) {
            throw new FieldParseException("not an integer");
        }
        // accumulates negatively, as Long.parseLong does, since |MIN_VALUE| > MAX_VALUE
        long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
        long minBeforeDigit = limit / 10;
        long value = 0;
        boolean overflow = false;
        for (; p < to; p++) {
            int d = b[p] - '0';
            if (d < 0 || d > 9) {
                throw new FieldParseException("not an integer");
            }
            if (overflow || value < minBeforeDigit || value * 10 < limit + d) {
                overflow = true;
            } else {
                value = value * 10 - d;
            }
        }
        if (overflow) {
            throw new FieldParseException("out of range");
        }
        return negative ? value : -value;
    }

    /**
     * A DECIMAL(p,s) as its unscaled long: [sign] digits [. digits], or [sign] . digits. Fractional
     * digits past the scale must be zeros (nothing is rounded away); at most p - s integer digits.
     */
    static long parseDecimal(byte[] b, int from, int to, DataType type) {
        int scale = type.scale();
        int maxIntegerDigits = type.precision() - scale;
        int p = from;
        boolean negative = false;
        if (p < to && (b[p] == '-' || b[p] == '+')) {
            negative = b[p] == '-';
            p++;
        }
        long value = 0;
        int digits = 0;
        int integerDigits = 0;
        boolean tooManyDigits = false;
        for (; p < to && b[p] != '.'; p++) {
            int d = b[p] - '0';
            if (d < 0 || d > 9) {
                throw new FieldParseException("not a decimal");
            }
            digits++;
            if (d != 0 || integerDigits > 0) {
                integerDigits++;
            }
            if (integerDigits > maxIntegerDigits) {
                tooManyDigits = true;
            } else {
                value = value * 10 + d;
            }
        }
        int fractionDigits = 0;
        boolean roundingNeeded = false;
        if (p < to) {
            p++;
            for (; p < to; p++) {
                int d = b[p] - '0';
                if (d < 0 || d > 9) {
                    throw new FieldParseException("not a decimal");
                }
                digits++;
                if (fractionDigits < scale) {
                    value = value * 10 + d;
                    fractionDigits++;
                } else if (d != 0) {
                    roundingNeeded = true;
                }
            }
        }
        if (digits == 0) {
            throw new FieldParseException("not a decimal");
        }
        if (tooManyDigits) {
            throw new FieldParseException("more than " + maxIntegerDigits + " integer digits");
        }
        if (roundingNeeded) {
            throw new FieldParseException("more than " + scale + " fractional digits");
        }
        value *= Decimals.pow10(scale - fractionDigits);
        return negative ? -value : value;
    }

    /**
     * A DECIMAL(p,s) of more than 18 digits as its unscaled value, by the rules of {@link #parseDecimal}: [sign]
     * digits [. digits], fractional digits past the scale zeros, at most p - s integer digits.
     */
    static BigInteger parseWideDecimal(byte[] b, int from, int to, DataType type) {
        for (int p = from; p < to; p++) {
            byte c = b[p];
            if (!(c >= '0' && c <= '9' || c == '.' || p == from && (c == '-' || c == '+'))) {
                throw new FieldParseException("not a decimal");
            }
        }
        BigDecimal value;
        try {
            value = new BigDecimal(new String(b, from, to - from, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            throw new FieldParseException("not a decimal");
        }
        BigDecimal scaled;
        try {
            scaled = value.setScale(type.scale(), RoundingMode.UNNECESSARY);
        } catch (ArithmeticException e) {
            throw new FieldParseException("more than " + type.scale() + " fractional digits");
        }
        int maxIntegerDigits = type.precision() - type.scale();
        if (scaled.precision() - scaled.scale() > maxIntegerDigits) {
            throw new FieldParseException("more than " + maxIntegerDigits + " integer digits");
        }
        return scaled.unscaledValue();
    }

    /** [sign] digits [. digits] [e [sign] digits], or inf, infinity, nan (any case, signed). */
    static double parseDouble(byte[] b, int from, int to) {
        int p = from;
        boolean negative = false;
        if (p < to && (b[p] == '-' || b[p] == '+')) {
            negative = b[p] == '-';
            p++;
        }
        long mantissa = 0;
        int significant = 0;
        int digits = 0;
        int dropped = 0;
        int exponent = 0;
        for (; p < to; p++) {
            int d = b[p] - '0';
            if (d < 0 || d > 9) {
                break;
            }
            digits++;
            if (significant < 18) {
                if (d != 0 || significant > 0) {
                    mantissa = mantissa * 10 + d;
                    significant++;
                }
            } else {
                dropped++;
            }
        }
        if (p < to && b[p] == '.') {
            p++;
            for (; p < to; p++) {
                int d = b[p] - '0';
                if (d < 0 || d > 9) {
                    break;
                }
                digits++;
                if (significant < 18) {
                    if (d != 0 || significant > 0) {
                        mantissa = mantissa * 10 + d;
                        significant++;
                    }
                    exponent--;
                } else {
                    dropped++;
                }
            }
        }
        if (digits == 0) {
            return parseSpecial(b, p, to, negative);
        }
        if (p < to && (b[p] == 'e' || b[p] == 'E')) {
            p++;
            boolean negativeExponent = false;
            if (p < to && (b[p] == '-' || b[p] == '+')) {
                negativeExponent = b[p] == '-';
                p++;
            }
            if (p == to) {
                throw new FieldParseException("not a number");
            }
            int e = 0;
            for (; p < to; p++) {
                int d = b[p] - '0';
                if (d < 0 || d > 9) {
                    throw new FieldParseException("not a number");
                }
                if (e < 100_000) {
                    e = e * 10 + d;
                }
            }
            exponent += negativeExponent ? -e : e;
        }
        if (p != to) {
            throw new FieldParseException("not a number");
        }
        if (dropped == 0 && significant <= EXACT_DOUBLE_DIGITS && Math.abs(exponent) < EXACT_POWERS_OF_TEN.length) {
            double m = mantissa;
            double v = exponent >= 0 ? m * EXACT_POWERS_OF_TEN[exponent] : m / EXACT_POWERS_OF_TEN[-exponent];
            return negative ? -v : v;
        }
        // rare (long mantissa or large exponent): the JDK rounds it correctly; the syntax is checked above
        return Double.parseDouble(new String(b, from, to - from, StandardCharsets.ISO_8859_1));
    }

    /** An integer in {@code min..max} (a SMALLINT's or TINYINT's range). */
    static int parseInt(byte[] b, int from, int to, int min, int max) {
        int v = parseInt(b, from, to);
        if (v < min || v > max) {
            throw new FieldParseException("out of range");
        }
        return v;
    }

    /**
     * The float nearest the text (a REAL), read as {@link #parseDouble} reads it; a finite number past the floats is
     * out of range. The nearest float of the text, not of its nearest double, which may differ by a rounding.
     */
    static float parseFloat(byte[] b, int from, int to) {
        double d = parseDouble(b, from, to);
        if (!Double.isFinite(d)) {
            return (float) d;
        }
        float f = Float.parseFloat(new String(b, from, to - from, StandardCharsets.ISO_8859_1));
        if (Float.isInfinite(f)) {
            throw new FieldParseException("out of range");
        }
        return f;
    }

    private static double parseSpecial(byte[] b, int p, int to, boolean negative) {
        int n = to - p;
        if (matches(b, p, n, "inf") || matches(b, p, n, "infinity")) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (matches(b, p, n, "nan")) {
            return Double.NaN;
        }
        throw new FieldParseException("not a number");
    }

    /** yyyy-mm-dd, a real day of the proleptic Gregorian calendar. */
    static int parseDate(byte[] b, int from, int to) {
        if (to - from != 10 || b[from + 4] != '-' || b[from + 7] != '-') {
            throw new FieldParseException("not a date (yyyy-mm-dd)");
        }
        int year = digits(b, from, 4);
        int month = digits(b, from + 5, 2);
        int day = digits(b, from + 8, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
            throw new FieldParseException("not a date (yyyy-mm-dd)");
        }
        return Dates.days(year, month, day);
    }

    /**
     * A TIMESTAMP, TIMESTAMP_TZ (UTC where the text names no offset) or TIME as {@link Timestamps} reads its text,
     * in microseconds; {@code view} is the caller's, pointed at the field.
     */
    static long parseTemporal(byte[] b, int from, int to, TypeId type, ByteChars view) {
        view.of(b, from, to);
        try {
            return switch (type) {
                case TIMESTAMP -> Timestamps.parseTimestamp(view);
                case TIMESTAMP_TZ -> Timestamps.parseInstant(view, ZoneOffset.UTC);
                default -> Timestamps.parseTime(view);
            };
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new FieldParseException(switch (type) {
                case TIMESTAMP -> "not a timestamp (yyyy-mm-dd hh:mm:ss)";
                case TIMESTAMP_TZ -> "not a timestamp with time zone (yyyy-mm-dd hh:mm:ss+hh)";
                default -> "not a time (hh:mm:ss)";
            });
        }
    }

    /** An INTERVAL as {@link Interval#parse} reads its text; {@code view} is the caller's, pointed at the field. */
    static Interval parseInterval(byte[] b, int from, int to, ByteChars view) {
        try {
            return Interval.parse(view.of(b, from, to));
        } catch (IllegalArgumentException e) {
            throw new FieldParseException("not an interval (1 day 02:00:00)");
        }
    }

    /** A UUID as {@link Uuids#parse} reads its text; {@code view} is the caller's, pointed at the field. */
    static java.util.UUID parseUuid(byte[] b, int from, int to, ByteChars view) {
        try {
            return Uuids.parse(view.of(b, from, to));
        } catch (IllegalArgumentException e) {
            throw new FieldParseException("not a uuid (a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11)");
        }
    }

    /** A BLOB as {@link Blobs#parse} reads its text (the hex form, {@code \x0102}, as files are written). */
    static byte[] parseBlob(byte[] b, int from, int to, ByteChars view) {
        try {
            return Blobs.parse(view.of(b, from, to));
        } catch (IllegalArgumentException e) {
            throw new FieldParseException("not a blob (" + e.getMessage() + ")");
        }
    }

    /** The value of {@code n} decimal digits, or -1 when one is not a digit. */
    private static int digits(byte[] b, int from, int n) {
        int v = 0;
        for (int i = from; i < from + n; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    private static int daysInMonth(int year, int month) {
        if (month == 2) {
            boolean leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
            return leap ? 29 : 28;
        }
        return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
    }

    /** true/false, t/f, 1/0, in any case. */
    static boolean parseBoolean(byte[] b, int from, int to) {
        int n = to - from;
        if (n == 1) {
            int c = b[from] | 0x20;
            if (c == 't' || b[from] == '1') {
                return true;
            }
            if (c == 'f' || b[from] == '0') {
                return false;
            }
        } else if (matches(b, from, n, "true")) {
            return true;
        } else if (matches(b, from, n, "false")) {
            return false;
        }
        throw new FieldParseException("not a boolean");
    }

    /** Whether {@code b[from .. from + n)} is {@code lower} in any case (ASCII letters only). */
    private static boolean matches(byte[] b, int from, int n, String lower) {
        if (n != lower.length()) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if ((b[from + i] | 0x20) != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Checks that {@code b[from .. to)} is well-formed UTF-8 (no overlong forms, surrogates or code
     * points past U+10FFFF), as a VARCHAR must be.
     */
    static void checkUtf8(byte[] b, int from, int to) {
        int p = from;
        while (p < to && b[p] >= 0) {
            p++;
        }
        while (p < to) {
            int c = b[p] & 0xFF;
            if (c < 0x80) {
                p++;
                continue;
            }
            int need;
            int min;
            if (c >= 0xC2 && c <= 0xDF) {
                need = 1;
                min = 0x80;
            } else if (c >= 0xE0 && c <= 0xEF) {
                need = 2;
                min = 0x800;
            } else if (c >= 0xF0 && c <= 0xF4) {
                need = 3;
                min = 0x10000;
            } else {
                throw new FieldParseException("invalid UTF-8");
            }
            if (p + need >= to) {
                throw new FieldParseException("invalid UTF-8");
            }
            int cp = c & (0x3F >> need);
            for (int i = 1; i <= need; i++) {
                int cc = b[p + i] & 0xFF;
                if ((cc & 0xC0) != 0x80) {
                    throw new FieldParseException("invalid UTF-8");
                }
                cp = (cp << 6) | (cc & 0x3F);
            }
            if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                throw new FieldParseException("invalid UTF-8");
            }
            p += need + 1;
        }
    }
}
