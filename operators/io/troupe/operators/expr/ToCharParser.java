package io.troupe.operators.expr;

import io.troupe.operators.expr.DateTimeFormat.Code;
import io.troupe.operators.expr.DateTimeFormat.Item;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Timestamps;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Reads text with a to_char pattern as PostgreSQL's to_date and to_timestamp do (its DCH_from_char and
 * do_to_timestamp): spaces before a field skipped; a space or separator of the pattern matching one space or
 * separator of the text, or none; other pattern characters skipping one character; a number of exactly its
 * pattern's width, unless FM or a non-digit next in the pattern let it take as many digits as there are;
 * names in any letter case; YY, YYY and Y completed to the year nearest 2020; CC with YY; BC; AM/PM with
 * HH12; SSSS; MS, US and FFn as fractions; TZH, TZM and OF as an offset; J as a Julian day; DDD as the day of
 * the year. Text past the pattern's end, and pattern past the text's, are ignored, as in PostgreSQL; FX
 * makes the following separators take one character each. Fields the pattern lacks are those of 0001-01-01
 * BC 00:00:00, PostgreSQL's zero. Text that does not match throws a {@link DomainException} in PostgreSQL's
 * words ({@code invalid value "ab" for "MM"}).
 *
 * <p>Not threadsafe: one per evaluation; it holds the last result.
 */
final class ToCharParser {

    /** The local time read, in microseconds. */
    long local;
    /** Whether the text gave an offset (TZH, TZM, OF), and it, in seconds east of UTC. */
    boolean hasOffset;
    int offsetSeconds;

    private byte[] data;
    private int from;
    private int s;
    private int end;
    private String text;

    // The fields read, as PostgreSQL's TmFromChar: 0 is "not given".
    private int hh;
    private int pm;
    private boolean twelveHour;
    private int mi;
    private int ss;
    private int ssss;
    private int dd;
    private int ddd;
    private int mm;
    private int ms;
    private int us;
    private int year;
    private int yearDigits;
    private int bc;
    private int cc;
    private int julian;
    private int tzSign;
    private int tzh;
    private int tzm;

    /**
     * Reads {@code data[from, to)}.
     *
     * @throws DomainException in PostgreSQL's words where the text does not match
     */
    void parse(DateTimeFormat format, byte[] data, int from, int to) {
        this.data = data;
        this.from = from;
        this.s = from;
        this.end = to;
        this.text = null;
        hh = pm = mi = ss = ssss = dd = ddd = mm = ms = us = year = yearDigits = bc = cc = julian = 0;
        tzSign = tzh = tzm = 0;
        twelveHour = false;
        List<Item> items = format.items();
        boolean fixed = false;
        int extraSkip = 0;
        for (int n = 0; n < items.size() && s < end; n++) {
            Item item = items.get(n);
            boolean field = item.code() != Code.LITERAL;
            if (!fixed && item.code() != Code.FIXED && (field || n == 0)) {
                extraSkip += skipSpaces();
            }
            if (!field) {
                byte c = item.literal()[0];
                boolean separator = item.style() != ToCharPattern.QUOTED && (isSpace(c) || isSeparator(c));
                if (separator && !fixed) {
                    extraSkip--;
                    if (isSpace(data[s]) || isSeparator(data[s])) {
                        s++;
                        extraSkip++;
                    }
                } else if (!fixed && extraSkip > 0) {
                    extraSkip--;
                } else {
                    s += charLength(data[s]);
                }
                continue;
            }
            if (item.code() == Code.FIXED) {
                fixed = true;
                continue;
            }
            field(item, items, n, extraSkip);
            if (!fixed) {
                extraSkip = skipSpaces();
            }
        }
        assemble(format);
    }

    private void field(Item item, List<Item> items, int n, int extraSkip) {
        switch (item.code()) {
            case MERIDIEM -> {
                pm = set(pm, marker(item, "am", "pm") + 1, item);
                twelveHour = true;
            }
            case ERA -> bc = set(bc, marker(item, "ad", "bc") + 1, item);
            case HOUR, HOUR_OF_HALF_DAY -> {
                hh = set(hh, integer(item, items, n, 2), item);
                twelveHour |= item.code() == Code.HOUR_OF_HALF_DAY;
            }
            case MINUTE -> mi = set(mi, integer(item, items, n, 2), item);
            case SECOND -> ss = set(ss, integer(item, items, n, 2), item);
            case FRACTION -> {
                int start = s;
                int value = integer(item, items, n, item.style());
                int digits = digitsRead(start);
                if (item.style() == 3) {
                    ms = set(ms, value * pow10(3 - digits), item);
                } else {
                    us = set(us, value * pow10(6 - digits), item);
                }
            }
            case SECOND_OF_DAY -> ssss = set(ssss, integer(item, items, n, item.name().length()), item);
            case OFFSET_HOURS, OFFSET_HOURS_MINUTES -> {
                if (s < end && (data[s] == '+' || data[s] == '-' || data[s] == ' ')) {
                    tzSign = data[s++] == '-' ? -1 : 1;
                } else {
                    tzSign = extraSkip > 0 && s > from && data[s - 1] == '-' ? -1 : 1;
                }
                tzh = set(tzh, integer(item, items, n, 2), item);
                if (item.code() == Code.OFFSET_HOURS_MINUTES && s < end && data[s] == ':') {
                    s++;
                    tzm = set(tzm, integer(item, items, n, 2), item);
                }
            }
            case OFFSET_MINUTES -> {
                if (tzSign == 0) {
                    tzSign = 1;
                }
                tzm = set(tzm, integer(item, items, n, 2), item);
            }
            case MONTH_NAME -> mm = set(mm, name(item, DateTimeFormat.MONTH_NAMES) + 1, item);
            case MONTH_ABBREVIATION -> mm = set(mm, name(item, DateTimeFormat.MONTH_ABBREVIATIONS) + 1, item);
            case MONTH -> mm = set(mm, integer(item, items, n, 2), item);
            case DAY_NAME -> name(item, DateTimeFormat.DAY_NAMES);
            case DAY_ABBREVIATION -> name(item, DateTimeFormat.DAY_ABBREVIATIONS);
            case DAY_OF_YEAR -> ddd = set(ddd, integer(item, items, n, 3), item);
            case DAY -> dd = set(dd, integer(item, items, n, 2), item);
            case DAY_OF_WEEK_FROM_ONE, QUARTER -> integer(item, items, n, 1);
            case CENTURY -> cc = set(cc, integer(item, items, n, 2), item);
            case YEAR_WITH_COMMA -> yearWithComma(item);
            case YEAR -> {
                int start = s;
                int value = integer(item, items, n, item.style());
                year = set(year, digitsRead(start) < 4 && item.style() < 4 ? nearest2020(value) : value, item);
                yearDigits = item.style();
            }
            case ROMAN_MONTH -> mm = set(mm, 12 - romanMonth(item), item);
            case JULIAN_DAY -> julian = set(julian, integer(item, items, n, 1), item);
            default -> throw new IllegalStateException("to_date reads no " + item.name());
        }
        if (item.ordinal() >= 0) {
            s = Math.min(end, s + 2);
        }
    }

    /** The digits (and sign) read since {@code start}, spaces not counted. */
    private int digitsRead(int start) {
        int p = start;
        while (p < s && isSpace(data[p])) {
            p++;
        }
        return s - p;
    }

    /** PostgreSQL's from_char_parse_int_len: a number of {@code width} characters, or more where it may. */
    private int integer(Item item, List<Item> items, int n, int width) {
        int init = s;
        while (s < end && isSpace(data[s])) {
            s++;
        }
        int available = Math.min(width, end - s);
        if (!item.padded() || nextIsSeparator(item, items, n)) {
            s = init;
            while (s < end && isSpace(data[s])) {
                s++;
            }
            int start = s;
            long value = digits(Integer.MAX_VALUE);
            if (s == start) {
                throw invalid(copy(start, available), item, "Value must be an integer.");
            }
            return range(value, item);
        }
        if (available < width) {
            throw new DomainException("source string too short for \"" + item.name() + "\" formatting field");
        }
        int start = s;
        long value = digits(width);
        int used = s - start;
        if (used == 0) {
            throw invalid(copy(start, width), item, "Value must be an integer.");
        }
        if (used < width) {
            throw invalid(copy(start, width), item, "Field requires " + width + " characters, but only " + used
                    + " could be parsed.");
        }
        return range(value, item);
    }

    /** An optional sign and then up to {@code max} characters of digits. */
    private long digits(int max) {
        int start = s;
        boolean negative = false;
        if (s < end && (data[s] == '-' || data[s] == '+')) {
            negative = data[s++] == '-';
        }
        long value = 0;
        int digits = 0;
        while (s < end && s - start < max && data[s] >= '0' && data[s] <= '9' && value <= Integer.MAX_VALUE) {
            value = value * 10 + data[s++] - '0';
            digits++;
        }
        if (digits == 0) {
            s = start;
        }
        return negative ? -value : value;
    }

    private int range(long value, Item item) {
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw new DomainException("value for \"" + item.name() + "\" in source string is out of range");
        }
        return (int) value;
    }

    /** PostgreSQL's is_next_separator: an ordinal suffix, the pattern's end, or a non-digit next. */
    private static boolean nextIsSeparator(Item item, List<Item> items, int n) {
        if (item.ordinal() >= 0 || n + 1 == items.size()) {
            return true;
        }
        Item next = items.get(n + 1);
        if (next.code() == Code.LITERAL) {
            byte[] b = next.literal();
            return !(b.length == 1 && b[0] >= '0' && b[0] <= '9');
        }
        return switch (next.code()) {
            case MONTH_NAME, MONTH_ABBREVIATION, DAY_NAME, DAY_ABBREVIATION, MERIDIEM, ERA, ROMAN_MONTH,
                    OFFSET_HOURS, OFFSET_HOURS_MINUTES, FIXED -> true;
            default -> false;
        };
    }

    /** Sets a field once: a second, different value conflicts, as PostgreSQL's from_char_set_int says. */
    private static int set(int current, int value, Item item) {
        if (current != 0 && current != value) {
            throw new DomainException("conflicting values for \"" + item.name() + "\" field in formatting string");
        }
        return value;
    }

    /** 0 for the first of two markers (am, ad), 1 for the second, in any case, with periods if the item has them. */
    private int marker(Item item, String first, String second) {
        boolean dotted = (item.style() & DateTimeFormat.DOTTED) != 0;
        for (int i = 0; i < 2; i++) {
            String m = i == 0 ? first : second;
            String spelled = dotted ? m.charAt(0) + "." + m.charAt(1) + "." : m;
            if (matches(spelled)) {
                s += spelled.length();
                return i;
            }
        }
        throw invalid(word(), item, "The given value did not match any of the allowed values for this field.");
    }

    private int name(Item item, String[] names) {
        for (int i = 0; i < names.length; i++) {
            if (matches(names[i])) {
                s += names[i].length();
                return i;
            }
        }
        throw invalid(word(), item, "The given value did not match any of the allowed values for this field.");
    }

    /** The index of the Roman month the text starts with, December first, as PostgreSQL searches them. */
    private int romanMonth(Item item) {
        for (int i = 11; i >= 0; i--) {
            if (matches(DateTimeFormat.ROMAN[i])) {
                s += DateTimeFormat.ROMAN[i].length();
                return 11 - i;
            }
        }
        throw invalid(word(), item, "The given value did not match any of the allowed values for this field.");
    }

    private boolean matches(String word) {
        if (end - s < word.length()) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (Character.toLowerCase((char) data[s + i]) != Character.toLowerCase(word.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private void yearWithComma(Item item) {
        int start = s;
        long thousands = digits(10);
        if (s == start || s >= end || data[s] != ',') {
            throw new DomainException("invalid input string for \"Y,YYY\"");
        }
        s++;
        int rest = s;
        long units = digits(3);
        if (s == rest) {
            throw new DomainException("invalid input string for \"Y,YYY\"");
        }
        year = set(year, range(thousands * 1000 + units, item), item);
        yearDigits = 4;
    }

    /** PostgreSQL's adjust_partial_year_to_2020. */
    private static int nearest2020(int year) {
        return year < 70 ? year + 2000 : year < 100 ? year + 1900 : year < 520 ? year + 2000
                : year < 1000 ? year + 1000 : year;
    }

    private static int pow10(int digits) {
        int p = 1;
        for (int i = 0; i < digits; i++) {
            p *= 10;
        }
        return p;
    }

    /** The fields as a time, as do_to_timestamp puts them together and checks them. */
    private void assemble(DateTimeFormat format) {
        int hour = 0;
        int minute = 0;
        int second = 0;
        if (ssss != 0) {
            hour = ssss / 3600;
            minute = ssss % 3600 / 60;
            second = ssss % 60;
        }
        second = ss != 0 ? ss : second;
        minute = mi != 0 ? mi : minute;
        hour = hh != 0 ? hh : hour;
        if (twelveHour) {
            if (hour < 1 || hour > 12) {
                throw new DomainException("hour \"" + hour + "\" is invalid for the 12-hour clock");
            }
            hour = pm == 2 && hour < 12 ? hour + 12 : pm != 2 && hour == 12 ? 0 : hour;
        }
        int y = 0;
        boolean yearGiven = year != 0 || cc != 0;
        if (year != 0) {
            if (cc != 0 && yearDigits <= 2) {
                int century = bc == 2 ? -cc : cc;
                int yy = year % 100;
                y = yy == 0 ? century * 100 + (century >= 0 ? 0 : 1)
                        : century >= 0 ? yy + (century - 1) * 100 : (century + 1) * 100 - yy + 1;
            } else {
                y = bc == 2 ? -year : year;
                if (y < 0) {
                    y++;
                }
            }
        } else if (cc != 0) {
            int century = bc == 2 ? -cc : cc;
            y = century >= 0 ? (century - 1) * 100 + 1 : century * 100 + 1;
        }
        int month = 1;
        int day = 1;
        if (julian != 0) {
            int days = julian - 2_440_588;
            y = Dates.year(days);
            month = Dates.month(days);
            day = Dates.dayOfMonth(days);
            yearGiven = true;
        }
        if (dd != 0) {
            day = dd;
        }
        if (mm != 0) {
            month = mm;
        }
        if (ddd != 0 && (month <= 1 || day <= 1)) {
            if (y == 0 && bc == 0) {
                throw new DomainException("cannot calculate day of year without year information");
            }
            int first = Dates.days(y, 1, 1);
            int target = first + ddd - 1;
            if (month <= 1) {
                month = Dates.month(target);
            }
            if (day <= 1) {
                day = Dates.dayOfMonth(target);
            }
        }
        boolean monthGiven = mm != 0 || julian != 0 || ddd != 0;
        boolean dayGiven = dd != 0 || julian != 0 || ddd != 0;
        if (monthGiven && (month < 1 || month > 12) || dayGiven && (day < 1 || day > 31)
                || yearGiven && monthGiven && dayGiven && day > Dates.daysInMonth(y, month)
                || hour < 0 || hour >= 24 || minute < 0 || minute >= 60 || second < 0 || second >= 60
                || ms * 1000L + us >= Timestamps.MICROS_PER_SECOND) {
            throw new DomainException("date/time field value out of range: \"" + text() + "\"");
        }
        long micros = (long) ms * 1000 + us;
        local = Timestamps.ofDay(Dates.days(y, month, day)) + hour * Timestamps.MICROS_PER_HOUR
                + minute * Timestamps.MICROS_PER_MINUTE + second * Timestamps.MICROS_PER_SECOND + micros;
        hasOffset = tzSign != 0;
        offsetSeconds = tzSign * (tzh * 3600 + tzm * 60);
    }

    private String text() {
        if (text == null) {
            text = new String(data, from, end - from, StandardCharsets.UTF_8);
        }
        return text;
    }

    /** The text from here to the next space, for an error. */
    private String word() {
        int e = s;
        while (e < end && !isSpace(data[e])) {
            e++;
        }
        return new String(data, s, e - s, StandardCharsets.UTF_8);
    }

    private String copy(int start, int length) {
        return new String(data, start, Math.min(length, end - start), StandardCharsets.UTF_8);
    }

    private static DomainException invalid(String value, Item item, String detail) {
        return new DomainException("invalid value \"" + value + "\" for \"" + item.name() + "\" (" + detail + ")");
    }

    private int skipSpaces() {
        int skipped = 0;
        while (s < end && isSpace(data[s])) {
            s++;
            skipped++;
        }
        return skipped;
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b >= '\t' && b <= '\r';
    }

    /** PostgreSQL's is_separator_char: printable ASCII that is neither letter nor digit. */
    private static boolean isSeparator(byte b) {
        return b > 0x20 && b < 0x7F && !(b >= 'A' && b <= 'Z') && !(b >= 'a' && b <= 'z') && !(b >= '0' && b <= '9');
    }

    /** The bytes of the UTF-8 character that starts with {@code b}. */
    private static int charLength(byte b) {
        int u = b & 0xFF;
        return u < 0x80 ? 1 : u >= 0xF0 ? 4 : u >= 0xE0 ? 3 : 2;
    }
}
