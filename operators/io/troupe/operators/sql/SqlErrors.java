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
 * Turns Calcite's errors about one statement into {@link SqlException}s a user can act on, worded as PostgreSQL
 * words them, with PostgreSQL's SQLSTATE ({@link SqlException.Kind}): a syntax error names the token where parsing
 * stopped ({@code syntax error at or near "SELEC"}, 42601); an unknown table or column ({@code relation "x" does not
 * exist}, 42P01; {@code column "x" does not exist}, 42703) comes with the nearest known names; a function or operator
 * that does not exist for its arguments' types names them and the forms that do ({@code function upper(integer) does
 * not exist}, 42883); a type where another is needed (42804), a column neither grouped nor aggregated (42803) and an
 * ambiguous column (42702) read as PostgreSQL's. Types are spelt as SQL spells them. Each message is followed by the
 * statement's line and a caret under the position Calcite gives.
 */
final class SqlErrors {

    private static final Pattern UNKNOWN_TABLE = Pattern.compile("Object '([^']+)' not found(?: within '[^']+')?.*");
    /** A qualifier that names no table of the FROM clause ({@code x.a}). */
    private static final Pattern UNKNOWN_QUALIFIER = Pattern.compile("Table '([^']+)' not found.*");
    private static final Pattern LITERAL_RANGE = Pattern.compile("Numeric literal '([^']+)' out of range");
    private static final Pattern UNKNOWN_COLUMN =
            Pattern.compile("Column '([^']+)' not found in (?:any table|table '([^']+)').*");
    private static final Pattern UNKNOWN_IDENTIFIER = Pattern.compile("Unknown identifier '([^']+)'");
    private static final Pattern UNKNOWN_TYPE = Pattern.compile("Type '([^']+)' not found");
    private static final Pattern AMBIGUOUS = Pattern.compile("Column '([^']+)' is ambiguous");
    private static final Pattern NO_FUNCTION = Pattern.compile("No match found for function signature (\\S+?)\\((.*)\\)");
    private static final Pattern CANNOT_APPLY = Pattern.compile(
            "Cannot apply '([^']+)' to arguments of type '(.+)'\\. Supported form\\(s\\): (.*)", Pattern.DOTALL);
    private static final Pattern ARGUMENT_COUNT = Pattern.compile(
            "Invalid number of arguments to function '([^']+)'\\. Was expecting (\\d+) arguments");
    private static final Pattern NOT_GROUPED = Pattern.compile("Expression '([^']+)' is not being grouped");
    private static final Pattern AGGREGATE_IN = Pattern.compile("(?:Windowed )?[Aa]ggregate expression is illegal in (\\S+) clause");
    private static final Pattern CONDITION = Pattern.compile("(\\S+) clause must be a condition");
    private static final Pattern SET_TYPES = Pattern.compile("Type mismatch in column (\\d+) of (\\S+)");
    /** A type in Calcite's messages: {@code <INTEGER>}, {@code <CHAR(3)>}, {@code <DECIMAL(10, 2)>}. */
    private static final Pattern TYPE = Pattern.compile("<([A-Z_ ]+)(\\([0-9, ]+\\))?>");
    /** The tokens JavaCC says it met: {@code Encountered "= )" at line 1, column 25}. */
    private static final Pattern ENCOUNTERED = Pattern.compile("Encountered \"(.*?)\" at line");
    /** The token at a syntax error's position: a word, a number, a quoted text, or an operator. */
    private static final Pattern TOKEN = Pattern.compile(
            "[\\p{L}_][\\p{L}\\p{N}_$]*|[0-9][0-9.]*(?:[eE][+-]?[0-9]+)?|'(?:[^']|'')*'?|\"(?:[^\"]|\"\")*\"?"
                    + "|<=|>=|<>|!=|\\|\\||::|\\S");

    /** The statement: positions are in the text Calcite read, and said and shown in the user's. */
    private final StatementText text;
    private final Catalog catalog;

    SqlErrors(StatementText text, Catalog catalog) {
        this.text = text;
        this.catalog = catalog;
    }

    /**
     * The errors of {@code sql} as Calcite's parser gets it ({@link StatementText#of}).
     *
     * @throws SqlException where the text is no statement before it is parsed (an escape string's bad escape, {@code
     *                      //})
     */
    static SqlErrors of(String sql, Catalog catalog) {
        SqlErrors errors = new SqlErrors(StatementText.of(sql), catalog);
        StatementText.Malformed malformed = errors.text.malformed();
        if (malformed != null) {
            int[] at = errors.text.position(malformed.offset());
            throw errors.at(malformed.kind(), malformed.message(), at[0], at[1]);
        }
        return errors;
    }

    /** The statement, as the user wrote it and as Calcite's parser reads it. */
    StatementText text() {
        return text;
    }

    /** Errors of a statement read as the user wrote it (by Troupe's own parser, {@link DdlParser}). */
    SqlErrors(String sql, Catalog catalog) {
        this(StatementText.unchanged(sql), catalog);
    }

    /**
     * PostgreSQL's {@code syntax error at or near "TOKEN"}, {@code syntax error at end of input} or
     * {@code unterminated quoted string at or near "'abc"}, at the token where parsing stopped.
     */
    SqlException syntax(SqlParseException e) {
        SqlParserPos pos = e.getPos() == null ? SqlParserPos.ZERO : e.getPos();
        int line = pos.getLineNum();
        int column = pos.getColumnNum();
        Matcher encountered = ENCOUNTERED.matcher(e.getMessage());
        boolean found = encountered.find();
        boolean end = found ? encountered.group(1).equals("<EOF>") : e.getMessage().contains("Encountered: <EOF>");
        if (found && !end) {
            // JavaCC quotes the tokens from the last it took to the one it could not: the last is the culprit.
            for (int skip = encountered.group(1).trim().split("\\s+").length - 1; skip > 0; skip--) {
                column = nextTokenColumn(line, column);
            }
        }
        String token = end ? "" : tokenAt(line, column);
        String message = token.isEmpty() ? "syntax error at end of input"
                : unterminated(token) ? "unterminated quoted " + (token.charAt(0) == '"' ? "identifier" : "string")
                + " at or near \"" + token + "\""
                : "syntax error at or near \"" + token + "\"";
        return located(SqlException.Kind.SYNTAX, message, line, column, line > 0, e);
    }

    SqlException validation(CalciteContextException e) {
        String calcite = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
        Reworded reworded = reword(calcite);
        return located(reworded.kind, reworded.message, e.getPosLine(), e.getPosColumn(), true, e);
    }

    /** A message of Calcite's validator and what it means. */
    private record Reworded(SqlException.Kind kind, String message) {
    }

    private Reworded reword(String calcite) {
        Matcher m;
        if ((m = UNKNOWN_TABLE.matcher(calcite)).matches()) {
            return new Reworded(SqlException.Kind.UNKNOWN_TABLE, "relation \"" + m.group(1) + "\" does not exist"
                    + suggest(m.group(1), catalog.names(), "tables"));
        }
        if ((m = UNKNOWN_QUALIFIER.matcher(calcite)).matches()) {
            return new Reworded(SqlException.Kind.UNKNOWN_TABLE, "missing FROM-clause entry for table \""
                    + m.group(1) + "\"");
        }
        if ((m = UNKNOWN_COLUMN.matcher(calcite)).matches() || (m = UNKNOWN_IDENTIFIER.matcher(calcite)).matches()) {
            String column = m.groupCount() > 1 && m.group(2) != null ? m.group(2) + "." + m.group(1) : m.group(1);
            return new Reworded(SqlException.Kind.UNKNOWN_COLUMN, "column \"" + column + "\" does not exist"
                    + suggest(m.group(1), columnsOfNamedTables(), "columns"));
        }
        if ((m = UNKNOWN_TYPE.matcher(calcite)).matches()) {
            return new Reworded(SqlException.Kind.UNKNOWN_TYPE, "type \"" + m.group(1) + "\" does not exist"
                    + suggest(m.group(1).toLowerCase(Locale.ROOT), TypeNames.known(), null));
        }
        if ((m = AMBIGUOUS.matcher(calcite)).matches()) {
            return new Reworded(SqlException.Kind.AMBIGUOUS_COLUMN,
                    "column reference \"" + m.group(1) + "\" is ambiguous");
        }
        if ((m = NO_FUNCTION.matcher(calcite)).matches()) {
            return new Reworded(SqlException.Kind.UNKNOWN_FUNCTION, "function " + m.group(1).toLowerCase(Locale.ROOT)
                    + "(" + types(m.group(2)) + ") does not exist");
        }
        if ((m = CANNOT_APPLY.matcher(calcite)).matches()) {
            String forms = m.group(3).lines().map(f -> types(f.trim().replaceAll("^'|'$", "")))
                    .collect(Collectors.joining(", "));
            boolean function = Character.isLetter(m.group(1).charAt(0)) && m.group(2).startsWith(m.group(1) + "(");
            String what = function ? "function " + types(m.group(2)) + " does not exist"
                    : "operator does not exist: " + types(m.group(2));
            return new Reworded(SqlException.Kind.UNKNOWN_FUNCTION, what + " (it takes " + forms + ")");
        }
        if (calcite.startsWith("no function ")) {
            // The function registry's own words, which list the forms the function takes.
            return new Reworded(SqlException.Kind.UNKNOWN_FUNCTION, calcite);
        }
        if ((m = ARGUMENT_COUNT.matcher(calcite)).matches()) {
            return new Reworded(SqlException.Kind.UNKNOWN_FUNCTION, "wrong number of arguments to function "
                    + m.group(1).toLowerCase(Locale.ROOT));
        }
        if ((m = NOT_GROUPED.matcher(calcite)).matches()) {
            return new Reworded(SqlException.Kind.GROUPING, "column \"" + m.group(1)
                    + "\" must appear in the GROUP BY clause or be used in an aggregate function");
        }
        if ((m = AGGREGATE_IN.matcher(calcite)).matches()) {
            return new Reworded(SqlException.Kind.GROUPING, (calcite.startsWith("Windowed") ? "window" : "aggregate")
                    + " functions are not allowed in " + m.group(1));
        }
        if ((m = CONDITION.matcher(calcite)).matches()) {
            return new Reworded(SqlException.Kind.DATATYPE_MISMATCH, "argument of " + m.group(1) + " must be type boolean");
        }
        if ((m = SET_TYPES.matcher(calcite)).matches()) {
            return new Reworded(SqlException.Kind.DATATYPE_MISMATCH, m.group(2) + " types of column " + m.group(1)
                    + " cannot be matched");
        }
        if ((m = LITERAL_RANGE.matcher(calcite)).matches()) {
            return new Reworded(SqlException.Kind.OUT_OF_RANGE, "numeric literal " + m.group(1) + " is out of range");
        }
        if (calcite.startsWith("Illegal mixing of types in CASE or COALESCE statement")) {
            return new Reworded(SqlException.Kind.DATATYPE_MISMATCH, "CASE or COALESCE types cannot be matched");
        }
        return new Reworded(SqlException.Kind.INVALID, types(calcite));
    }

    /** Calcite's types ({@code <INTEGER>}, {@code <CHAR(3)>}, {@code <NUMERIC>}) as SQL spells them, lower case. */
    private static String types(String text) {
        Matcher m = TYPE.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String name = m.group(1).toLowerCase(Locale.ROOT);
            String type = name.equals("char") || name.equals("varchar") ? "varchar"
                    : m.group(2) == null ? name : name + m.group(2).replace(" ", "");
            m.appendReplacement(sb, Matcher.quoteReplacement(type));
        }
        return m.appendTail(sb).toString();
    }

    /** The token of the statement at {@code line}, {@code column} (1-based); empty at its end. */
    private String tokenAt(int line, int column) {
        List<String> lines = text.parsed().lines().toList();
        if (line < 1 || line > lines.size() || column < 1 || column > lines.get(line - 1).length()) {
            return "";
        }
        Matcher m = TOKEN.matcher(lines.get(line - 1));
        return m.find(column - 1) && m.start() == column - 1 ? m.group() : "";
    }

    /** The column of the token after the one at {@code line}, {@code column}, on the same line; past it if none. */
    private int nextTokenColumn(int line, int column) {
        List<String> lines = text.parsed().lines().toList();
        if (line < 1 || line > lines.size()) {
            return column;
        }
        Matcher m = TOKEN.matcher(lines.get(line - 1));
        String token = tokenAt(line, column);
        return m.find(column - 1 + Math.max(1, token.length())) ? m.start() + 1 : column + token.length();
    }

    private static boolean unterminated(String token) {
        char quote = token.charAt(0);
        return (quote == '\'' || quote == '"') && (token.length() == 1 || token.charAt(token.length() - 1) != quote);
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

    /** {@code message} at a position of the text Calcite read, said and shown where the user wrote it. */
    private SqlException located(SqlException.Kind kind, String message, int parsedLine, int parsedColumn,
                                 boolean sayWhere, Throwable cause) {
        int[] at = text.original(parsedLine, parsedColumn);
        int line = at[0];
        int column = at[1];
        String full = message + (sayWhere ? " at line " + line + ", column " + column : "") + caret(line, column);
        return new SqlException(kind, full, line, column, cause);
    }

    /** The statement's line {@code line}, then a caret under column {@code column}; empty when out of range. */
    private String caret(int line, int column) {
        List<String> lines = text.original().lines().toList();
        if (line < 1 || line > lines.size() || column < 1) {
            return "";
        }
        String shown = lines.get(line - 1);
        StringBuilder under = new StringBuilder();
        for (int i = 0; i < column - 1 && i < shown.length(); i++) {
            under.append(shown.charAt(i) == '\t' ? '\t' : ' ');
        }
        return "\n  " + shown + "\n  " + under + "^";
    }

    /** The names of {@code known} nearest {@code name}; none near, all of them unless {@code what} is null. */
    private static String suggest(String name, List<String> known, String what) {
        List<String> nearest = Spelling.closest(name, known);
        if (!nearest.isEmpty()) {
            String names = nearest.stream().map(n -> "\"" + n + "\"").collect(Collectors.joining(" or "));
            return " (did you mean " + names + "?)";
        }
        return known.isEmpty() || what == null ? "" : "; known " + what + ": " + String.join(", ", known);
    }

    /** The columns of the tables the statement names anywhere: what a misspelt column most likely meant. */
    private List<String> columnsOfNamedTables() {
        Set<String> words = new LinkedHashSet<>();
        for (String word : text.original().split("[^\\p{L}\\p{N}_$]+")) {
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
