package io.troupe.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The examples of one page of the SQL reference, in page order, as docs/sql.md ("How the examples are checked")
 * defines their two forms: a row of a table headed {@code | Example | Result |}, both cells in backticks, and a
 * {@code ```sql} block of statements ended by {@code ;}, split as {@code bin/troupe sql} splits them, followed
 * by a {@code ```result} block (its first line the column names, then a row a line, cells joined by
 * {@code " | "}), or by nothing when the statements only have to run. A row or a block that breaks the form is a
 * {@link Malformed} example, so that a page cannot hide an example from its test.
 *
 * <p>Not threadsafe: {@link #examples} reads each page with an instance of its own.
 */
final class ReferencePage {

    /** What a page shows at one of its lines. */
    sealed interface Example permits Value, Statements, Malformed {
        /** The 1-based line of the page where the example starts. */
        int line();
    }

    /**
     * A table row: {@code SELECT expression} returns one value, whose cell text is {@code expected}, or fails with
     * a message containing what follows {@code error: }.
     */
    record Value(int line, String expression, String expected) implements Example {
    }

    /**
     * A {@code ```sql} block: the statements run in order; {@code expected} is the result block's lines (the last
     * statement's columns and rows, or one {@code error: } line), empty when the block has none.
     */
    record Statements(int line, List<String> statements, List<String> expected) implements Example {
    }

    /** Something that looks like an example but breaks the form, and why. */
    record Malformed(int line, String problem) implements Example {
    }

    static final String ERROR = "error: ";

    private static final Pattern SEPARATOR = Pattern.compile("\\|?(\\s*:?-+:?\\s*\\|)+\\s*:?-*:?\\s*");
    /** An unescaped {@code |}: a cell boundary (GitHub's tables take {@code \|} as a pipe, in code spans too). */
    private static final Pattern CELL_BOUNDARY = Pattern.compile("(?<!\\\\)\\|");

    private final List<Example> examples = new ArrayList<>();
    /** The last {@code ```sql} block, until what follows it shows whether a result block belongs to it. */
    private Statements pending;

    private ReferencePage() {
    }

    /** The examples of a page's lines. */
    static List<Example> examples(List<String> lines) {
        ReferencePage page = new ReferencePage();
        page.read(lines);
        return List.copyOf(page.examples);
    }

    private void read(List<String> lines) {
        int i = 0;
        while (i < lines.size()) {
            String trimmed = lines.get(i).trim();
            if (trimmed.startsWith("```")) {
                i = fence(lines, i, trimmed.substring(3).trim());
            } else if (trimmed.startsWith("|") && isExampleHeader(trimmed)) {
                flush();
                i = table(lines, i);
            } else {
                if (!trimmed.isEmpty()) {
                    flush();
                }
                i++;
            }
        }
        flush();
    }

    /** Reads the fenced block opening at {@code start}; returns the index after its closing fence. */
    private int fence(List<String> lines, int start, String info) {
        List<String> body = new ArrayList<>();
        int i = start + 1;
        while (i < lines.size() && !lines.get(i).trim().equals("```")) {
            body.add(lines.get(i));
            i++;
        }
        int line = start + 1;
        if (i == lines.size()) {
            flush();
            examples.add(new Malformed(line, "a ``` block that is not closed"));
            return i;
        }
        switch (info) {
            case "sql" -> {
                flush();
                pending = statements(line, body);
            }
            case "result" -> {
                if (pending == null) {
                    examples.add(new Malformed(line, "a result block that does not follow a sql block"));
                } else if (body.isEmpty() || body.stream().allMatch(String::isBlank)) {
                    examples.add(new Malformed(line, "an empty result block"));
                    pending = null;
                } else {
                    if (!pending.statements().isEmpty()) {
                        examples.add(new Statements(pending.line(), pending.statements(),
                                body.stream().map(String::stripTrailing).toList()));
                    }
                    pending = null;
                }
            }
            default -> flush();
        }
        return i + 1;
    }

    /**
     * A {@code ```sql} block's statements, none when it is malformed: it stays pending even then, so that its
     * result block is taken with it.
     */
    private Statements statements(int line, List<String> body) {
        StatementSplitter splitter = new StatementSplitter();
        List<String> statements = new ArrayList<>();
        for (String l : body) {
            statements.addAll(splitter.feed(l));
        }
        String rest = splitter.rest();
        if (!rest.isEmpty()) {
            examples.add(new Malformed(line, "a statement without ';' at the end of the sql block: " + rest));
            statements.clear();
        } else if (statements.isEmpty()) {
            examples.add(new Malformed(line, "a sql block without statements"));
        }
        return new Statements(line, List.copyOf(statements), List.of());
    }

    /** Emits the pending sql block as one without a result. */
    private void flush() {
        if (pending != null && !pending.statements().isEmpty()) {
            examples.add(pending);
        }
        pending = null;
    }

    /** Reads the table whose header is at {@code start}; returns the index after its last row. */
    private int table(List<String> lines, int start) {
        int i = start + 1;
        if (i >= lines.size() || !SEPARATOR.matcher(lines.get(i).trim()).matches()) {
            examples.add(new Malformed(start + 1, "an Example | Result header without a |---|---| line under it"));
            return i;
        }
        for (i++; i < lines.size() && lines.get(i).trim().startsWith("|"); i++) {
            examples.add(row(i + 1, cells(lines.get(i).trim())));
        }
        return i;
    }

    private static Example row(int line, List<String> cells) {
        if (cells.size() != 2) {
            return new Malformed(line, "a row of " + cells.size() + " cells in an Example | Result table: " + cells);
        }
        String expression = code(cells.get(0));
        String expected = code(cells.get(1));
        if (expression == null || expected == null) {
            return new Malformed(line, "a cell not in backticks (`...`) in an Example | Result table: " + cells);
        }
        if (expression.isBlank()) {
            return new Malformed(line, "an empty Example");
        }
        return new Value(line, expression, expected);
    }

    private static boolean isExampleHeader(String line) {
        List<String> cells = cells(line);
        return cells.size() == 2 && cells.get(0).equals("Example") && cells.get(1).equals("Result");
    }

    /** A table line's cells, trimmed, {@code \|} read as {@code |}. */
    private static List<String> cells(String line) {
        String inner = line.substring(1);
        if (inner.endsWith("|") && !inner.endsWith("\\|")) {
            inner = inner.substring(0, inner.length() - 1);
        }
        List<String> cells = new ArrayList<>();
        for (String cell : CELL_BOUNDARY.split(inner, -1)) {
            cells.add(cell.trim().replace("\\|", "|"));
        }
        return cells;
    }

    /** The text of a cell that is one code span, {@code `text`}; null when it is not. */
    private static String code(String cell) {
        if (cell.length() < 2 || cell.charAt(0) != '`' || cell.charAt(cell.length() - 1) != '`') {
            return null;
        }
        String text = cell.substring(1, cell.length() - 1);
        return text.contains("`") ? null : text;
    }
}
