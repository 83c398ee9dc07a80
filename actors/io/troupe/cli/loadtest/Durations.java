package io.troupe.cli.loadtest;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The durations of loadtest's options: a number and a unit, {@code 500ms}, {@code 30s},
 * {@code 1.5m}, {@code 2h}; a bare number is seconds. Stateless.
 */
final class Durations {

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?");

    private Durations() {
    }

    /**
     * The duration {@code text} says (0 allowed).
     *
     * @throws IllegalArgumentException saying what a duration looks like
     */
    static Duration parse(String text) {
        Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("expected a duration like 500ms, 30s, 1.5m or 2h, got '" + text + "'");
        }
        BigDecimal amount = new BigDecimal(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        BigDecimal millis = switch (unit) {
            case "ms" -> amount;
            case "s" -> amount.movePointRight(3);
            case "m" -> amount.multiply(BigDecimal.valueOf(60_000));
            default -> amount.multiply(BigDecimal.valueOf(3_600_000));
        };
        if (millis.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 1_000_000)) > 0) {
            throw new IllegalArgumentException("duration '" + text + "' is too long");
        }
        return Duration.ofNanos(millis.movePointRight(6).longValue());
    }

    /** {@code d} as the options write it: 500ms, 30s, 1.5s. */
    static String format(Duration d) {
        if (d.toMillis() < 1000) {
            return d.toMillis() + "ms";
        }
        return BigDecimal.valueOf(d.toMillis()).movePointLeft(3).stripTrailingZeros().toPlainString() + "s";
    }

    /** picocli's converter for loadtest's durations. */
    static final class Converter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
