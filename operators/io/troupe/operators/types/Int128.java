package io.troupe.operators.types;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Signed 128-bit integers held as two longs, a signed high word and an unsigned low word: the unscaled values of
 * the decimals wider than a long ({@link DataType#isWideDecimal}, precision 19 to 38). Arithmetic works on the
 * words and reports overflow past 128 bits by a return value, so that a kernel's loop stays on primitives; what
 * needs division (a scale dropped, text, a remainder) goes through {@link BigInteger}, as it is rare.
 *
 * <p>Results of two words land in a caller's arrays at a row ({@code high[row]}, {@code low[row]}).
 *
 * <p>Stateless; threadsafe.
 */
public final class Int128 {

    /** The largest number of decimal digits every value of which fits: 10^38 &lt; 2^127. */
    public static final int MAX_DIGITS = 38;

    private static final long[] POW10_HIGH = new long[MAX_DIGITS + 1];
    private static final long[] POW10_LOW = new long[MAX_DIGITS + 1];

    static {
        BigInteger p = BigInteger.ONE;
        for (int i = 0; i <= MAX_DIGITS; i++) {
            POW10_HIGH[i] = high(p);
            POW10_LOW[i] = p.longValue();
            p = p.multiply(BigInteger.TEN);
        }
    }

    private Int128() {
    }

    /** True when the value fits a long: its high word only extends the low word's sign. */
    public static boolean isLong(long high, long low) {
        return high == low >> 63;
    }

    /** The high word of a long's value. */
    public static long highOf(long value) {
        return value >> 63;
    }

    /** Orders two values as signed 128-bit numbers. */
    public static int compare(long aHigh, long aLow, long bHigh, long bLow) {
        int c = Long.compare(aHigh, bHigh);
        return c != 0 ? c : Long.compareUnsigned(aLow, bLow);
    }

    /** True when {@code |value| >= 10^digits}, for 0 &lt;= digits &lt;= 38. */
    public static boolean hasMoreDigits(long high, long low, int digits) {
        if (high < 0) {
            long negLow = -low;
            high = ~high + (low == 0 ? 1 : 0);
            low = negLow;
            if (high < 0) {
                return true; // -2^127, which has no positive counterpart
            }
        }
        return compare(high, low, POW10_HIGH[digits], POW10_LOW[digits]) >= 0;
    }

    /** 10^n's high word, 0 &lt;= n &lt;= 38. */
    public static long pow10High(int n) {
        return POW10_HIGH[n];
    }

    /** 10^n's low word, 0 &lt;= n &lt;= 38. */
    public static long pow10Low(int n) {
        return POW10_LOW[n];
    }

    /** The exact product of two longs into {@code high[row]}, {@code low[row]}; it always fits. */
    public static void multiply(long a, long b, long[] high, long[] low, int row) {
        high[row] = Math.multiplyHigh(a, b);
        low[row] = a * b;
    }

    /**
     * {@code a + b} into {@code high[row]}, {@code low[row]}.
     *
     * @return false when the sum passes 128 bits (the words then hold it wrapped)
     */
    public static boolean add(long aHigh, long aLow, long bHigh, long bLow, long[] high, long[] low, int row) {
        long lo = aLow + bLow;
        long hi = aHigh + bHigh + (Long.compareUnsigned(lo, aLow) < 0 ? 1 : 0);
        high[row] = hi;
        low[row] = lo;
        return ((aHigh ^ hi) & (bHigh ^ hi)) >= 0;
    }

    /**
     * {@code a - b} into {@code high[row]}, {@code low[row]}.
     *
     * @return false when the difference passes 128 bits
     */
    public static boolean subtract(long aHigh, long aLow, long bHigh, long bLow, long[] high, long[] low, int row) {
        long lo = aLow - bLow;
        long hi = aHigh - bHigh - (Long.compareUnsigned(aLow, bLow) < 0 ? 1 : 0);
        high[row] = hi;
        low[row] = lo;
        return ((aHigh ^ bHigh) & (aHigh ^ hi)) >= 0;
    }

    /**
     * {@code a * b} into {@code high[row]}, {@code low[row]}: two longs' product directly, anything larger
     * through {@link BigInteger}.
     *
     * @return false when the product passes 127 bits and a sign
     */
    public static boolean multiply(long aHigh, long aLow, long bHigh, long bLow, long[] high, long[] low, int row) {
        if (isLong(aHigh, aLow) && isLong(bHigh, bLow)) {
            multiply(aLow, bLow, high, low, row);
            return true;
        }
        return set(toBigInteger(aHigh, aLow).multiply(toBigInteger(bHigh, bLow)), high, low, row);
    }

    /**
     * The unscaled value {@code high:low} at scale {@code fromScale} moved to {@code toScale} (both 0 to 38), into
     * {@code outHigh[row]}, {@code outLow[row]}: multiplied up, or divided down rounding half away from zero.
     *
     * @return false when the result passes 128 bits
     */
    public static boolean rescale(long high, long low, int fromScale, int toScale, long[] outHigh, long[] outLow,
                                  int row) {
        if (toScale >= fromScale) {
            int k = toScale - fromScale;
            return multiply(high, low, POW10_HIGH[k], POW10_LOW[k], outHigh, outLow, row);
        }
        int k = fromScale - toScale;
        if (isLong(high, low) && k <= DataType.MAX_LONG_PRECISION) {
            long v = Decimals.rescale(low, fromScale, toScale);
            outHigh[row] = highOf(v);
            outLow[row] = v;
            return true;
        }
        BigInteger divisor = BigInteger.TEN.pow(k);
        BigInteger[] qr = toBigInteger(high, low).divideAndRemainder(divisor);
        BigInteger q = qr[0];
        if (qr[1].abs().shiftLeft(1).compareTo(divisor) >= 0) {
            q = q.add(BigInteger.valueOf(qr[1].signum()));
        }
        return set(q, outHigh, outLow, row);
    }

    /** {@code -value}'s high word; its low word is {@code -low}. Exact for every value but -2^127. */
    public static long negateHigh(long high, long low) {
        return ~high + (low == 0 ? 1 : 0);
    }

    /**
     * {@code value} into {@code high[row]}, {@code low[row]}.
     *
     * @return false when it does not fit 128 bits
     */
    public static boolean set(BigInteger value, long[] high, long[] low, int row) {
        if (value.bitLength() > 127) {
            return false;
        }
        high[row] = high(value);
        low[row] = value.longValue();
        return true;
    }

    /** The high word of a value of at most 127 bits and a sign; its low word is {@code value.longValue()}. */
    public static long high(BigInteger value) {
        return value.shiftRight(64).longValue();
    }

    public static BigInteger toBigInteger(long high, long low) {
        if (isLong(high, low)) {
            return BigInteger.valueOf(low);
        }
        byte[] bytes = new byte[2 * Long.BYTES];
        for (int i = 0; i < Long.BYTES; i++) {
            bytes[i] = (byte) (high >>> (56 - 8 * i));
            bytes[Long.BYTES + i] = (byte) (low >>> (56 - 8 * i));
        }
        return new BigInteger(bytes);
    }

    /** The decimal of unscaled value {@code high:low} at {@code scale}. */
    public static BigDecimal toBigDecimal(long high, long low, int scale) {
        return isLong(high, low) ? BigDecimal.valueOf(low, scale) : new BigDecimal(toBigInteger(high, low), scale);
    }

    /** The value as the nearest double. */
    public static double toDouble(long high, long low) {
        if (isLong(high, low)) {
            return low;
        }
        return toBigInteger(high, low).doubleValue();
    }
}
