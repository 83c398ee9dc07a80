package io.troupe.formats.csv;

import io.troupe.operators.table.DelimitedFormat;

import java.util.ArrayList;
import java.util.List;

/**
 * The records of a sample cut by one candidate dialect, as the loader's tokenizer would cut them (a quote opens a
 * field only at its start, two quotes in a quoted field stand for one, {@code \n} or {@code \r\n} ends a record),
 * skipping blank lines as the loader is told to, but never failing on a field count: a record of any count is
 * kept, so that the sniffer can count how consistent a candidate is. As in DuckDB's strict mode, a quote inside an unquoted field rules the candidate out. A field is
 * its text, or null where it is unquoted and equal to the null string. Not to be changed once built; read by one
 * sniff.
 *
 * @param rows      the records, each its fields
 * @param lines     the 1-based line each record starts on
 * @param sawQuote  whether any field was quoted
 * @param sawEscape whether a quoted field held a doubled quote
 * @param malformed whether a quote was left open, text followed a closing quote, or a quote stood inside an
 *                  unquoted field (the candidate cannot be it)
 */
record SampleSplit(List<String[]> rows, List<Integer> lines, boolean sawQuote, boolean sawEscape, boolean malformed) {

    /** Cuts {@code text} with {@code delimiter} and {@code quote} (or {@link DelimitedFormat#NO_QUOTE}). */
    static SampleSplit of(String text, char delimiter, int quote, String nullString) {
        List<String[]> rows = new ArrayList<>();
        List<Integer> lines = new ArrayList<>();
        int line = 1;
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean sawQuote = false;
        boolean sawEscape = false;
        int n = text.length();
        int p = 0;
        while (p < n) {
            fields.clear();
            lines.add(line);
            int recordStart = p;
            while (true) {
                field.setLength(0);
                boolean quoted = quote != DelimitedFormat.NO_QUOTE && p < n && text.charAt(p) == quote;
                if (quoted) {
                    sawQuote = true;
                    p++;
                    while (true) {
                        if (p >= n) {
                            return new SampleSplit(rows, lines, true, sawEscape, true);
                        }
                        char c = text.charAt(p);
                        if (c == quote) {
                            if (p + 1 < n && text.charAt(p + 1) == quote) {
                                field.append(c);
                                sawEscape = true;
                                p += 2;
                                continue;
                            }
                            p++;
                            break;
                        }
                        if (c == '\n') {
                            line++;
                        }
                        field.append(c);
                        p++;
                    }
                    if (p < n && text.charAt(p) == '\r' && (p + 1 == n || text.charAt(p + 1) == '\n')) {
                        p++;
                    }
                    if (p < n && text.charAt(p) != delimiter && text.charAt(p) != '\n') {
                        return new SampleSplit(rows, lines, true, sawEscape, true);
                    }
                    fields.add(field.toString());
                } else {
                    int start = p;
                    while (p < n && text.charAt(p) != delimiter && text.charAt(p) != '\n') {
                        if (text.charAt(p) == quote) {
                            return new SampleSplit(rows, lines, sawQuote, sawEscape, true);
                        }
                        p++;
                    }
                    int end = p;
                    if ((p == n || text.charAt(p) == '\n') && end > start && text.charAt(end - 1) == '\r') {
                        end--;
                    }
                    String value = text.substring(start, end);
                    fields.add(value.equals(nullString) ? null : value);
                }
                if (p < n && text.charAt(p) == delimiter) {
                    p++;
                    continue;
                }
                p++;
                line++;
                break;
            }
            if (fields.size() == 1 && (recordStart == n || text.charAt(recordStart) == '\n'
                    || text.startsWith("\r\n", recordStart))) {
                lines.remove(lines.size() - 1);
                continue;
            }
            rows.add(fields.toArray(new String[0]));
        }
        return new SampleSplit(rows, lines, sawQuote, sawEscape, false);
    }
}
