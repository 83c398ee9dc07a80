package io.troupe.formats.csv;

import io.troupe.operators.expr.Strptime;
import io.troupe.operators.table.FieldCasts;
import io.troupe.operators.types.DataType;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Detects the {@link SniffedType} of each column of a sample as DuckDB's sniffer does: a column starts at NULL
 * and each value that its type does not take moves it down the list until one does; a column that has held a
 * BOOLEAN, TIME, DATE or TIMESTAMP (or TIMESTAMP_TZ) and meets another value becomes VARCHAR at once (a TIMESTAMP
 * may still become TIMESTAMP_TZ). The sniff is stricter than the loader, so that what looks like an identifier
 * stays text: an integer or number with a leading zero ({@code 007}) or a plus sign, or with spaces around it, is
 * VARCHAR; booleans are {@code true false t f} in any case.
 *
 * <p>Dates and timestamps: ISO 8601 first. A value that starts with three numbers split by one of
 * {@code - . / space} also tries DuckDB's spellings with that separator, the first that parses sticks
 * ({@link Spellings}); as in DuckDB there is one DATE and one TIMESTAMP spelling for the file, and once a column
 * has been detected as one, later columns only test the spelling found.
 *
 * <p>Not threadsafe: one sniff owns it.
 */
final class TypeSniffer {

    /** DuckDB's DATE spellings, tried last first; '-' stands for the value's separator. */
    private static final String[] DATE_TEMPLATES = {"%m-%d-%Y", "%m-%d-%y", "%d-%m-%Y", "%d-%m-%y", "%Y-%m-%d",
            "%y-%m-%d"};
    /** DuckDB's TIMESTAMP spellings, tried last first. */
    private static final String[] TIMESTAMP_TEMPLATES = {"%Y-%m-%d %H:%M:%S.%f", "%m-%d-%Y %I:%M:%S %p",
            "%m-%d-%y %I:%M:%S %p", "%d-%m-%Y %H:%M:%S", "%d-%m-%y %H:%M:%S", "%Y-%m-%d %H:%M:%S",
            "%y-%m-%d %H:%M:%S"};

    private static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]*)");
    private static final Pattern NUMBER = Pattern.compile(
            "-?((0|[1-9][0-9]*)(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?|-?(?i:inf|infinity|nan)");
    private static final Pattern TIME = Pattern.compile("[0-9]{1,2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?");
    private static final Pattern ISO_TIMESTAMP = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}([ T].*)?");
    private static final Pattern ZONE = Pattern.compile(".*([-+][0-9]{1,2}(:?[0-9]{2})?|[zZ]| [A-Za-z][^ ]*)");
    /** The most digits a DECIMAL(38,0) holds. */
    private static final int HUGEINT_DIGITS = 38;

    private final Spellings dates;
    private final Spellings timestamps;
    private boolean hasDate;
    private boolean hasTimestamp;

    /** A sniffer that detects spellings, except those the caller fixed (null where not). */
    TypeSniffer(Strptime userDate, Strptime userTimestamp) {
        this.dates = new Spellings(DATE_TEMPLATES, userDate);
        this.timestamps = new Spellings(TIMESTAMP_TEMPLATES, userTimestamp);
    }

    /** The type of each of {@code width} columns over {@code rows[from ..]}; rows of another width are skipped. */
    SniffedType[] sniff(List<String[]> rows, int from, int width) {
        SniffedType[] types = new SniffedType[width];
        for (int c = 0; c < width; c++) {
            SniffedType t = SniffedType.NULL;
            for (int r = from; r < rows.size() && t != SniffedType.VARCHAR; r++) {
                String[] row = rows.get(r);
                if (row.length != width || row[c] == null) {
                    continue;
                }
                String v = row[c];
                if (t == SniffedType.NULL) {
                    t = firstAccepting(SniffedType.BOOLEAN, v);
                } else if (!accepts(t, v, true)) {
                    if (t.failsToText()) {
                        t = t == SniffedType.TIMESTAMP && accepts(SniffedType.TIMESTAMP_TZ, v, true)
                                ? SniffedType.TIMESTAMP_TZ : SniffedType.VARCHAR;
                    } else {
                        t = firstAccepting(t.wider(), v);
                    }
                }
            }
            hasDate |= t == SniffedType.DATE;
            hasTimestamp |= t == SniffedType.TIMESTAMP;
            types[c] = t;
        }
        return types;
    }

    /** Whether {@code value} (not NULL) is of {@code type} under the spellings found so far. */
    boolean casts(SniffedType type, String value) {
        return accepts(type, value, false);
    }

    /** The DATE spelling found (or fixed), or null for ISO 8601. */
    Strptime dateFormat() {
        return dates.current;
    }

    /** The TIMESTAMP spelling found (or fixed), or null for ISO 8601. */
    Strptime timestampFormat() {
        return timestamps.current;
    }

    private SniffedType firstAccepting(SniffedType from, String v) {
        SniffedType t = from;
        while (t != SniffedType.VARCHAR && !accepts(t, v, true)) {
            t = t.wider();
        }
        return t;
    }

    private boolean accepts(SniffedType type, String v, boolean detect) {
        if (detect && (type == SniffedType.DATE && !hasDate || type == SniffedType.TIMESTAMP && !hasTimestamp)) {
            String separator = numericDateSeparator(v);
            if (separator != null) {
                (type == SniffedType.DATE ? dates : timestamps).detect(separator, v);
            }
        }
        return switch (type) {
            case NULL -> false;
            case BOOLEAN -> v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false") || v.equalsIgnoreCase("t")
                    || v.equalsIgnoreCase("f");
            case TIME -> TIME.matcher(v).matches() && FieldCasts.loads(DataType.TIME, v);
            case DATE -> dates.current == null ? FieldCasts.loads(DataType.DATE, v)
                    : !dates.current.hasTime() && dates.current.matches(v);
            case TIMESTAMP -> timestamps.current == null
                    ? ISO_TIMESTAMP.matcher(v).matches() && !hasZone(v) && FieldCasts.loads(DataType.TIMESTAMP, v)
                    : timestamps.current.matches(v);
            case TIMESTAMP_TZ -> ISO_TIMESTAMP.matcher(v).matches() && hasZone(v)
                    && FieldCasts.loads(DataType.TIMESTAMP_TZ, v);
            case BIGINT -> INTEGER.matcher(v).matches() && FieldCasts.loads(DataType.INT64, v);
            case HUGEINT -> INTEGER.matcher(v).matches() && v.length() - (v.startsWith("-") ? 1 : 0) <= HUGEINT_DIGITS;
            case DOUBLE -> NUMBER.matcher(v).matches() && FieldCasts.loads(DataType.FLOAT64, v);
            case VARCHAR -> true;
        };
    }

    /** Whether an ISO timestamp's text names an offset or a zone after its time. */
    private static boolean hasZone(String v) {
        return v.length() > 10 && ZONE.matcher(v.substring(11)).matches();
    }

    /**
     * The separator of a value that starts with three numbers split twice by the same text (DuckDB's test for a
     * date in another spelling), or null.
     */
    static String numericDateSeparator(String v) {
        int n = v.length();
        int p = 0;
        while (p < n && v.charAt(p) == ' ') {
            p++;
        }
        if (p == n || !isDigit(v.charAt(p))) {
            return null;
        }
        int literal1 = skipDigits(v, p);
        int field2 = skipNonDigits(v, literal1);
        int literal2 = skipDigits(v, field2);
        int field3 = skipNonDigits(v, literal2);
        if (literal1 == n || field2 == n || literal2 == n || field3 == n) {
            return null;
        }
        String separator = v.substring(literal1, field2);
        if (!separator.equals(v.substring(literal2, field3))) {
            return null;
        }
        return separator.equals("-") || separator.equals(".") || separator.equals("/") || separator.equals(" ")
                ? separator : null;
    }

    private static int skipDigits(String v, int p) {
        while (p < v.length() && isDigit(v.charAt(p))) {
            p++;
        }
        return p;
    }

    private static int skipNonDigits(String v, int p) {
        while (p < v.length() && !isDigit(v.charAt(p))) {
            p++;
        }
        return p;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /**
     * The spellings still possible for one type, tried last first: the current one holds until a value fails it,
     * then the next that parses the value takes over; when none does, the candidates from before the value come
     * back, or, if no value ever matched one, detection starts over (the value was no date of these spellings).
     * A spelling the caller fixed is the only one.
     */
    private static final class Spellings {

        private final String[] templates;
        private final Strptime fixed;
        private List<Strptime> candidates = new ArrayList<>();
        private int generated;
        private boolean hadMatch;
        private Strptime current;

        Spellings(String[] templates, Strptime fixed) {
            this.templates = templates;
            this.fixed = fixed;
            this.current = fixed;
        }

        void detect(String separator, String value) {
            if (fixed != null) {
                return;
            }
            if (generated == 0) {
                for (String t : templates) {
                    String spelled = t.replace("-", separator);
                    if (!spelled.contains("%Y-%m-%d")) {
                        candidates.add(Strptime.of(spelled));
                    }
                }
                generated = candidates.size();
            }
            if (candidates.isEmpty()) {
                return;
            }
            List<Strptime> before = new ArrayList<>(candidates);
            current = last(candidates);
            while (!candidates.isEmpty()) {
                if (current.matches(value)) {
                    hadMatch = true;
                    return;
                }
                candidates.remove(candidates.size() - 1);
                if (!candidates.isEmpty()) {
                    current = last(candidates);
                }
            }
            if (before.size() == generated && !hadMatch) {
                generated = 0;
                current = null;
            } else {
                candidates = before;
                current = last(candidates);
            }
        }

        private static Strptime last(List<Strptime> list) {
            return list.get(list.size() - 1);
        }
    }
}
