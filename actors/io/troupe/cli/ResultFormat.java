package io.troupe.cli;

import io.troupe.operators.types.ValueText;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;

/**
 * How {@code bin/troupe sql} prints a result, row by row as it comes ({@link ResultWriter}): an aligned TABLE
 * ({@link TableWriter}), CSV (RFC 4180: a header line, NULL an empty field, an empty string {@code ""}) or JSON (an
 * array of one object a row, a line each). In CSV and JSON an exact decimal prints as its decimal digits
 * ({@code 12.50}, never 12.5 or 1.25E+1), a date as its ISO date ({@code 2024-01-31}), a timestamp as {@code
 * 2024-01-31 13:45:30.5} and one with a time zone in the session's zone ({@code 2024-01-31 13:45:30.5+01}).
 * Stateless.
 */
enum ResultFormat {

    TABLE {
        @Override
        ResultWriter writer(List<String> header, PrintWriter out, ZoneId zone) {
            return new TableWriter(header, out, TableWriter.MEASURED_ROWS, zone);
        }
    },

    CSV {
        @Override
        ResultWriter writer(List<String> header, PrintWriter out, ZoneId zone) {
            out.println(String.join(",", header.stream().map(ResultFormat::csvField).toList()));
            StringBuilder line = new StringBuilder();
            return new ResultWriter() {
                @Override
                public void row(Object[] row) {
                    line.setLength(0);
                    for (int c = 0; c < row.length; c++) {
                        if (c > 0) {
                            line.append(',');
                        }
                        if (row[c] instanceof String s) {
                            line.append(s.isEmpty() ? "\"\"" : csvField(s));
                        } else if (row[c] != null) {
                            line.append(text(row[c], zone));
                        }
                    }
                    out.println(line);
                }

                @Override
                public void end() {
                }
            };
        }
    },

    JSON {
        @Override
        ResultWriter writer(List<String> header, PrintWriter out, ZoneId zone) {
            out.println("[");
            return new ResultWriter() {
                /** The last row's line, printed once it is known whether a comma follows it. */
                private final StringBuilder pending = new StringBuilder();

                @Override
                public void row(Object[] row) {
                    if (!pending.isEmpty()) {
                        out.println(pending.append(','));
                    }
                    pending.setLength(0);
                    pending.append('{');
                    for (int c = 0; c < row.length; c++) {
                        pending.append(c == 0 ? "" : ",").append(jsonString(header.get(c))).append(':');
                        Object v = row[c];
                        boolean number = v instanceof BigDecimal || v instanceof Long || v instanceof Integer
                                || v instanceof Short || v instanceof Byte || v instanceof Double d && Double.isFinite(d)
                                || v instanceof Float f && Float.isFinite(f);
                        pending.append(v == null ? "null"
                                : v instanceof Boolean || number ? text(v, zone) : jsonString(text(v, zone)));
                    }
                    pending.append('}');
                }

                @Override
                public void end() {
                    if (!pending.isEmpty()) {
                        out.println(pending);
                    }
                    out.println("]");
                }
            };
        }
    };

    /**
     * A writer of one result of {@code header}'s columns on {@code out}, times with a zone shown in {@code zone}; the
     * format's opening lines print now.
     */
    abstract ResultWriter writer(List<String> header, PrintWriter out, ZoneId zone);

    /** Prints {@code rows}, a small result held whole (the tables of {@code \d}), under {@code header}. */
    void write(List<String> header, List<Object[]> rows, PrintWriter out) {
        ResultWriter writer = writer(header, out, ZoneOffset.UTC);
        rows.forEach(writer::row);
        writer.end();
    }

    /** A value's text as SQL prints it ({@link ValueText}): a decimal's digits as they are, an instant in {@code zone}. */
    static String text(Object value, ZoneId zone) {
        return ValueText.of(value, zone);
    }

    /** A cell of the table format: a value's text, or {@code NULL}. */
    static String cell(Object value, ZoneId zone) {
        return value == null ? "NULL" : text(value, zone);
    }

    /** "table", "csv" or "json", any case. */
    static ResultFormat parse(String text) {
        for (ResultFormat f : values()) {
            if (f.name().equalsIgnoreCase(text.trim())) {
                return f;
            }
        }
        throw new IllegalArgumentException("--format takes table, csv or json, got '" + text + "'");
    }

    private static String csvField(String s) {
        boolean plain = s.chars().noneMatch(ch -> ch == ',' || ch == '"' || ch == '\n' || ch == '\r');
        return plain ? s : '"' + s.replace("\"", "\"\"") + '"';
    }

    private static String jsonString(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
