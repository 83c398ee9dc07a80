package io.troupe.golden;

import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A golden file read into its parts: the header ({@code # name:}, {@code # description:}), the
 * tables it declares and its cases. The format is described in
 * {@code src/test/resources/golden/README.md}. Reading checks the structure and the table values;
 * the plans are parsed when a case runs, so one bad plan fails one case, not the file.
 *
 * <p>Immutable once read; {@link #withExpected} returns the file's new text without changing it.
 */
final class GoldenFile {

    private static final Pattern HEADER = Pattern.compile("#\\s*(name|description|group):\\s*(.*)");
    private static final Pattern TABLE = Pattern.compile("table\\s+(\\w+)\\s*\\((.*)\\)\\s*");
    private static final Pattern QUERY = Pattern.compile("query\\s+([ILRNDBTUX]+)(\\s+rowsort)?\\s*");
    private static final Pattern ERROR = Pattern.compile("statement\\s+error\\s+(.+)");
    private static final String SQL = "sql";
    private static final String RESULT = "----";

    private final String name;
    private final String description;
    private final List<String> lines;
    private final List<TableDef> tables;
    private final List<GoldenCase> cases;

    private GoldenFile(String name, String description, List<String> lines, List<TableDef> tables,
                       List<GoldenCase> cases) {
        this.name = name;
        this.description = description;
        this.lines = List.copyOf(lines);
        this.tables = List.copyOf(tables);
        this.cases = List.copyOf(cases);
    }

    /** The {@code # name:}, which is the file's path under the golden root without {@code .test}. */
    String name() {
        return name;
    }

    String description() {
        return description;
    }

    List<TableDef> tables() {
        return tables;
    }

    List<GoldenCase> cases() {
        return cases;
    }

    /**
     * Reads {@code file}, found under {@code root}.
     *
     * @throws GoldenFormatException naming the line that is wrong
     */
    static GoldenFile read(Path root, Path file) {
        String relative = root.relativize(file).toString().replace('\\', '/');
        List<String> lines;
        try {
            lines = Arrays.asList(Files.readString(file, StandardCharsets.UTF_8).split("\n", -1));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read golden file " + file, e);
        }
        return new Reader(relative, lines).read();
    }

    /**
     * This file's text with the expected rows of some query cases replaced (for
     * {@code -Dtroupe.golden.write=true}); every other line is kept as it is.
     */
    String withExpected(Map<GoldenCase, List<String>> rows) {
        List<String> out = new ArrayList<>(lines);
        List<GoldenCase> bottomUp = new ArrayList<>(cases);
        bottomUp.sort((a, b) -> Integer.compare(b.expectedFrom(), a.expectedFrom()));
        for (GoldenCase c : bottomUp) {
            List<String> replacement = rows.get(c);
            if (replacement != null) {
                out.subList(c.expectedFrom(), c.expectedTo()).clear();
                out.addAll(c.expectedFrom(), replacement);
            }
        }
        return String.join("\n", out);
    }

    /** Walks the lines once. Not threadsafe; one per file. */
    private static final class Reader {
        private final String file;
        private final List<String> lines;
        private final List<TableDef> tables = new ArrayList<>();
        private final List<GoldenCase> cases = new ArrayList<>();
        private String name;
        private String description = "";
        private int i;

        Reader(String file, List<String> lines) {
            this.file = file;
            this.lines = lines;
        }

        GoldenFile read() {
            while (i < lines.size()) {
                String line = lines.get(i).strip();
                if (line.isEmpty()) {
                    i++;
                } else if (line.startsWith("#")) {
                    header(line);
                    i++;
                } else if (line.startsWith("table")) {
                    table(line);
                } else if (line.startsWith("query")) {
                    query(line);
                } else if (line.startsWith("statement")) {
                    statementError(line);
                } else {
                    throw error(i, "expected 'table', 'query', 'statement error' or a '#' comment, found: " + line);
                }
            }
            String expectedName = file.endsWith(".test") ? file.substring(0, file.length() - 5) : file;
            if (name == null) {
                throw error(0, "missing '# name: " + expectedName + "' header");
            }
            if (!name.equals(expectedName)) {
                throw error(0, "'# name: " + name + "' does not match the file's path; expected '"
                        + expectedName + "'");
            }
            if (cases.isEmpty()) {
                throw error(0, "no query or statement error cases");
            }
            return new GoldenFile(name, description, lines, tables, cases);
        }

        private void header(String line) {
            Matcher m = HEADER.matcher(line);
            if (m.matches()) {
                if (m.group(1).equals("name")) {
                    name = m.group(2).strip();
                } else if (m.group(1).equals("description")) {
                    description = m.group(2).strip();
                }
            }
        }

        private void table(String line) {
            int headerIndex = i;
            Matcher m = TABLE.matcher(line);
            if (!m.matches()) {
                throw error(i, "expected 'table name (column TYPE [NOT NULL], ...)', found: " + line);
            }
            String tableName = m.group(1);
            for (TableDef t : tables) {
                if (t.name().equalsIgnoreCase(tableName)) {
                    throw error(i, "table " + tableName + " is declared twice (first on line " + t.line() + ")");
                }
            }
            Schema schema = schema(m.group(2));
            List<List<Object>> rows = new ArrayList<>();
            i++;
            while (i < lines.size() && !lines.get(i).isBlank()) {
                String[] cells = lines.get(i).split("\t", -1);
                if (cells.length != schema.size()) {
                    throw error(i, "table " + tableName + " has " + schema.size() + " columns, this row has "
                            + cells.length + " tab-separated cells");
                }
                List<Object> row = new ArrayList<>();
                for (int c = 0; c < cells.length; c++) {
                    Field f = schema.field(c);
                    try {
                        Object v = GoldenValues.parseCell(cells[c], f.type());
                        if (v == null && !f.nullable()) {
                            throw new IllegalArgumentException("NULL in NOT NULL column");
                        }
                        row.add(v);
                    } catch (IllegalArgumentException e) {
                        throw error(i, "table " + tableName + ", column " + f.name() + ": " + e.getMessage());
                    }
                }
                rows.add(row);
                i++;
            }
            tables.add(new TableDef(tableName, schema, rows, headerIndex + 1));
        }

        private Schema schema(String columns) {
            try {
                return Schema.parse(columns);
            } catch (IllegalArgumentException e) {
                throw error(i, e.getMessage());
            }
        }

        private void query(String line) {
            int headerIndex = i;
            Matcher m = QUERY.matcher(line);
            if (!m.matches()) {
                throw error(i, "expected 'query <type codes ILRNDBTUX> [rowsort]', found: " + line);
            }
            i++;
            int planIndex = i;
            String plan = block(headerIndex, "plan", SQL, RESULT);
            if (i >= lines.size() || !lines.get(i).strip().equals(SQL)) {
                throw error(headerIndex,
                        "a query needs its DuckDB SQL: add a 'sql' line and the statement before '----'");
            }
            i++;
            String sql = block(headerIndex, "sql", RESULT);
            if (i >= lines.size() || !lines.get(i).strip().equals(RESULT)) {
                throw error(headerIndex, "the query has no '----' line after its SQL (a blank line ends a case)");
            }
            i++;
            int from = i;
            List<String> expected = new ArrayList<>();
            while (i < lines.size() && !lines.get(i).isBlank()) {
                expected.add(lines.get(i));
                i++;
            }
            cases.add(new GoldenCase(GoldenCase.Kind.QUERY, headerIndex + 1, m.group(1), m.group(2) != null, plan,
                    planIndex + 1, sql, null, expected, from, i));
        }

        private void statementError(String line) {
            int headerIndex = i;
            Matcher m = ERROR.matcher(line);
            if (!m.matches()) {
                throw error(i, "expected 'statement error <message text>', found: " + line);
            }
            i++;
            int planIndex = i;
            String plan = block(headerIndex, "plan", SQL);
            String sql = null;
            if (i < lines.size() && lines.get(i).strip().equals(SQL)) {
                i++;
                sql = block(headerIndex, "sql");
            }
            cases.add(new GoldenCase(GoldenCase.Kind.ERROR, headerIndex + 1, "", false, plan, planIndex + 1, sql,
                    m.group(1).strip(), List.of(), i, i));
        }

        /** Lines up to (not including) a blank line, the end, or a line that is one of {@code ends}. */
        private String block(int caseIndex, String what, String... ends) {
            int start = i;
            while (i < lines.size() && !lines.get(i).isBlank() && !List.of(ends).contains(lines.get(i).strip())) {
                i++;
            }
            if (i == start) {
                throw error(caseIndex, "the case has no " + what);
            }
            return String.join("\n", lines.subList(start, i));
        }

        private GoldenFormatException error(int index, String message) {
            return new GoldenFormatException(file, index + 1, message);
        }
    }
}
