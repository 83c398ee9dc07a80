package io.troupe.operators.expr;

import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Int128;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Parses values from UTF-8 text, for CAST from VARCHAR. Failure is a return value ({@code false}),
 * never an exception, so a kernel reports the bad value itself; the parsed value is left in a
 * field ({@link #longValue}, {@link #doubleValue}, {@link #intValue}).
 *
 * <p>Numbers: surrounding whitespace, an optional sign, digits with an optional fraction (at
 * least one digit in all) and an optional exponent ({@code 1e2}). Integers and decimals round
 * half away from zero ({@code '2.5'} is 3 as an integer, like DuckDB). Doubles take
 * {@code inf}, {@code infinity} and {@code nan} too. Dates: surrounding whitespace and
 * {@code y-m-d} with 1 or 2 digit months and days, checked against the calendar, and DuckDB's era suffix
 * ({@code 0001-06-01 (BC)}, which it prints for years up to 0). Booleans:
 * {@code true t yes y 1} and {@code false f no n 0}, any case, no whitespace (as DuckDB).
 * Nothing allocates except a double beyond the exact fast path (more than 15 significant
 * digits or a large exponent), which goes through {@link Double#parseDouble}.
 *
 * <p>Not threadsafe: one instance per kernel invocation.
 */
final class TextParser {

    /** Exponents beyond this are clamped: the value has overflowed or is zero by then. */
    private static final int MAX_EXPONENT = 10_000;
    /** Powers of ten a double holds exactly (Clinger's fast path). */
    private static final double[] EXACT_POWERS = new double[23];
    /** 2^53: integers below it are exact doubles. */
    private static final long MAX_EXACT_MANTISSA = 1L << 53;

    static {
        double p = 1;
        for (int i = 0; i < EXACT_POWERS.length; i++) {
            EXACT_POWERS[i] = p;
            p *= 10;
        }
    }

    long longValue;
    /** The high word of a value of {@link #parseScaledWide}; its low word is {@link #longValue}. */
    long highValue;
    double doubleValue;
    int intValue;

    // The last number's shape, set by scanNumber: digits [intStart, intEnd) and [fracStart, fracEnd).
    private boolean negative;
    private int intStart;
    private int intEnd;
    private int fracStart;
    private int fracEnd;
    private int exponent;

    /**
     * Parses a number and leaves it in {@link #longValue}, unscaled at {@code scale} (0 for an
     * integer), rounded half away from zero. False on bad syntax or when it does not fit a long.
     */
    boolean parseScaled(byte[] d, int from, int to, int scale) {
        if (!scanNumber(d, from, to)) {
            return false;
        }
        int intLen = intEnd - intStart;
        int len = intLen + fracEnd - fracStart;
        // Digits of the whole number, in order, and how many of them the unscaled value keeps.
        long keep = (long) intLen + exponent + scale;
        long v = 0;
        for (long k = 0; k < keep; k++) {
            int digit = k < len ? digitAt(d, (int) k, intLen) : 0;
            if (v < (Long.MIN_VALUE + digit) / 10) {
                return false;
            }
            v = v * 10 - digit; // accumulated negatively: the range of a long is wider below zero
        }
        if (keep >= 0 && keep < len && digitAt(d, (int) keep, intLen) >= 5) {
            if (v == Long.MIN_VALUE) {
                return false;
            }
            v--;
        }
        if (!negative) {
            if (v == Long.MIN_VALUE) {
                return false;
            }
            v = -v;
        }
        longValue = v;
        return true;
    }

    /**
     * Parses a number as {@link #parseScaled} does, into a value of up to 38 digits: its unscaled value at
     * {@code scale} is left in {@link #highValue} and {@link #longValue} ({@link Int128}'s words). False on bad
     * syntax or when it has more than 38 digits.
     */
    boolean parseScaledWide(byte[] d, int from, int to, int scale) {
        if (parseScaled(d, from, to, scale)) {
            highValue = Int128.highOf(longValue);
            return true;
        }
        if (!scanNumber(d, from, to)) {
            return false;
        }
        int intLen = intEnd - intStart;
        int len = intLen + fracEnd - fracStart;
        long keep = (long) intLen + exponent + scale;
        if (keep > Int128.MAX_DIGITS + len) {
            return false;
        }
        StringBuilder digits = new StringBuilder("0");
        for (long k = 0; k < keep; k++) {
            digits.append((char) ('0' + (k < len ? digitAt(d, (int) k, intLen) : 0)));
        }
        BigInteger v = new BigInteger(digits.toString());
        if (keep >= 0 && keep < len && digitAt(d, (int) keep, intLen) >= 5) {
            v = v.add(BigInteger.ONE);
        }
        if (v.toString().length() > Int128.MAX_DIGITS) {
            return false;
        }
        v = negative ? v.negate() : v;
        highValue = Int128.high(v);
        longValue = v.longValue();
        return true;
    }

    /** Parses a double into {@link #doubleValue}. False on bad syntax. */
    boolean parseDouble(byte[] d, int from, int to) {
        int start = skipSpace(d, from, to);
        int end = trimSpace(d, start, to);
        if (parseSpecial(d, start, end)) {
            return true;
        }
        if (!scanNumber(d, from, to)) {
            return false;
        }
        int intLen = intEnd - intStart;
        int len = intLen + fracEnd - fracStart;
        int first = 0;
        while (first < len && digitAt(d, first, intLen) == 0) {
            first++;
        }
        int last = len;
        while (last > first && digitAt(d, last - 1, intLen) == 0) {
            last--;
        }
        if (first == last) {
            doubleValue = negative ? -0.0 : 0.0;
            return true;
        }
        if (last - first <= 15) {
            long mantissa = 0;
            for (int k = first; k < last; k++) {
                mantissa = mantissa * 10 + digitAt(d, k, intLen);
            }
            // value = mantissa * 10^e10, both exact doubles: one correctly rounded operation.
            int e10 = intLen + exponent - last;
            if (mantissa < MAX_EXACT_MANTISSA && Math.abs(e10) < EXACT_POWERS.length) {
                double v = e10 >= 0 ? mantissa * EXACT_POWERS[e10] : mantissa / EXACT_POWERS[-e10];
                doubleValue = negative ? -v : v;
                return true;
            }
        }
        doubleValue = Double.parseDouble(new String(d, start, end - start, StandardCharsets.ISO_8859_1));
        return true;
    }

    /**
     * Parses y-m-d, or y-m-d (BC) for years up to 0, into {@link #intValue} (days since the epoch). False on bad
     * syntax or a date that does not exist.
     */
    boolean parseDate(byte[] d, int from, int to) {
        int p = skipSpace(d, from, to);
        int end = trimSpace(d, p, to);
        boolean minus = p < end && d[p] == '-';
        if (minus) {
            p++;
        }
        int yearStart = p;
        int year = 0;
        while (p < end && isDigit(d[p]) && p - yearStart < 6) {
            year = year * 10 + (d[p++] - '0');
        }
        if (p == yearStart || p >= end || d[p++] != '-') {
            return false;
        }
        int monthStart = p;
        int month = 0;
        while (p < end && isDigit(d[p]) && p - monthStart < 2) {
            month = month * 10 + (d[p++] - '0');
        }
        if (p == monthStart || p >= end || d[p++] != '-') {
            return false;
        }
        int dayStart = p;
        int day = 0;
        while (p < end && isDigit(d[p]) && p - dayStart < 2) {
            day = day * 10 + (d[p++] - '0');
        }
        if (p == dayStart) {
            return false;
        }
        if (p != end) {
            // One space and the era, as DuckDB prints years up to 0: 0001-01-01 (BC) is year 0.
            if (minus || year == 0 || end - p != 5 || !isSpace(d[p]) || d[p + 1] != '('
                    || (d[p + 2] | 0x20) != 'b' || (d[p + 3] | 0x20) != 'c' || d[p + 4] != ')') {
                return false;
            }
            year = 1 - year;
        } else if (minus) {
            year = -year;
        }
        if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
            return false;
        }
        intValue = Dates.days(year, month, day);
        return true;
    }

    /** Parses a boolean into {@link #longValue} (1 or 0). False for anything else. */
    boolean parseBoolean(byte[] d, int from, int to) {
        if (equalsIgnoreCase(d, from, to, "true") || equalsIgnoreCase(d, from, to, "t")
                || equalsIgnoreCase(d, from, to, "yes") || equalsIgnoreCase(d, from, to, "y")
                || equalsIgnoreCase(d, from, to, "1")) {
            longValue = 1;
            return true;
        }
        if (equalsIgnoreCase(d, from, to, "false") || equalsIgnoreCase(d, from, to, "f")
                || equalsIgnoreCase(d, from, to, "no") || equalsIgnoreCase(d, from, to, "n")
                || equalsIgnoreCase(d, from, to, "0")) {
            longValue = 0;
            return true;
        }
        return false;
    }

    static int daysInMonth(int year, int month) {
        if (month == 2) {
            boolean leap = Math.floorMod(year, 4) == 0 && (Math.floorMod(year, 100) != 0 || Math.floorMod(year, 400) == 0);
            return leap ? 29 : 28;
        }
        return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
    }

    /** Checks the syntax of a number and records where its parts are. */
    private boolean scanNumber(byte[] d, int from, int to) {
        int p = skipSpace(d, from, to);
        int end = trimSpace(d, p, to);
        negative = false;
        if (p < end && (d[p] == '+' || d[p] == '-')) {
            negative = d[p] == '-';
            p++;
        }
        intStart = p;
        while (p < end && isDigit(d[p])) {
            p++;
        }
        intEnd = p;
        fracStart = p;
        fracEnd = p;
        if (p < end && d[p] == '.') {
            fracStart = ++p;
            while (p < end && isDigit(d[p])) {
                p++;
            }
            fracEnd = p;
        }
        if (intEnd == intStart && fracEnd == fracStart) {
            return false;
        }
        exponent = 0;
        if (p < end && (d[p] == 'e' || d[p] == 'E')) {
            p++;
            boolean minus = false;
            if (p < end && (d[p] == '+' || d[p] == '-')) {
                minus = d[p] == '-';
                p++;
            }
            int digitsStart = p;
            while (p < end && isDigit(d[p])) {
                exponent = Math.min(MAX_EXPONENT, exponent * 10 + (d[p++] - '0'));
            }
            if (p == digitsStart) {
                return false;
            }
            if (minus) {
                exponent = -exponent;
            }
        }
        return p == end;
    }

    /** Digit {@code k} of the number's digits (integer part, then fraction). */
    private int digitAt(byte[] d, int k, int intLen) {
        return (k < intLen ? d[intStart + k] : d[fracStart + k - intLen]) - '0';
    }

    private boolean parseSpecial(byte[] d, int start, int end) {
        int p = start;
        boolean minus = false;
        if (p < end && (d[p] == '+' || d[p] == '-')) {
            minus = d[p] == '-';
            p++;
        }
        if (equalsIgnoreCase(d, p, end, "inf") || equalsIgnoreCase(d, p, end, "infinity")) {
            doubleValue = minus ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            return true;
        }
        if (p == start && equalsIgnoreCase(d, p, end, "nan")) {
            doubleValue = Double.NaN;
            return true;
        }
        return false;
    }

    private static boolean equalsIgnoreCase(byte[] d, int from, int to, String word) {
        if (to - from != word.length()) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            int c = d[from + i];
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            if (c != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == 0x0B;
    }

    private static int skipSpace(byte[] d, int from, int to) {
        while (from < to && isSpace(d[from])) {
            from++;
        }
        return from;
    }

    private static int trimSpace(byte[] d, int from, int to) {
        while (to > from && isSpace(d[to - 1])) {
            to--;
        }
        return to;
    }
}
