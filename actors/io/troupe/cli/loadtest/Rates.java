package io.troupe.cli.loadtest;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * The {@code --rate} of loadtest: queries a second, written {@code 20/s}, {@code 0.5/s} or
 * {@code 20}; a minute's rate as {@code 90/m}. Stateless.
 */
final class Rates {

    private Rates() {
    }

    /**
     * Queries a second in {@code text}.
     *
     * @throws IllegalArgumentException saying what a rate looks like, when it is not one or not positive
     */
    static double parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        double per = 1;
        if (t.endsWith("/s")) {
            t = t.substring(0, t.length() - 2);
        } else if (t.endsWith("/m")) {
            t = t.substring(0, t.length() - 2);
            per = 60;
        }
        double value;
        try {
            value = Double.parseDouble(t.trim());
        } catch (NumberFormatException e) {
            value = Double.NaN;
        }
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("expected a positive rate of queries like 20/s, 0.5/s or 90/m, got '"
                    + text + "'");
        }
        return value / per;
    }

    /** {@code perSecond} without trailing zeros: 20, 0.5. */
    static String format(double perSecond) {
        return BigDecimal.valueOf(perSecond).stripTrailingZeros().toPlainString();
    }

    /** picocli's converter for {@code --rate}. */
    static final class Converter implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
