package io.troupe.operators.types;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Exact arithmetic on decimals held as unscaled longs (see {@link DataType}). Overflow past the
 * 18 digits a long holds is an {@link ArithmeticException}, never a silent wrap.
 */
public final class Decimals {

    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        long p = 1;
        for (int i = 0; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = p;
            p *= 10;
        }
    }

    private static final double[] DOUBLE_POWERS_OF_TEN = new double[Int128.MAX_DIGITS + 1];

    static {
        for (int i = 0; i < DOUBLE_POWERS_OF_TEN.length; i++) {
            DOUBLE_POWERS_OF_TEN[i] = Double.parseDouble("1e" + i);
        }
    }

    private Decimals() {
    }

    /** 10^n as the nearest double, for 0 <= n <= 38: a wide decimal's scale. */
    public static double pow10Double(int n) {
        return DOUBLE_POWERS_OF_TEN[n];
    }

    /** 10^n for 0 <= n <= 18. */
    public static long pow10(int n) {
        return POWERS_OF_TEN[n];
    }

    /** Changes the scale of an unscaled value, rounding half away from zero when scale drops. */
    public static long rescale(long unscaled, int fromScale, int toScale) {
        if (toScale >= fromScale) {
            return Math.multiplyExact(unscaled, POWERS_OF_TEN[toScale - fromScale]);
        }
        long divisor = POWERS_OF_TEN[fromScale - toScale];
        long quotient = unscaled / divisor;
        long remainder = unscaled % divisor;
        if (Math.abs(remainder) * 2 >= divisor) {
            quotient += unscaled < 0 ? -1 : 1;
        }
        return quotient;
    }

    public static BigDecimal toBigDecimal(long unscaled, int scale) {
        return BigDecimal.valueOf(unscaled, scale);
    }

    /** The unscaled value of {@code value} at {@code scale}, rounding half away from zero. */
    public static long fromBigDecimal(BigDecimal value, int scale) {
        return value.setScale(scale, RoundingMode.HALF_UP).unscaledValue().longValueExact();
    }

    public static double toDouble(long unscaled, int scale) {
        return unscaled / (double) POWERS_OF_TEN[scale];
    }
}
