package io.troupe.operators.expr;

import io.troupe.operators.types.Dates;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A compiled date and time format: literal text and fields, read from DuckDB's strftime codes ({@code
 * %Y-%m-%d}, {@link StrftimePattern}) or PostgreSQL's to_char patterns ({@code YYYY-MM-DD}, {@link
 * ToCharPattern}). {@link #format} writes one local time's text into a caller's buffer, allocating nothing;
 * {@link StrptimeParser} and {@link ToCharParser} read text back in each dialect's way.
 *
 * <p>Immutable and threadsafe.
 */
final class DateTimeFormat {

    /** Whose codes, and so whose rules of writing and reading. */
    enum Dialect {
        /** DuckDB's strftime and strptime. */
        STRFTIME,
        /** PostgreSQL's to_char, to_date and to_timestamp. */
        TO_CHAR
    }

    /** What one item of a format writes. */
    enum Code {
        /** The item's literal bytes. */
        LITERAL,
        // ---- numbers (width: digits, zero-padded; 0 none)
        /** strftime's %Y: four digits from 0 to 9999, else the signed astronomical year. */
        YEAR_SIGNED,
        /** strftime's %G: the ISO year as %Y writes a year. */
        ISO_YEAR_SIGNED,
        /**
         * to_char's YYYY, YYY, YY and Y: the year's last {@link Item#style} digits (4: all), BC years counted up
         * from 1.
         */
        YEAR,
        /** to_char's IYYY, IYY, IY and I: the ISO year as YEAR writes a year. */
        ISO_YEAR,
        /** strftime's %y: the astronomical year's last two digits. */
        YEAR_OF_CENTURY,
        /** to_char's Y,YYY. */
        YEAR_WITH_COMMA,
        MONTH,
        DAY,
        HOUR,
        /** 1 to 12. */
        HOUR_OF_HALF_DAY,
        MINUTE,
        SECOND,
        /** The microseconds of the second, to {@code width} digits (3: milliseconds), truncated. */
        FRACTION,
        /** to_char's SSSS: seconds since midnight. */
        SECOND_OF_DAY,
        DAY_OF_YEAR,
        ISO_DAY_OF_YEAR,
        /** strftime's %w: 0 for Sunday. */
        DAY_OF_WEEK,
        /** to_char's D: 1 for Sunday. */
        DAY_OF_WEEK_FROM_ONE,
        /** 1 for Monday to 7. */
        ISO_DAY_OF_WEEK,
        /** to_char's W: the week of the month, days 1-7 being 1. */
        WEEK_OF_MONTH,
        /** to_char's WW: the week of the year, days 1-7 being 1. */
        WEEK_OF_YEAR,
        ISO_WEEK,
        /** strftime's %U, weeks from Sunday. */
        WEEK_FROM_SUNDAY,
        /** strftime's %W, weeks from Monday. */
        WEEK_FROM_MONDAY,
        /** to_char's CC: 21 for 2001 to 2100, -1 for 100 BC to 1 BC. */
        CENTURY,
        /** to_char's J: the Julian day. */
        JULIAN_DAY,
        QUARTER,
        // ---- text
        MONTH_NAME,
        MONTH_ABBREVIATION,
        DAY_NAME,
        DAY_ABBREVIATION,
        /** AM or PM; {@link Item#style} picks AM, am, A.M. or a.m. */
        MERIDIEM,
        /** AD or BC, styled as MERIDIEM. */
        ERA,
        /** The month in Roman numerals. */
        ROMAN_MONTH,
        /** strftime's %z: +HH, +HH:MM or +HH:MM:SS. */
        OFFSET,
        /** to_char's OF: +HH or +HH:MM. */
        OFFSET_HOURS_MINUTES,
        /** to_char's TZH: +HH. */
        OFFSET_HOURS,
        /** to_char's TZM: the offset's minutes. */
        OFFSET_MINUTES,
        /** strftime's %Z: the zone's name; empty for a time without a zone. */
        ZONE_NAME,
        /** to_char's FX: parse in fixed mode from here; writes nothing. */
        FIXED
    }

    /** Letter case of a name or an AM/AD marker. */
    static final int UPPER = 0;
    static final int INITCAP = 1;
    static final int LOWER = 2;
    /** With periods: A.M., a.m. (added to UPPER or LOWER). */
    static final int DOTTED = 4;

    /**
     * One item: {@code code} with its {@code literal} bytes (LITERAL), its zero-padded {@code width} (0: as
     * many digits as it has), its {@code style} (letter case of names; for FRACTION and YEAR the digits
     * kept), whether a name is padded to nine characters as to_char pads it ({@code padded}), and an ordinal
     * suffix after a number ({@code ordinal}: 0, or UPPER for 1ST, LOWER for 1st). {@code name} is the code
     * as the user wrote it, for errors.
     */
    record Item(Code code, byte[] literal, int width, int style, boolean padded, int ordinal, String name) {

        static Item literal(String text) {
            return new Item(Code.LITERAL, text.getBytes(StandardCharsets.UTF_8), 0, 0, false, -1, text);
        }
    }

    static final String[] MONTH_NAMES = {"January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December"};
    static final String[] DAY_NAMES = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
    static final String[] MONTH_ABBREVIATIONS = abbreviations(MONTH_NAMES);
    static final String[] DAY_ABBREVIATIONS = abbreviations(DAY_NAMES);
    static final String[] ROMAN = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"};
    /** Day 1 of 1970 as a Julian day. */
    private static final int JULIAN_EPOCH = 2_440_588;

    private final Dialect dialect;
    private final String text;
    private final List<Item> items;
    /** The items as an array, which the per-row loop walks without an iterator. */
    private final Item[] itemArray;
    private final int maxLength;

    DateTimeFormat(Dialect dialect, String text, List<Item> items) {
        this.dialect = dialect;
        this.text = text;
        this.items = List.copyOf(items);
        this.itemArray = this.items.toArray(new Item[0]);
        int length = 0;
        for (Item item : this.items) {
            length += item.code() == Code.LITERAL ? item.literal().length : 24;
        }
        this.maxLength = length;
    }

    /**
     * {@code text} compiled in {@code dialect}, for formatting or ({@code parsing}) for reading.
     *
     * @throws IllegalArgumentException naming a code the dialect does not have, or one that cannot be read
     */
    static DateTimeFormat compile(Dialect dialect, String text, boolean parsing) {
        return dialect == Dialect.STRFTIME ? StrftimePattern.compile(text, parsing)
                : ToCharPattern.compile(text, parsing);
    }

    Dialect dialect() {
        return dialect;
    }

    /** The format as written. */
    String text() {
        return text;
    }

    List<Item> items() {
        return items;
    }

    /** True when the format has an offset from UTC (strftime's %z), which makes text an instant. */
    boolean hasOffset() {
        return items.stream().anyMatch(i -> i.code() == Code.OFFSET || i.code() == Code.OFFSET_HOURS
                || i.code() == Code.OFFSET_HOURS_MINUTES || i.code() == Code.OFFSET_MINUTES);
    }

    /** The most bytes one value's text takes, besides a zone's name. */
    int maxLength() {
        return maxLength;
    }

    /**
     * Writes {@code f}'s text at {@code pos} of {@code out} (room for {@link #maxLength} and the zone's name);
     * returns the end. {@code zoneName} is written for %Z (null: nothing).
     */
    int format(DateTimeFields f, byte[] zoneName, byte[] out, int pos) {
        for (Item item : itemArray) {
            pos = write(item, f, zoneName, out, pos);
        }
        return pos;
    }

    private static int write(Item item, DateTimeFields f, byte[] zoneName, byte[] out, int pos) {
        return switch (item.code()) {
            case LITERAL -> {
                System.arraycopy(item.literal(), 0, out, pos, item.literal().length);
                yield pos + item.literal().length;
            }
            case YEAR_SIGNED, ISO_YEAR_SIGNED -> {
                int year = item.code() == Code.ISO_YEAR_SIGNED ? f.isoYear() : f.year;
                yield year >= 0 && year <= 9999 ? Dates.digits(year, 4, out, pos) : signed(year, out, pos);
            }
            case YEAR, ISO_YEAR -> {
                int year = positiveYear(item.code() == Code.ISO_YEAR ? f.isoYear() : f.year);
                yield number(item, item.style() >= 4 ? year : year % pow10(item.style()), out, pos);
            }
            case YEAR_OF_CENTURY -> number(item, Math.abs(f.year) % 100, out, pos);
            case YEAR_WITH_COMMA -> {
                int year = positiveYear(f.year);
                pos = signed(year / 1000, out, pos);
                out[pos++] = ',';
                yield number(item, year % 1000, out, pos);
            }
            case MONTH -> number(item, f.month, out, pos);
            case DAY -> number(item, f.day, out, pos);
            case HOUR -> number(item, f.hour, out, pos);
            case HOUR_OF_HALF_DAY -> number(item, f.hour % 12 == 0 ? 12 : f.hour % 12, out, pos);
            case MINUTE -> number(item, f.minute, out, pos);
            case SECOND -> number(item, f.second, out, pos);
            case FRACTION -> number(item, f.micros / pow10(6 - item.style()), out, pos);
            case SECOND_OF_DAY -> number(item, f.hour * 3600 + f.minute * 60 + f.second, out, pos);
            case DAY_OF_YEAR -> number(item, f.dayOfYear(), out, pos);
            case ISO_DAY_OF_YEAR -> number(item, f.isoDayOfYear(), out, pos);
            case DAY_OF_WEEK -> number(item, f.dayOfWeek(), out, pos);
            case DAY_OF_WEEK_FROM_ONE -> number(item, f.dayOfWeek() + 1, out, pos);
            case ISO_DAY_OF_WEEK -> number(item, f.isoDayOfWeek(), out, pos);
            case WEEK_OF_MONTH -> number(item, (f.day - 1) / 7 + 1, out, pos);
            case WEEK_OF_YEAR -> number(item, (f.dayOfYear() - 1) / 7 + 1, out, pos);
            case ISO_WEEK -> number(item, f.isoWeek(), out, pos);
            case WEEK_FROM_SUNDAY -> number(item, f.weekStartingOn(false), out, pos);
            case WEEK_FROM_MONDAY -> number(item, f.weekStartingOn(true), out, pos);
            case CENTURY -> century(item, f.year, out, pos);
            case JULIAN_DAY -> number(item, f.days + JULIAN_EPOCH, out, pos);
            case QUARTER -> number(item, (f.month - 1) / 3 + 1, out, pos);
            case MONTH_NAME -> name(item, MONTH_NAMES[f.month - 1], item.padded() ? 9 : 0, out, pos);
            case MONTH_ABBREVIATION -> name(item, MONTH_ABBREVIATIONS[f.month - 1], 0, out, pos);
            case DAY_NAME -> name(item, DAY_NAMES[f.dayOfWeek()], item.padded() ? 9 : 0, out, pos);
            case DAY_ABBREVIATION -> name(item, DAY_ABBREVIATIONS[f.dayOfWeek()], 0, out, pos);
            case MERIDIEM -> marker(item, f.hour >= 12 ? 'P' : 'A', 'M', out, pos);
            case ERA -> f.year <= 0 ? marker(item, 'B', 'C', out, pos) : marker(item, 'A', 'D', out, pos);
            case ROMAN_MONTH -> name(item, ROMAN[f.month - 1], item.padded() ? 4 : 0, out, pos);
            case OFFSET, OFFSET_HOURS_MINUTES, OFFSET_HOURS -> offset(item, f.offsetSeconds, out, pos);
            case OFFSET_MINUTES -> Dates.digits(Math.abs(f.offsetSeconds) % 3600 / 60, 2, out, pos);
            case ZONE_NAME -> {
                if (zoneName == null) {
                    yield pos;
                }
                System.arraycopy(zoneName, 0, out, pos, zoneName.length);
                yield pos + zoneName.length;
            }
            case FIXED -> pos;
        };
    }

    private static String[] abbreviations(String[] names) {
        String[] abbreviated = new String[names.length];
        for (int i = 0; i < names.length; i++) {
            abbreviated[i] = names[i].substring(0, 3);
        }
        return abbreviated;
    }

    /** A year BC as to_char numbers it: 1 BC is 1. */
    static int positiveYear(int year) {
        return year <= 0 ? 1 - year : year;
    }

    private static int pow10(int digits) {
        int p = 1;
        for (int i = 0; i < digits; i++) {
            p *= 10;
        }
        return p;
    }

    /** A non-negative number zero-padded to the item's width, and its ordinal suffix if asked. */
    private static int number(Item item, long value, byte[] out, int pos) {
        int start = pos;
        pos = Dates.digits(value, item.width(), out, pos);
        return item.ordinal() < 0 ? pos : ordinal(item.ordinal(), out, start, pos);
    }

    private static int signed(long value, byte[] out, int pos) {
        if (value < 0) {
            out[pos++] = '-';
        }
        return Dates.digits(Math.abs(value), 1, out, pos);
    }

    /** to_char's CC: two digits (three with a minus) unless FM, the century counted from 1 both ways. */
    private static int century(Item item, int year, byte[] out, int pos) {
        int century = year > 0 ? (year - 1) / 100 + 1 : year / 100 - 1;
        int start = pos;
        if (century < 0) {
            out[pos++] = '-';
        }
        pos = Dates.digits(Math.abs(century), item.width() == 0 ? 0 : 2, out, pos);
        return item.ordinal() < 0 ? pos : ordinal(item.ordinal(), out, start, pos);
    }

    /** PostgreSQL's ST, ND, RD or TH after the number at [start, end): TH for 11-13. */
    private static int ordinal(int style, byte[] out, int start, int end) {
        int last = out[end - 1] - '0';
        boolean teen = end - start > 1 && out[end - 2] == '1';
        String suffix = teen ? "th" : switch (last) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
        for (int i = 0; i < 2; i++) {
            char c = suffix.charAt(i);
            out[end++] = (byte) (style == UPPER ? Character.toUpperCase(c) : c);
        }
        return end;
    }

    /** A name in the item's letter case, padded with spaces to {@code width}. */
    private static int name(Item item, String name, int width, byte[] out, int pos) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            out[pos++] = (byte) switch (item.style()) {
                case UPPER -> Character.toUpperCase(c);
                case LOWER -> Character.toLowerCase(c);
                default -> c;
            };
        }
        for (int i = name.length(); i < width; i++) {
            out[pos++] = ' ';
        }
        return pos;
    }

    /** AM/PM or AD/BC: two letters, with periods if DOTTED, lower case if LOWER. */
    private static int marker(Item item, char first, char second, byte[] out, int pos) {
        boolean lower = (item.style() & LOWER) != 0;
        boolean dotted = (item.style() & DOTTED) != 0;
        out[pos++] = (byte) (lower ? Character.toLowerCase(first) : first);
        if (dotted) {
            out[pos++] = '.';
        }
        out[pos++] = (byte) (lower ? Character.toLowerCase(second) : second);
        if (dotted) {
            out[pos++] = '.';
        }
        return pos;
    }

    /** +HH, then :MM (and for %z :SS) where they are not zero; TZH the hours alone. */
    private static int offset(Item item, int seconds, byte[] out, int pos) {
        int abs = Math.abs(seconds);
        out[pos++] = (byte) (seconds < 0 ? '-' : '+');
        pos = Dates.digits(abs / 3600, item.width(), out, pos);
        if (item.code() == Code.OFFSET_HOURS) {
            return pos;
        }
        if (abs % 3600 != 0 || item.code() == Code.OFFSET && abs % 60 != 0) {
            out[pos++] = ':';
            pos = Dates.digits(abs / 60 % 60, 2, out, pos);
        }
        if (item.code() == Code.OFFSET && abs % 60 != 0) {
            out[pos++] = ':';
            pos = Dates.digits(abs % 60, 2, out, pos);
        }
        return pos;
    }
}
