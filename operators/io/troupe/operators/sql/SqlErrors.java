package io.troupe.operators.sql;

import io.troupe.config.Spelling;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.Field;

import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Turns Calcite's errors about one statement into {@link SqlException}s a user can act on: the first line
 * of the parser's message (it names the token), the validator's message, and an unknown table or column
 * with the nearest known names, each followed by the statement's line and a caret under the position.
 */
final class SqlErrors {

    private static final Pattern UNKNOWN_TABLE = Pattern.compile("Object '([^']+)' not found.*");
    private static final Pattern UNKNOWN_COLUMN =
            Pattern.compile("Column '([^']+)' not found in (any table|table '[^']+').*");

    private final String sql;
    private final Catalog catalog;

    SqlErrors(String sql, Catalog catalog) {
        this.sql = sql;
        this.catalog = catalog;
    }

    SqlException syntax(SqlParseException e) {
        SqlParserPos pos = e.getPos();
        String first = e.getMessage().lines().findFirst().orElse("syntax error").trim();
        if (first.endsWith(".")) {
            first = first.substring(0, first.length() - 1);
        }
        String message = "syntax error: " + first.replace("Encountered", "unexpected");
        return located(SqlException.Kind.SYNTAX, message, pos.getLineNum(), pos.getColumnNum(), !first.contains(" at line "),
                e);
    }

    SqlException validation(CalciteContextException e) {
        String message = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
        Matcher table = UNKNOWN_TABLE.matcher(message);
        Matcher column = UNKNOWN_COLUMN.matcher(message);
        SqlException.Kind kind = SqlException.Kind.INVALID;
        if (table.matches()) {
            kind = SqlException.Kind.UNKNOWN_TABLE;
            message = "unknown table '" + table.group(1) + "'" + suggest(table.group(1), catalog.names(), "tables");
        } else if (column.matches()) {
            kind = SqlException.Kind.UNKNOWN_COLUMN;
            message = "unknown column '" + column.group(1) + "'" + suggest(column.group(1), columnsOfNamedTables(),
                    "columns");
        }
        return located(kind, message, e.getPosLine(), e.getPosColumn(), true, e);
    }

    SqlException unsupported(String what, SqlParserPos pos, Throwable cause) {
        String message = "unsupported in SQL: " + what;
        return pos.getLineNum() > 0
                ? located(SqlException.Kind.UNSUPPORTED, message, pos.getLineNum(), pos.getColumnNum(), true, cause)
                : new SqlException(SqlException.Kind.UNSUPPORTED, message, 0, 0, cause);
    }

    /** {@code message} at a position Troupe's own parser found ({@link DdlParser}). */
    SqlException at(SqlException.Kind kind, String message, int line, int column) {
        return located(kind, message, line, column, true, null);
    }

    SqlException other(Throwable e) {
        return new SqlException(SqlException.Kind.INVALID, "cannot plan SQL: " + e.getMessage(), 0, 0, e);
    }

    private SqlException located(SqlException.Kind kind, String message, int line, int column, boolean sayWhere,
                                 Throwable cause) {
        String text = message + (sayWhere ? " at line " + line + ", column " + column : "") + caret(line, column);
        return new SqlException(kind, text, line, column, cause);
    }

    /** The statement's line {@code line}, then a caret under column {@code column}; empty when out of range. */
    private String caret(int line, int column) {
        List<String> lines = sql.lines().toList();
        if (line < 1 || line > lines.size() || column < 1) {
            return "";
        }
        String text = lines.get(line - 1);
        StringBuilder under = new StringBuilder();
        for (int i = 0; i < column - 1 && i < text.length(); i++) {
            under.append(text.charAt(i) == '\t' ? '\t' : ' ');
        }
        return "\n  " + text + "\n  " + under + "^";
    }

    private static String suggest(String name, List<String> known, String what) {
        List<String> nearest = Spelling.closest(name, known);
        if (!nearest.isEmpty()) {
            String names = nearest.stream().map(n -> "'" + n + "'").collect(Collectors.joining(" or "));
            return " (did you mean " + names + "?)";
        }
        return known.isEmpty() ? "" : "; known " + what + ": " + String.join(", ", known);
    }

    /** The columns of the tables the statement names anywhere: what a misspelt column most likely meant. */
    private List<String> columnsOfNamedTables() {
        Set<String> words = new LinkedHashSet<>();
        for (String word : sql.split("[^\\p{L}\\p{N}_$]+")) {
            words.add(word.toLowerCase(Locale.ROOT));
        }
        Set<String> columns = new LinkedHashSet<>();
        for (Table table : catalog.tables()) {
            if (words.contains(table.name().toLowerCase(Locale.ROOT))) {
                for (Field f : table.schema().fields()) {
                    columns.add(f.name());
                }
            }
        }
        return new ArrayList<>(columns);
    }
}
