package io.troupe.cli;

import java.io.PrintWriter;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link ResultFormat#TABLE}: an aligned table, numbers to the right, NULL spelt out, the row count under it. The
 * widths of the columns, and which are numbers, are measured over a first block of rows, held back until it is full
 * or the result ends, and kept for the rows after it (psql with FETCH_COUNT and DuckDB's CLI do the same): a later
 * value wider than its column widens its line, never the rows printed before. Not threadsafe.
 */
final class TableWriter implements ResultWriter {

    /** The rows measured before the first is printed: a screenful many times over, a few hundred kB at most. */
    static final int MEASURED_ROWS = 1000;

    private final List<String> header;
    private final PrintWriter out;
    private final int measured;
    private final ZoneId zone;
    private final StringBuilder line = new StringBuilder();
    /** The first rows, until the widths are set from them; null after. */
    private List<Object[]> first = new ArrayList<>();
    private int[] width;
    private boolean[] right;
    private long rows;

    /**
     * A table of {@code header}'s columns on {@code out}, whose widths the first {@code measured} rows set, times with a
     * zone shown in {@code zone}.
     */
    TableWriter(List<String> header, PrintWriter out, int measured, ZoneId zone) {
        this.header = List.copyOf(header);
        this.out = out;
        this.measured = measured;
        this.zone = zone;
    }

    @Override
    public void row(Object[] row) {
        rows++;
        if (first == null) {
            print(row);
            return;
        }
        first.add(row);
        if (first.size() >= measured) {
            printFirst();
        }
    }

    @Override
    public void end() {
        if (first != null) {
            printFirst();
        }
        out.println("(" + rows + (rows == 1 ? " row)" : " rows)"));
    }

    /** Sets the widths from the rows held back, then prints the header and those rows. */
    private void printFirst() {
        width = new int[header.size()];
        right = new boolean[header.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = header.get(c).length();
        }
        for (Object[] row : first) {
            for (int c = 0; c < width.length; c++) {
                width[c] = Math.max(width[c], cell(row[c]).length());
                right[c] |= row[c] instanceof Number;
            }
        }
        line.setLength(0);
        StringBuilder rule = new StringBuilder();
        for (int c = 0; c < width.length; c++) {
            line.append(c == 0 ? " " : " | ").append(pad(header.get(c), width[c], false));
            rule.append(c == 0 ? "-" : "-+-").append("-".repeat(width[c]));
        }
        out.println(line.toString().stripTrailing());
        out.println(rule.append('-'));
        List<Object[]> held = first;
        first = null;
        held.forEach(this::print);
    }

    private void print(Object[] row) {
        line.setLength(0);
        for (int c = 0; c < width.length; c++) {
            line.append(c == 0 ? " " : " | ").append(pad(cell(row[c]), width[c], right[c]));
        }
        out.println(line.toString().stripTrailing());
    }

    private String cell(Object value) {
        return ResultFormat.cell(value, zone);
    }

    private static String pad(String text, int width, boolean right) {
        String fill = " ".repeat(Math.max(0, width - text.length()));
        return right ? fill + text : text + fill;
    }
}
