package io.troupe.operators.expr;

import io.troupe.operators.expr.DateTimeFormat.Code;
import io.troupe.operators.expr.DateTimeFormat.Item;

import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB's strftime and strptime codes, compiled to a {@link DateTimeFormat}: {@code %Y %y %G %m %d %j %H %I
 * %M %S %f %g %p %a %A %b %h %B %w %u %U %W %V %z %Z %%}, the unpadded {@code %-d %-m %-y %-H %-I %-M %-S %-j},
 * and {@code %c %x %X %T} as {@code %Y-%m-%d %H:%M:%S}, {@code %Y-%m-%d} and {@code %H:%M:%S}, as DuckDB
 * expands them. Anything else after {@code %} is refused by name, as DuckDB refuses it; {@code %n}
 * (nanoseconds) too, Troupe's times being microseconds. strptime reads the codes of dates, times and
 * offsets; the week codes ({@code %U %W %V %G %u %w}) and {@code %Z} it refuses by name.
 *
 * <p>Stateless; threadsafe.
 */
final class StrftimePattern {

    private StrftimePattern() {
    }

    /**
     * @throws IllegalArgumentException for an empty format, a lone % at the end, or a code DuckDB does not
     *         have (or, {@code parsing}, one strptime does not read), naming it
     */
    static DateTimeFormat compile(String text, boolean parsing) {
        if (text.isEmpty()) {
            throw new IllegalArgumentException("empty format string");
        }
        List<Item> items = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '%') {
                literal.append(c);
                continue;
            }
            if (i + 1 == text.length()) {
                throw new IllegalArgumentException("trailing format character % in \"" + text + "\"");
            }
            char code = text.charAt(++i);
            if (code == '%') {
                literal.append('%');
                continue;
            }
            boolean unpadded = code == '-' && i + 1 < text.length();
            if (unpadded) {
                code = text.charAt(++i);
            }
            String name = (unpadded ? "%-" : "%") + code;
            List<Item> expanded = expand(code, unpadded, name, parsing);
            if (expanded == null) {
                throw new IllegalArgumentException("unrecognized format for strftime/strptime: " + name);
            }
            if (!literal.isEmpty()) {
                items.add(Item.literal(literal.toString()));
                literal.setLength(0);
            }
            items.addAll(expanded);
        }
        if (!literal.isEmpty()) {
            items.add(Item.literal(literal.toString()));
        }
        return new DateTimeFormat(DateTimeFormat.Dialect.STRFTIME, text, items);
    }

    /** The items of one code, or null for a code DuckDB does not have. */
    private static List<Item> expand(char code, boolean unpadded, String name, boolean parsing) {
        if (unpadded) {
            return switch (code) {
                case 'd' -> one(Code.DAY, 0, name);
                case 'm' -> one(Code.MONTH, 0, name);
                case 'y' -> one(Code.YEAR_OF_CENTURY, 0, name);
                case 'H' -> one(Code.HOUR, 0, name);
                case 'I' -> one(Code.HOUR_OF_HALF_DAY, 0, name);
                case 'M' -> one(Code.MINUTE, 0, name);
                case 'S' -> one(Code.SECOND, 0, name);
                case 'j' -> one(Code.DAY_OF_YEAR, 0, name);
                default -> null;
            };
        }
        return switch (code) {
            case 'Y' -> one(Code.YEAR_SIGNED, 4, name);
            case 'y' -> one(Code.YEAR_OF_CENTURY, 2, name);
            case 'm' -> one(Code.MONTH, 2, name);
            case 'd' -> one(Code.DAY, 2, name);
            case 'j' -> one(Code.DAY_OF_YEAR, 3, name);
            case 'H' -> one(Code.HOUR, 2, name);
            case 'I' -> one(Code.HOUR_OF_HALF_DAY, 2, name);
            case 'M' -> one(Code.MINUTE, 2, name);
            case 'S' -> one(Code.SECOND, 2, name);
            case 'f' -> List.of(new Item(Code.FRACTION, null, 6, 6, false, -1, name));
            case 'g' -> List.of(new Item(Code.FRACTION, null, 3, 3, false, -1, name));
            case 'p' -> List.of(new Item(Code.MERIDIEM, null, 0, DateTimeFormat.UPPER, false, -1, name));
            case 'a' -> text(Code.DAY_ABBREVIATION, name);
            case 'A' -> text(Code.DAY_NAME, name);
            case 'b', 'h' -> text(Code.MONTH_ABBREVIATION, name);
            case 'B' -> text(Code.MONTH_NAME, name);
            case 'z' -> List.of(new Item(Code.OFFSET, null, 2, 0, false, -1, name));
            case 'c' -> expansion("%Y-%m-%d %H:%M:%S", parsing);
            case 'x' -> expansion("%Y-%m-%d", parsing);
            case 'X', 'T' -> expansion("%H:%M:%S", parsing);
            case 'w', 'u', 'U', 'W', 'V', 'G', 'Z' -> {
                if (parsing) {
                    throw new IllegalArgumentException("strptime does not read " + name + " (week dates and zone names)");
                }
                yield switch (code) {
                    case 'w' -> one(Code.DAY_OF_WEEK, 1, name);
                    case 'u' -> one(Code.ISO_DAY_OF_WEEK, 1, name);
                    case 'U' -> one(Code.WEEK_FROM_SUNDAY, 2, name);
                    case 'W' -> one(Code.WEEK_FROM_MONDAY, 2, name);
                    case 'V' -> one(Code.ISO_WEEK, 2, name);
                    case 'G' -> one(Code.ISO_YEAR_SIGNED, 4, name);
                    default -> List.of(new Item(Code.ZONE_NAME, null, 0, 0, false, -1, name));
                };
            }
            case 'n' -> throw new IllegalArgumentException(name + " (nanoseconds) is not supported: Troupe's times are "
                    + "microseconds, use %f");
            default -> null;
        };
    }

    private static List<Item> one(Code code, int width, String name) {
        return List.of(new Item(code, null, width, 0, false, -1, name));
    }

    /** A name as DuckDB writes it: capitalised, not padded. */
    private static List<Item> text(Code code, String name) {
        return List.of(new Item(code, null, 0, DateTimeFormat.INITCAP, false, -1, name));
    }

    private static List<Item> expansion(String format, boolean parsing) {
        return compile(format, parsing).items();
    }
}
