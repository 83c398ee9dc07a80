package io.troupe.operators.expr;

import io.troupe.operators.expr.DateTimeFormat.Code;
import io.troupe.operators.expr.DateTimeFormat.Item;

import java.util.ArrayList;
import java.util.List;

import static io.troupe.operators.expr.DateTimeFormat.DOTTED;
import static io.troupe.operators.expr.DateTimeFormat.INITCAP;
import static io.troupe.operators.expr.DateTimeFormat.LOWER;
import static io.troupe.operators.expr.DateTimeFormat.UPPER;

/**
 * PostgreSQL's to_char patterns, compiled to a {@link DateTimeFormat} as PostgreSQL's parse_format reads them:
 * at each place the longest keyword of its table (case matters: {@code Month}, {@code MONTH}, {@code month}),
 * with the prefixes FM (no padding), TM (names unpadded; the names are English) and the suffixes TH/th (an
 * ordinal, 1ST/1st) and SP (ignored, as PostgreSQL ignores it); text in double quotes as it is, a backslash
 * before a quote; any other character as itself. Numbers are zero-padded to their pattern's width, full
 * month and day names padded to nine characters. TZ and tz (the zone's abbreviation) are refused by name:
 * Java's zone rules have no abbreviations; OF, TZH and TZM give the offset. to_date and to_timestamp read
 * the patterns of dates and times; the ISO-week and week patterns they refuse by name.
 *
 * <p>Stateless; threadsafe.
 */
final class ToCharPattern {

    /** A keyword and its item: code, width, style; in PostgreSQL's order of search (longer before shorter). */
    private record Keyword(String name, Code code, int width, int style) {
    }

    private static final List<Keyword> KEYWORDS = new ArrayList<>();

    static {
        for (String letterCase : new String[] {"upper", "lower"}) {
            boolean lower = letterCase.equals("lower");
            int markerStyle = lower ? LOWER : UPPER;
            add(lower, "A.D.", Code.ERA, 0, markerStyle | DOTTED);
            add(lower, "A.M.", Code.MERIDIEM, 0, markerStyle | DOTTED);
            add(lower, "AD", Code.ERA, 0, markerStyle);
            add(lower, "AM", Code.MERIDIEM, 0, markerStyle);
            add(lower, "B.C.", Code.ERA, 0, markerStyle | DOTTED);
            add(lower, "BC", Code.ERA, 0, markerStyle);
            add(lower, "CC", Code.CENTURY, 2, 0);
            add(lower, "DAY", Code.DAY_NAME, 0, lower ? LOWER : UPPER);
            add(lower, "DDD", Code.DAY_OF_YEAR, 3, 0);
            add(lower, "DD", Code.DAY, 2, 0);
            add(lower, "DY", Code.DAY_ABBREVIATION, 0, lower ? LOWER : UPPER);
            if (!lower) {
                KEYWORDS.add(new Keyword("Day", Code.DAY_NAME, 0, INITCAP));
                KEYWORDS.add(new Keyword("Dy", Code.DAY_ABBREVIATION, 0, INITCAP));
            }
            add(lower, "D", Code.DAY_OF_WEEK_FROM_ONE, 0, 0);
            for (int digits = 1; digits <= 6; digits++) {
                add(lower, "FF" + digits, Code.FRACTION, digits, digits);
            }
            add(lower, "FX", Code.FIXED, 0, 0);
            add(lower, "HH24", Code.HOUR, 2, 0);
            add(lower, "HH12", Code.HOUR_OF_HALF_DAY, 2, 0);
            add(lower, "HH", Code.HOUR_OF_HALF_DAY, 2, 0);
            add(lower, "IDDD", Code.ISO_DAY_OF_YEAR, 3, 0);
            add(lower, "ID", Code.ISO_DAY_OF_WEEK, 0, 0);
            add(lower, "IW", Code.ISO_WEEK, 2, 0);
            add(lower, "IYYY", Code.ISO_YEAR, 4, 4);
            add(lower, "IYY", Code.ISO_YEAR, 3, 3);
            add(lower, "IY", Code.ISO_YEAR, 2, 2);
            add(lower, "I", Code.ISO_YEAR, 1, 1);
            add(lower, "J", Code.JULIAN_DAY, 0, 0);
            add(lower, "MI", Code.MINUTE, 2, 0);
            add(lower, "MM", Code.MONTH, 2, 0);
            add(lower, "MONTH", Code.MONTH_NAME, 0, lower ? LOWER : UPPER);
            add(lower, "MON", Code.MONTH_ABBREVIATION, 0, lower ? LOWER : UPPER);
            add(lower, "MS", Code.FRACTION, 3, 3);
            if (!lower) {
                KEYWORDS.add(new Keyword("Month", Code.MONTH_NAME, 0, INITCAP));
                KEYWORDS.add(new Keyword("Mon", Code.MONTH_ABBREVIATION, 0, INITCAP));
            }
            add(lower, "OF", Code.OFFSET_HOURS_MINUTES, 2, 0);
            add(lower, "P.M.", Code.MERIDIEM, 0, markerStyle | DOTTED);
            add(lower, "PM", Code.MERIDIEM, 0, markerStyle);
            add(lower, "Q", Code.QUARTER, 0, 0);
            add(lower, "RM", Code.ROMAN_MONTH, 0, lower ? LOWER : UPPER);
            add(lower, "SSSSS", Code.SECOND_OF_DAY, 0, 0);
            add(lower, "SSSS", Code.SECOND_OF_DAY, 0, 0);
            add(lower, "SS", Code.SECOND, 2, 0);
            add(lower, "TZH", Code.OFFSET_HOURS, 2, 0);
            add(lower, "TZM", Code.OFFSET_MINUTES, 2, 0);
            add(lower, "TZ", null, 0, 0);
            add(lower, "US", Code.FRACTION, 6, 6);
            add(lower, "WW", Code.WEEK_OF_YEAR, 2, 0);
            add(lower, "W", Code.WEEK_OF_MONTH, 0, 0);
            add(lower, "Y,YYY", Code.YEAR_WITH_COMMA, 3, 0);
            add(lower, "YYYY", Code.YEAR, 4, 4);
            add(lower, "YYY", Code.YEAR, 3, 3);
            add(lower, "YY", Code.YEAR, 2, 2);
            add(lower, "Y", Code.YEAR, 1, 1);
        }
    }

    private static void add(boolean lower, String name, Code code, int width, int style) {
        KEYWORDS.add(new Keyword(lower ? name.toLowerCase(java.util.Locale.ROOT) : name, code, width, style));
    }

    /** Codes that to_date and to_timestamp do not read: the ISO week dates and the weeks of a year or month. */
    private static final java.util.Set<Code> NOT_READ = java.util.EnumSet.of(Code.ISO_DAY_OF_YEAR,
            Code.ISO_DAY_OF_WEEK, Code.ISO_WEEK, Code.ISO_YEAR, Code.WEEK_OF_YEAR, Code.WEEK_OF_MONTH);

    /** The style of a literal character that was in double quotes: text to skip, never a separator. */
    static final int QUOTED = 1;

    private ToCharPattern() {
    }

    /**
     * @throws IllegalArgumentException naming TZ or tz, or ({@code parsing}) a pattern to_date and to_timestamp
     *         do not read
     */
    static DateTimeFormat compile(String text, boolean parsing) {
        List<Item> items = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            boolean fill = false;
            boolean translated = false;
            if (text.startsWith("FM", i) || text.startsWith("fm", i)) {
                fill = true;
                i += 2;
            } else if (text.startsWith("TM", i) || text.startsWith("tm", i)) {
                translated = true;
                i += 2;
            }
            Keyword k = i < text.length() ? keyword(text, i) : null;
            if (k != null) {
                i += k.name().length();
                int ordinal = -1;
                if (text.startsWith("TH", i) || text.startsWith("th", i)) {
                    ordinal = text.charAt(i) == 'T' ? UPPER : LOWER;
                    i += 2;
                } else if (text.startsWith("SP", i)) {
                    i += 2;
                }
                items.add(item(k, fill, translated, ordinal, parsing));
                continue;
            }
            if (i >= text.length()) {
                break;
            }
            char c = text.charAt(i);
            if (c == '"') {
                StringBuilder quoted = new StringBuilder();
                for (i++; i < text.length() && text.charAt(i) != '"'; i++) {
                    if (text.charAt(i) == '\\' && i + 1 < text.length()) {
                        i++;
                    }
                    quoted.append(text.charAt(i));
                }
                i++;
                quoted.codePoints().forEach(q -> items.add(new Item(Code.LITERAL,
                        new String(Character.toChars(q)).getBytes(java.nio.charset.StandardCharsets.UTF_8), 0, QUOTED,
                        false, -1, new String(Character.toChars(q)))));
                continue;
            }
            if (c == '\\' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                i++;
            }
            int end = text.offsetByCodePoints(i, 1);
            items.add(Item.literal(text.substring(i, end)));
            i = end;
        }
        return new DateTimeFormat(DateTimeFormat.Dialect.TO_CHAR, text, items);
    }

    /** The first keyword of the table that the text at {@code i} starts with, or null. */
    private static Keyword keyword(String text, int i) {
        for (Keyword k : KEYWORDS) {
            if (text.startsWith(k.name(), i)) {
                return k;
            }
        }
        return null;
    }

    private static Item item(Keyword k, boolean fill, boolean translated, int ordinal, boolean parsing) {
        if (k.code() == null) {
            throw new IllegalArgumentException("the pattern \"" + k.name() + "\" (a time zone's abbreviation) is not "
                    + "supported; OF, TZH and TZM give the offset");
        }
        if (parsing && NOT_READ.contains(k.code())) {
            throw new IllegalArgumentException("to_date and to_timestamp do not read the pattern \"" + k.name()
                    + "\" (ISO week dates and weeks)");
        }
        boolean name = k.code() == Code.MONTH_NAME || k.code() == Code.DAY_NAME;
        boolean padded = !fill && !(name && translated);
        boolean fixedWidth = k.code() == Code.OFFSET_HOURS || k.code() == Code.OFFSET_MINUTES
                || k.code() == Code.FRACTION || k.code() == Code.YEAR_WITH_COMMA;
        int width = fill && !fixedWidth ? 0 : k.width();
        return new Item(k.code(), null, width, k.style(), padded, ordinal, k.name());
    }
}
