package io.troupe.operators.sql;

import io.troupe.operators.table.DelimitedFormat;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads CREATE TABLE, DROP TABLE and COPY ... FROM into {@link Ddl} statements: a tokenizer and a recursive
 * descent over these few forms, because Calcite's core parser has none of them (its DDL parser lives in
 * calcite-server). A query inside (CREATE TABLE ... AS) is left to Calcite whole. Errors are
 * {@link SqlException}s with the line, column and caret that {@link SqlErrors} gives Calcite's own.
 *
 * <p>Column types are those Troupe has ({@link SqlTypes}): INT/INTEGER, SMALLINT (INT2), TINYINT (INT1), BIGINT,
 * DECIMAL/NUMERIC(p[,s]) with p at most 18 (DECIMAL alone is DuckDB's DECIMAL(18,3)), DOUBLE [PRECISION] and FLOAT
 * (64-bit), REAL (FLOAT4, 32-bit), VARCHAR[(n)], CHAR[(n)], TEXT (no length is kept or checked), DATE, BOOLEAN.
 *
 * <p>Files are read with COPY (PostgreSQL's and DuckDB's statement) rather than a {@code read_csv(...)} table
 * function: Calcite would need the file's columns and types when it validates the query, which means guessing
 * them from the text, while COPY appends to a table whose types CREATE TABLE declared, which is what
 * {@code DelimitedFileLoader} loads; and the same statements then run on DuckDB, against which the tests check.
 *
 * <p>One parser per statement; not threadsafe.
 */
final class DdlParser {

    private enum Type { WORD, QUOTED, STRING, NUMBER, SYMBOL, END }

    private record Token(Type type, String text, int offset, int line, int column) {
        boolean is(String word) {
            return (type == Type.WORD || type == Type.SYMBOL) && text.equalsIgnoreCase(word);
        }

        String describe() {
            return switch (type) {
                case END -> "the end of the statement";
                case STRING -> "'" + text + "'";
                case QUOTED -> "\"" + text + "\"";
                default -> "'" + text + "'";
            };
        }
    }

    private final String sql;
    private final SqlErrors errors;
    private final List<Token> tokens = new ArrayList<>();
    private int next;

    private DdlParser(String sql, SqlErrors errors) {
        this.sql = sql;
        this.errors = errors;
    }

    /** The first word of {@code sql} after blanks, comments and opening parentheses, upper case; "" if none. */
    static String firstWord(String sql) {
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c) || c == '(') {
                i++;
            } else if (sql.startsWith("--", i)) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? sql.length() : end + 1;
            } else if (sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? sql.length() : end + 2;
            } else {
                break;
            }
        }
        int start = i;
        while (i < sql.length() && Character.isLetter(sql.charAt(i))) {
            i++;
        }
        return sql.substring(start, i).toUpperCase(Locale.ROOT);
    }

    /** @throws SqlException at the first token that does not fit, or a type Troupe does not have */
    static Ddl parse(String sql, SqlErrors errors) {
        DdlParser parser = new DdlParser(sql, errors);
        parser.tokenize();
        Ddl statement = parser.statement();
        if (statement instanceof Ddl.CreateTableAs) {
            return statement; // the rest is the query's, for Calcite
        }
        parser.accept(";");
        parser.expectEnd();
        return statement;
    }

    private Ddl statement() {
        Token first = take();
        if ((first.is("CREATE") || first.is("DROP")) && !peek().is("TABLE")) {
            Token what = peek();
            throw unsupported(what, first.text.toUpperCase(Locale.ROOT) + " " + what.text.toUpperCase(Locale.ROOT)
                    + " (of CREATE and DROP, Troupe runs CREATE TABLE and DROP TABLE)");
        }
        if (first.is("CREATE")) {
            expect("TABLE");
            boolean ifNotExists = accept("IF");
            if (ifNotExists) {
                expect("NOT");
                expect("EXISTS");
            }
            String name = name("a table name");
            if (accept("AS")) {
                Token query = peek();
                if (query.type == Type.END) {
                    throw error(query, "syntax error: expected a query after AS");
                }
                return new Ddl.CreateTableAs(name, ifNotExists, blankedBefore(query.offset));
            }
            return new Ddl.CreateTable(name, ifNotExists, columns());
        }
        if (first.is("DROP")) {
            expect("TABLE");
            boolean ifExists = accept("IF");
            if (ifExists) {
                expect("EXISTS");
            }
            return new Ddl.DropTable(name("a table name"), ifExists);
        }
        if (first.is("COPY")) {
            String name = name("a table name");
            expect("FROM");
            Token file = take();
            if (file.type != Type.STRING) {
                throw error(file, "syntax error: expected a file name in quotes but found " + file.describe());
            }
            accept("WITH");
            return new Ddl.Copy(name, Path.of(file.text), copyOptions(), file.line, file.column);
        }
        if (first.is("ANALYZE")) {
            accept("TABLE");
            return new Ddl.Analyze(name("a table name"));
        }
        throw error(first, "syntax error: expected CREATE TABLE, DROP TABLE, COPY or ANALYZE but found "
                + first.describe());
    }

    /** {@code (name type [NOT NULL | NULL], ...)}. */
    private Schema columns() {
        expect("(");
        List<Field> fields = new ArrayList<>();
        Set<String> names = new HashSet<>();
        do {
            Token at = peek();
            String column = name("a column name");
            if (!names.add(column.toLowerCase(Locale.ROOT))) {
                throw error(at, "column '" + column + "' is declared twice");
            }
            DataType type = type();
            boolean nullable = true;
            while (true) {
                Token t = peek();
                if (accept("NOT")) {
                    expect("NULL");
                    nullable = false;
                } else if (accept("NULL")) {
                    nullable = true;
                } else if (t.type == Type.WORD) {
                    throw unsupported(t, "column constraint " + t.text.toUpperCase(Locale.ROOT)
                            + " (a column may be NOT NULL; keys, defaults and checks are not kept)");
                } else {
                    break;
                }
            }
            fields.add(new Field(null, column, type, nullable));
        } while (accept(","));
        expect(")");
        return new Schema(fields);
    }

    private DataType type() {
        Token t = take();
        if (t.type != Type.WORD) {
            throw error(t, "syntax error: expected a column type but found " + t.describe());
        }
        String name = t.text.toUpperCase(Locale.ROOT);
        List<Integer> size = new ArrayList<>();
        if (name.equals("DOUBLE")) {
            accept("PRECISION");
        } else if (name.equals("CHARACTER")) {
            accept("VARYING");
        }
        if (accept("(")) {
            do {
                Token n = take();
                if (n.type != Type.NUMBER) {
                    throw error(n, "syntax error: expected a number but found " + n.describe());
                }
                size.add(Integer.parseInt(n.text));
            } while (accept(","));
            expect(")");
        }
        if (name.equals("TIMESTAMP") || name.equals("TIME")) {
            return temporal(t, name, size);
        }
        return switch (name) {
            case "INT", "INTEGER", "INT4" -> sized(t, DataType.INT32, size, 0);
            case "SMALLINT", "INT2", "SHORT" -> sized(t, DataType.INT16, size, 0);
            case "TINYINT", "INT1" -> sized(t, DataType.INT8, size, 0);
            case "BIGINT", "INT8" -> sized(t, DataType.INT64, size, 0);
            case "DOUBLE", "FLOAT", "FLOAT8" -> sized(t, DataType.FLOAT64, size, 0);
            case "REAL", "FLOAT4" -> sized(t, DataType.FLOAT32, size, 0);
            case "VARCHAR", "CHAR", "CHARACTER", "TEXT", "STRING" -> sized(t, DataType.VARCHAR, size, 1);
            case "DATE" -> sized(t, DataType.DATE, size, 0);
            case "BOOLEAN", "BOOL" -> sized(t, DataType.BOOLEAN, size, 0);
            case "DECIMAL", "NUMERIC" -> decimal(t, size);
            case "TIMESTAMPTZ" -> sized(t, DataType.TIMESTAMP_TZ, size, 1);
            case "DATETIME" -> sized(t, DataType.TIMESTAMP, size, 1);
            case "INTERVAL" -> sized(t, DataType.INTERVAL, size, 1);
            case "UUID" -> sized(t, DataType.UUID, size, 0);
            case "BLOB", "BYTEA", "VARBINARY", "BINARY" -> sized(t, DataType.BLOB, size, 1);
            default -> throw unsupported(t, "type " + name + " (Troupe's column types: INTEGER, BIGINT, DOUBLE, "
                    + "DECIMAL(p,s) up to 18 digits, VARCHAR, DATE, BOOLEAN, TIMESTAMP [WITH TIME ZONE], TIME, "
                    + "INTERVAL, UUID, BLOB)");
        };
    }

    /**
     * TIMESTAMP or TIME, with an optional precision of 0 to 6 (accepted as PostgreSQL's DDL writes it; values keep
     * microseconds) and {@code WITH TIME ZONE} (a TIMESTAMP's) or {@code WITHOUT TIME ZONE}.
     */
    private DataType temporal(Token t, String name, List<Integer> size) {
        if (size.size() > 1 || !size.isEmpty() && (size.get(0) < 0 || size.get(0) > 6)) {
            throw error(t, "type " + t.text + " takes one precision from 0 to 6, got " + size);
        }
        boolean zone = false;
        if (accept("WITH")) {
            zone = true;
        } else if (!accept("WITHOUT")) {
            return name.equals("TIME") ? DataType.TIME : DataType.TIMESTAMP;
        }
        expect("TIME");
        expect("ZONE");
        if (zone && name.equals("TIME")) {
            throw unsupported(t, "type TIME WITH TIME ZONE (PostgreSQL advises against it; use TIMESTAMP WITH TIME ZONE)");
        }
        return zone ? DataType.TIMESTAMP_TZ : name.equals("TIME") ? DataType.TIME : DataType.TIMESTAMP;
    }

    private DataType sized(Token t, DataType type, List<Integer> size, int allowed) {
        if (size.size() > allowed) {
            throw error(t, "type " + t.text + " takes " + (allowed == 0 ? "no size" : "one size") + ", got " + size);
        }
        return type;
    }

    private DataType decimal(Token t, List<Integer> size) {
        if (size.size() > 2) {
            throw error(t, "type " + t.text + " takes a precision and a scale, got " + size);
        }
        int precision = size.isEmpty() ? DataType.MAX_LONG_PRECISION : size.get(0);
        int scale = size.size() == 2 ? size.get(1) : size.isEmpty() ? 3 : 0;
        if (precision > DataType.MAX_DECIMAL_PRECISION) {
            throw unsupported(t, "type " + t.text + size + " (decimals hold at most "
                    + DataType.MAX_DECIMAL_PRECISION + " digits)");
        }
        if (precision < 1 || scale > precision) {
            throw error(t, "type " + t.text + size + ": the scale must be between 0 and the precision (1 to "
                    + DataType.MAX_DECIMAL_PRECISION + ")");
        }
        return DataType.decimal(precision, scale);
    }

    /** {@code [(HEADER [bool], DELIMITER 'c', QUOTE 'c', NULL 'text', FORMAT csv)]}, as DuckDB writes them. */
    private DelimitedFormat copyOptions() {
        DelimitedFormat.Builder format = DelimitedFormat.csv().toBuilder();
        if (!accept("(")) {
            return format.build();
        }
        do {
            Token option = take();
            switch (option.type == Type.WORD ? option.text.toUpperCase(Locale.ROOT) : "") {
                case "HEADER" -> format.header(!isBoolean(peek()) || bool(take()));
                case "DELIMITER", "DELIM", "SEP" -> format.delimiter(character(take()));
                case "QUOTE" -> format.quote(character(take()));
                case "NULL" -> format.nullString(string(take()));
                case "FORMAT" -> {
                    Token kind = take();
                    if (!kind.is("CSV") && !(kind.type == Type.STRING && kind.text.equalsIgnoreCase("csv"))) {
                        throw unsupported(kind, "COPY FORMAT " + kind.text + " (delimited text only: FORMAT csv)");
                    }
                }
                default -> throw unsupported(option, "COPY option " + option.describe()
                        + " (known: HEADER, DELIMITER, QUOTE, NULL, FORMAT csv)");
            }
        } while (accept(","));
        expect(")");
        return format.build();
    }

    private static boolean isBoolean(Token t) {
        return t.is("TRUE") || t.is("FALSE") || t.is("ON") || t.is("OFF");
    }

    private boolean bool(Token t) {
        if (t.is("TRUE") || t.is("ON")) {
            return true;
        }
        if (t.is("FALSE") || t.is("OFF")) {
            return false;
        }
        throw error(t, "syntax error: expected TRUE or FALSE but found " + t.describe());
    }

    private char character(Token t) {
        String text = string(t);
        if (text.length() != 1 || text.charAt(0) > 127) {
            throw error(t, "expected one ASCII character in quotes but found " + t.describe());
        }
        return text.charAt(0);
    }

    private String string(Token t) {
        if (t.type != Type.STRING) {
            throw error(t, "syntax error: expected a string in quotes but found " + t.describe());
        }
        return t.text;
    }

    private String name(String what) {
        Token t = take();
        if (t.type != Type.WORD && t.type != Type.QUOTED) {
            throw error(t, "syntax error: expected " + what + " but found " + t.describe());
        }
        return t.text;
    }

    private void expect(String word) {
        Token t = take();
        if (!t.is(word)) {
            throw error(t, "syntax error: expected " + word + " but found " + t.describe());
        }
    }

    private boolean accept(String word) {
        if (peek().is(word)) {
            next++;
            return true;
        }
        return false;
    }

    private void expectEnd() {
        Token t = peek();
        if (t.type != Type.END) {
            throw error(t, "syntax error: unexpected " + t.describe() + " after the statement");
        }
    }

    private Token peek() {
        return tokens.get(next);
    }

    private Token take() {
        Token t = tokens.get(next);
        if (t.type != Type.END) {
            next++;
        }
        return t;
    }

    /** The statement with everything before {@code offset} blanked out, its line breaks kept. */
    private String blankedBefore(int offset) {
        StringBuilder text = new StringBuilder(sql);
        for (int i = 0; i < offset; i++) {
            char c = text.charAt(i);
            if (c != '\n' && c != '\r') {
                text.setCharAt(i, ' ');
            }
        }
        return text.toString();
    }

    private SqlException error(Token t, String message) {
        return errors.at(SqlException.Kind.SYNTAX, message, t.line, t.column);
    }

    private SqlException unsupported(Token t, String what) {
        return errors.at(SqlException.Kind.UNSUPPORTED, "unsupported in SQL: " + what, t.line, t.column);
    }

    // ------------------------------------------------------------------ tokens

    private void tokenize() {
        int i = 0;
        int line = 1;
        int lineStart = 0;
        while (true) {
            while (i < sql.length()) {
                char c = sql.charAt(i);
                if (c == '\n') {
                    line++;
                    lineStart = i + 1;
                    i++;
                } else if (Character.isWhitespace(c)) {
                    i++;
                } else if (sql.startsWith("--", i)) {
                    while (i < sql.length() && sql.charAt(i) != '\n') {
                        i++;
                    }
                } else {
                    break;
                }
            }
            int column = i - lineStart + 1;
            if (i >= sql.length()) {
                tokens.add(new Token(Type.END, "", i, line, column));
                return;
            }
            char c = sql.charAt(i);
            int start = i;
            if (Character.isLetter(c) || c == '_') {
                while (i < sql.length() && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_'
                        || sql.charAt(i) == '$')) {
                    i++;
                }
                tokens.add(new Token(Type.WORD, sql.substring(start, i), start, line, column));
            } else if (Character.isDigit(c)) {
                while (i < sql.length() && Character.isDigit(sql.charAt(i))) {
                    i++;
                }
                tokens.add(new Token(Type.NUMBER, sql.substring(start, i), start, line, column));
            } else if (c == '\'' || c == '"') {
                StringBuilder text = new StringBuilder();
                i++;
                while (true) {
                    if (i >= sql.length()) {
                        throw errors.at(SqlException.Kind.SYNTAX, "syntax error: " + c + " not closed", line, column);
                    }
                    char d = sql.charAt(i++);
                    if (d == '\n') {
                        line++;
                        lineStart = i;
                    }
                    if (d == c) {
                        if (i < sql.length() && sql.charAt(i) == c) {
                            i++;
                        } else {
                            break;
                        }
                    }
                    text.append(d);
                }
                tokens.add(new Token(c == '\'' ? Type.STRING : Type.QUOTED, text.toString(), start, line, column));
            } else {
                i++;
                tokens.add(new Token(Type.SYMBOL, String.valueOf(c), start, line, column));
            }
        }
    }
}
