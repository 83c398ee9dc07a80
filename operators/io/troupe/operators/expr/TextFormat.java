package io.troupe.operators.expr;

import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.Int128;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Writes values as text (UTF-8, here all ASCII) into a caller's buffer, for CAST to VARCHAR.
 * Integers, decimals and dates are formatted without allocating. Doubles go through
 * {@link Double#toString(double)} (allocating: the shortest round-trip digits need a Ryu-class
 * algorithm, not worth owning for a cast), made shortest where JDK 17 gives more digits, and
 * are laid out as DuckDB prints them:
 * plain notation for decimal exponents -4..15 ({@code 0.0001}, {@code 1000000000000000.0}),
 * scientific otherwise ({@code 1e-05}, {@code 1.5e+16}), {@code nan}, {@code inf}, {@code -inf}.
 *
 * <p>Stateless; threadsafe.
 */
final class TextFormat {

    /** Room any single value below needs: a long's 20 characters, a decimal's 40, a double's 25. */
    static final int MAX_LENGTH = 48;

    /** From this many digits on, Double.toString's output is checked for a shorter form. */
    private static final int SHORTEST_CHECK_DIGITS = 16;
    /** As {@link #SHORTEST_CHECK_DIGITS}, for Float.toString. */
    private static final int SHORTEST_CHECK_FLOAT_DIGITS = 8;

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};

    private TextFormat() {
    }

    /** Writes {@code v} at {@code pos}; returns the position after it. */
    static int formatLong(long v, byte[] buf, int pos) {
        if (v == Long.MIN_VALUE) {
            return put(buf, pos, "-9223372036854775808");
        }
        if (v < 0) {
            buf[pos++] = '-';
            v = -v;
        }
        return Dates.digits(v, 1, buf, pos);
    }

    /** The unscaled {@code v} at {@code scale}: {@code -1.50}, {@code 0.05}, {@code 12}. */
    static int formatDecimal(long v, int scale, byte[] buf, int pos) {
        if (scale == 0) {
            return formatLong(v, buf, pos);
        }
        if (v < 0) {
            buf[pos++] = '-';
            v = -v;
        }
        long unit = Decimals.pow10(scale);
        pos = Dates.digits(v / unit, 1, buf, pos);
        buf[pos++] = '.';
        return Dates.digits(v % unit, scale, buf, pos);
    }

    /** A wide decimal's unscaled value {@code high:low} at {@code scale}, as {@link #formatDecimal} writes it. */
    static int formatDecimal(long high, long low, int scale, byte[] buf, int pos) {
        if (Int128.isLong(high, low) && low != Long.MIN_VALUE) {
            return formatDecimal(low, scale, buf, pos);
        }
        return put(buf, pos, Int128.toBigDecimal(high, low, scale).toPlainString());
    }

    static int formatBoolean(boolean v, byte[] buf, int pos) {
        byte[] text = v ? TRUE : FALSE;
        System.arraycopy(text, 0, buf, pos, text.length);
        return pos + text.length;
    }

    /** DuckDB's (and Python's repr) layout of the shortest digits that round-trip. */
    static int formatDouble(double v, byte[] buf, int pos) {
        return formatFloating(v, false, buf, pos);
    }

    /** A FLOAT32 ({@code v} is a float, widened) laid out as {@link #formatDouble}, with a float's shortest digits. */
    static int formatFloat(double v, byte[] buf, int pos) {
        return formatFloating(v, true, buf, pos);
    }

    private static int formatFloating(double v, boolean single, byte[] buf, int pos) {
        if (Double.isNaN(v)) {
            return put(buf, pos, "nan");
        }
        if (Double.isInfinite(v)) {
            return put(buf, pos, v > 0 ? "inf" : "-inf");
        }
        if (v < 0 || (v == 0 && 1 / v < 0)) {
            buf[pos++] = '-';
            v = -v;
        }
        if (v == 0) {
            return put(buf, pos, "0.0");
        }
        // Java prints the digits as "ddd.ddd" or "d.dddE[-]n"; collect them and the point.
        String s = single ? Float.toString((float) v) : Double.toString(v);
        int e = s.indexOf('E');
        String mantissa = e < 0 ? s : s.substring(0, e);
        int exp = e < 0 ? 0 : Integer.parseInt(s.substring(e + 1));
        int dot = mantissa.indexOf('.');
        String all = mantissa.substring(0, dot) + mantissa.substring(dot + 1);
        int pointPos = dot + exp;
        int first = 0;
        while (first < all.length() - 1 && all.charAt(first) == '0') {
            first++;
            pointPos--;
        }
        int last = all.length();
        while (last > first + 1 && all.charAt(last - 1) == '0') {
            last--;
        }
        String d = all.substring(first, last);
        if (d.length() >= (single ? SHORTEST_CHECK_FLOAT_DIGITS : SHORTEST_CHECK_DIGITS)) {
            // Before JDK 19, Double.toString and Float.toString may give a digit or two more than round-tripping
            // needs (JDK-4511638); the shortest form is the nearest decimal that still round-trips.
            BigDecimal exact = new BigDecimal(v);
            for (int p = d.length() - 1; p > 0; p--) {
                BigDecimal shorter = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
                if (single ? shorter.floatValue() != (float) v : shorter.doubleValue() != v) {
                    break;
                }
                String digits = shorter.unscaledValue().toString();
                int trimmed = digits.length();
                while (trimmed > 1 && digits.charAt(trimmed - 1) == '0') {
                    trimmed--;
                }
                pointPos = digits.length() - shorter.scale();
                d = digits.substring(0, trimmed);
            }
        }
        int exp10 = pointPos - 1;
        if (exp10 >= -4 && exp10 < 16) {
            if (exp10 >= 0) {
                for (int i = 0; i <= exp10; i++) {
                    buf[pos++] = (byte) (i < d.length() ? d.charAt(i) : '0');
                }
                buf[pos++] = '.';
                if (d.length() > exp10 + 1) {
                    pos = put(buf, pos, d.substring(exp10 + 1));
                } else {
                    buf[pos++] = '0';
                }
            } else {
                buf[pos++] = '0';
                buf[pos++] = '.';
                for (int i = 0; i < -exp10 - 1; i++) {
                    buf[pos++] = '0';
                }
                pos = put(buf, pos, d);
            }
            return pos;
        }
        buf[pos++] = (byte) d.charAt(0);
        if (d.length() > 1) {
            buf[pos++] = '.';
            pos = put(buf, pos, d.substring(1));
        }
        buf[pos++] = 'e';
        buf[pos++] = (byte) (exp10 < 0 ? '-' : '+');
        return Dates.digits(Math.abs(exp10), 2, buf, pos);
    }

    private static int put(byte[] buf, int pos, String ascii) {
        for (int i = 0; i < ascii.length(); i++) {
            buf[pos++] = (byte) ascii.charAt(i);
        }
        return pos;
    }
}
