package io.troupe.cli;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;

/**
 * How {@code bin/troupe sql} prints a result: an aligned TABLE (numbers to the right, NULL spelt out, a row
 * count under it), CSV (RFC 4180: a header line, NULL an empty field, an empty string {@code ""}) or JSON (an
 * array of one object a row, a line each). In CSV and JSON an exact decimal prints as its decimal digits
 * ({@code 12.50}, never 12.5 or 1.25E+1) and a date as its ISO date ({@code 2024-01-31}). Stateless.
 */
enum ResultFormat {

    TABLE {
        @Override
        void write(List<String> header, List<Object[]> rows, PrintWriter out) {
            int[] width = new int[header.size()];
            boolean[] right = new boolean[header.size()];
            for (int c = 0; c < width.length; c++) {
                width[c] = header.get(c).length();
            }
            for (Object[] row : rows) {
                for (int c = 0; c < width.length; c++) {
                    width[c] = Math.max(width[c], cell(row[c]).length());
                    right[c] |= row[c] instanceof Number;
                }
            }
            StringBuilder line = new StringBuilder();
            StringBuilder rule = new StringBuilder();
            for (int c = 0; c < width.length; c++) {
                line.append(c == 0 ? " " : " | ").append(pad(header.get(c), width[c], false));
                rule.append(c == 0 ? "-" : "-+-").append("-".repeat(width[c]));
            }
            out.println(strip(line));
            out.println(rule.append('-'));
            for (Object[] row : rows) {
                line.setLength(0);
                for (int c = 0; c < width.length; c++) {
                    line.append(c == 0 ? " " : " | ").append(pad(cell(row[c]), width[c], right[c]));
                }
                out.println(strip(line));
            }
            out.println("(" + rows.size() + (rows.size() == 1 ? " row)" : " rows)"));
        }

        private static String pad(String text, int width, boolean right) {
            String fill = " ".repeat(width - text.length());
            return right ? fill + text : text + fill;
        }

        private static String strip(StringBuilder line) {
            return line.toString().stripTrailing();
        }
    },

    CSV {
        @Override
        void write(List<String> header, List<Object[]> rows, PrintWriter out) {
            out.println(String.join(",", header.stream().map(h -> quoted(h)).toList()));
            StringBuilder line = new StringBuilder();
            for (Object[] row : rows) {
                line.setLength(0);
                for (int c = 0; c < row.length; c++) {
                    if (c > 0) {
                        line.append(',');
                    }
                    if (row[c] instanceof String s) {
                        line.append(s.isEmpty() ? "\"\"" : quoted(s));
                    } else if (row[c] != null) {
                        line.append(text(row[c]));
                    }
                }
                out.println(line);
            }
        }

        private static String quoted(String s) {
            boolean plain = s.chars().noneMatch(ch -> ch == ',' || ch == '"' || ch == '\n' || ch == '\r');
            return plain ? s : '"' + s.replace("\"", "\"\"") + '"';
        }
    },

    JSON {
        @Override
        void write(List<String> header, List<Object[]> rows, PrintWriter out) {
            out.println("[");
            StringBuilder line = new StringBuilder();
            for (int r = 0; r < rows.size(); r++) {
                Object[] row = rows.get(r);
                line.setLength(0);
                line.append('{');
                for (int c = 0; c < row.length; c++) {
                    line.append(c == 0 ? "" : ",").append(string(header.get(c))).append(':');
                    Object v = row[c];
                    boolean number = v instanceof BigDecimal || v instanceof Long || v instanceof Integer
                            || v instanceof Double d && Double.isFinite(d);
                    line.append(v == null ? "null" : v instanceof Boolean || number ? text(v) : string(text(v)));
                }
                out.println(line.append(r + 1 < rows.size() ? "}," : "}"));
            }
            out.println("]");
        }

        private static String string(String s) {
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
    };

    /** Prints {@code rows} (one value a column, as {@code ColumnVector.getObject} gives them) under {@code header}. */
    abstract void write(List<String> header, List<Object[]> rows, PrintWriter out);

    /** A value as a TABLE cell (and the SQL reference, docs/sql.md) shows it: NULL spelt out, else its text. */
    static String cell(Object value) {
        return value == null ? "NULL" : text(value);
    }

    /** A value's text: a decimal's digits as they are, a date ISO, anything else as Java prints it. */
    static String text(Object value) {
        return value instanceof BigDecimal d ? d.toPlainString() : value.toString();
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
}
