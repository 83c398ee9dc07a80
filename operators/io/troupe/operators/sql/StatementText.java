package io.troupe.operators.sql;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A statement as Calcite's parser gets it, and the way back to the user's text. PostgreSQL and DuckDB users write a
 * few spellings the parser lacks, which are rewritten into ones it reads before it sees them:
 * <ul>
 *   <li>an interval literal without a unit, {@code INTERVAL '1 day 2 hours'}, into {@code CAST('1 day 2 hours' AS
 *       INTERVAL DAY TO SECOND)} (Troupe reads the text as PostgreSQL does, months included);</li>
 *   <li>{@code CAST(x AS INTERVAL)} into {@code CAST(x AS INTERVAL DAY TO SECOND)}, and {@code CAST(x AS BLOB)} into
 *       {@code CAST(x AS VARBINARY)};</li>
 *   <li>a typed literal whose text the parser would refuse ({@code TIMESTAMP '2024-03-10 12:00'}, {@code DATE
 *       '2024-3-1'}, {@code TIME '10:00'}) and a zoned one ({@code TIMESTAMPTZ '2024-03-10 12:00+01'}, {@code
 *       TIMESTAMP WITH TIME ZONE '...'}) and every {@code UUID '...'} into a CAST of its text, which reads it as
 *       PostgreSQL does;</li>
 *   <li>a call of an aggregate whose name the parser reserves without taking it as a function's ({@code corr(y,
 *       x)}, most {@code regr_} functions: {@link AggregateOperators#RESERVED_NAMES}) into a call of the quoted name,
 *       {@code "CORR"(y, x)}, and of {@code range(...)}, {@code date_diff(...)} and {@code uuid()}, which the parser
 *       takes for its own, into {@code "range"(...)} ({@link SeriesFunctions}), {@code "date_diff"(...)} and {@code
 *       "uuid"()};</li>
 *   <li>PostgreSQL's cast {@code x::type}, which binds tighter than any other operator, into {@code CAST(x AS
 *       type)}, its operand found by reading back from the {@code ::} (a name, a literal, a call, a parenthesised
 *       expression, a CASE);</li>
 *   <li>an escape string {@code E'a\tb'} into the plain literal of its text ({@link EscapeString});</li>
 *   <li>a word the parser reserves where it stands as a name ({@code SELECT date, count FROM t}): quoted;</li>
 *   <li>PostgreSQL's regular expression match operators {@code ~}, {@code ~*}, {@code !~} and {@code !~*} into
 *       {@code [NOT] RLIKE}, the parser's own operator of that meaning, with {@code '(?i)' ||} before the pattern
 *       to ignore case;</li>
 *   <li>{@code t AT TIME ZONE z}, which binds as {@code ::} does but after it, into {@code timezone(z, t)};</li>
 *   <li>a SELECT with a WHERE and no FROM ({@code SELECT 1 WHERE false}) into one over a single row, {@code SELECT
 *       1 FROM (VALUES (0)) AS "no table"("no column") WHERE false}.</li>
 * </ul>
 * A {@code //}, which Calcite's parser reads as a comment and PostgreSQL and DuckDB do not, is refused. The rewriting
 * reads the text as SQL's tokens, so that quoted text, quoted names and comments stay as they are, and
 * keeps where each edit went: {@link #original} takes a position the parser or validator reports in the rewritten
 * text back to the user's, so that errors point at what the user wrote. Immutable.
 */
final class StatementText {

    /** The words that follow an interval literal's text as its unit: {@code INTERVAL '3' DAY}. */
    private static final Set<String> UNITS = Set.of("YEAR", "YEARS", "QUARTER", "QUARTERS", "MONTH", "MONTHS", "WEEK",
            "WEEKS", "DAY", "DAYS", "HOUR", "HOURS", "MINUTE", "MINUTES", "SECOND", "SECONDS");

    private static final String INTERVAL_TYPE = "INTERVAL DAY TO SECOND";

    /** Type names the parser reads otherwise, as the type of a cast: Troupe's one INTERVAL, and BLOB (a keyword). */
    private static final Map<String, String> RESPELLED = Map.of("INTERVAL", INTERVAL_TYPE, "BLOB", "VARBINARY");

    /** The typed literals whose text Calcite's parser reads, quotes included; other text of theirs is cast. */
    private static final Map<String, Pattern> TYPED = Map.of(
            "DATE", Pattern.compile("'\\d{4}-\\d{2}-\\d{2}'"),
            "TIME", Pattern.compile("'\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,6})?'"),
            "TIMESTAMP", Pattern.compile("'\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}(\\.\\d{1,6})?'"),
            "TIMESTAMPTZ", Pattern.compile("(?!)"),
            "UUID", Pattern.compile("(?!)"));

    private final String original;
    private final String parsed;
    /** The edits, in the order of the text: each replaced original[from, to) with text of length {@code length}. */
    private final List<Edit> edits;
    /** Null, or what makes the text no statement. */
    private final Malformed malformed;

    private record Edit(int from, int to, int length) {
    }

    /** What makes the text no statement before it is parsed, and where: the statement goes no further. */
    record Malformed(SqlException.Kind kind, String message, int offset) {
    }

    private StatementText(String original, String parsed, List<Edit> edits, Malformed malformed) {
        this.original = original;
        this.parsed = parsed;
        this.edits = edits;
        this.malformed = malformed;
    }

    /** {@code sql} with its spellings rewritten for Calcite's parser. */
    static StatementText of(String sql) {
        List<Token> tokens = Token.all(sql);
        Rewriter out = new Rewriter(sql);
        // The first token of each cast's operand, by the index of the cast's last token: x::int::text casts x::int.
        Map<Integer, Integer> casts = new HashMap<>();
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            Token previous = i > 0 ? tokens.get(i - 1) : null;
            if (previous != null && isCast(tokens, i)) {
                int typeEnd = typeEnd(tokens, i + 2);
                if (typeEnd > i + 2) {
                    int operand = casts.containsKey(i - 1) ? casts.get(i - 1) : operandStart(tokens, i - 1);
                    out.replace(tokens.get(operand).start, tokens.get(operand).start, "CAST(");
                    out.replace(t.start, tokens.get(i + 1).end, " AS ");
                    Token type = tokens.get(i + 2);
                    if (typeEnd == i + 3 && RESPELLED.containsKey(type.upper())) {
                        out.replace(type.start, type.end, RESPELLED.get(type.upper()));
                    }
                    out.replace(tokens.get(typeEnd - 1).end, tokens.get(typeEnd - 1).end, ")");
                    casts.put(typeEnd - 1, operand);
                    i = typeEnd - 1;
                }
                continue;
            }
            if (t.isWord("AT") && previous != null && endsOperand(previous) && i + 3 < tokens.size()
                    && tokens.get(i + 1).isWord("TIME") && tokens.get(i + 2).isWord("ZONE")
                    && (tokens.get(i + 3).kind == Kind.STRING || tokens.get(i + 3).kind == Kind.WORD
                    || tokens.get(i + 3).kind == Kind.QUOTED_NAME)) {
                // t AT TIME ZONE z, which binds tighter than any operator but ::, as timezone(z, t).
                Token zone = tokens.get(i + 3);
                int operand = casts.containsKey(i - 1) ? casts.get(i - 1) : operandStart(tokens, i - 1);
                out.wrap(tokens.get(operand).start, "timezone(" + zone.text + ", ");
                out.replace(previous.end, zone.end, ")");
                casts.put(i + 3, operand);
                i += 3;
                continue;
            }
            if (t.isSymbol("/") && adjacent(tokens, i) && tokens.get(i + 1).isSymbol("/")) {
                // Calcite's parser reads // as a comment, which would drop the rest of the line without a word.
                return new StatementText(sql, sql, List.of(), new Malformed(SqlException.Kind.SYNTAX,
                        "syntax error at or near \"//\": PostgreSQL has no // operator; write a / b, which divides "
                                + "two integers as integers, as DuckDB's // does", t.start));
            }
            if (t.kind == Kind.ESCAPED_STRING) {
                try {
                    out.replace(t.start, t.end, "'" + EscapeString.read(t.text).replace("'", "''") + "'");
                } catch (EscapeString.Malformed e) {
                    return new StatementText(sql, sql, List.of(),
                            new Malformed(SqlException.Kind.VALUE, e.getMessage(), t.start + e.at()));
                }
                continue;
            }
            if (previous != null && endsOperand(previous) && (t.isSymbol("~") || t.isSymbol("!") && adjacent(tokens, i)
                    && tokens.get(i + 1).isSymbol("~"))) {
                boolean negated = t.isSymbol("!");
                int tilde = negated ? i + 1 : i;
                boolean ignoreCase = adjacent(tokens, tilde) && tokens.get(tilde + 1).isSymbol("*");
                int last = ignoreCase ? tilde + 1 : tilde;
                out.replace(t.start, tokens.get(last).end,
                        (negated ? "NOT RLIKE " : "RLIKE ") + (ignoreCase ? "'(?i)' || " : ""));
                i = last;
                continue;
            }
            if (t.kind != Kind.WORD || previous != null && (previous.isWord("WITH") || previous.isWord("WITHOUT")
                    || previous.isWord("LOCAL"))) {
                continue;
            }
            int type = i + 1;
            if (t.isWord("TIMESTAMP") || t.isWord("TIME")) {
                type = afterZone(tokens, i + 1);
            }
            Token text = type < tokens.size() && tokens.get(type).kind == Kind.STRING ? tokens.get(type) : null;
            Token next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
            String spelled = sql.substring(t.start, tokens.get(type - 1).end);
            if (text != null && t.isWord("INTERVAL")) {
                Token unit = type + 1 < tokens.size() ? tokens.get(type + 1) : null;
                if (unit == null || unit.kind != Kind.WORD || !UNITS.contains(unit.upper())) {
                    out.replace(t.start, text.end, "CAST(" + text.text + " AS " + INTERVAL_TYPE + ")");
                    i = type;
                }
            } else if (text != null && TYPED.containsKey(t.upper()) && (type > i + 1 || t.isWord("TIMESTAMPTZ")
                    || !TYPED.get(t.upper()).matcher(text.text).matches())) {
                // A zoned literal, or one Calcite's parser would refuse: cast, as PostgreSQL reads the text.
                out.replace(t.start, text.end, "CAST(" + text.text + " AS " + spelled + ")");
                i = type;
            } else if (RESPELLED.containsKey(t.upper()) && previous != null && previous.isWord("AS") && next != null
                    && next.isSymbol(")")) {
                out.replace(t.start, t.end, RESPELLED.get(t.upper()));
            } else if (AggregateOperators.RESERVED_NAMES.contains(t.upper()) && next != null && next.isSymbol("(")) {
                out.replace(t.start, t.end, "\"" + t.upper() + "\"");
            } else if (OWN_CALLS.containsKey(t.upper()) && next != null && next.isSymbol("(")) {
                out.replace(t.start, t.end, "\"" + OWN_CALLS.get(t.upper()) + "\"");
            } else if (NAMES.contains(t.upper()) && isName(tokens, i)) {
                out.replace(t.start, t.end, "\"" + t.text + "\"");
            }
        }
        fromOneRow(tokens, out);
        return out.done();
    }

    /**
     * Gives each SELECT with a WHERE and no FROM (of its own, at its depth of parentheses) a FROM of one row, as
     * PostgreSQL and DuckDB read it, where Calcite's parser wants a FROM before a WHERE.
     */
    private static void fromOneRow(List<Token> tokens, Rewriter out) {
        for (int i = 0; i < tokens.size(); i++) {
            if (!tokens.get(i).isWord("SELECT")) {
                continue;
            }
            int depth = 0;
            for (int j = i + 1; j < tokens.size() && depth >= 0; j++) {
                Token t = tokens.get(j);
                if (t.isSymbol("(")) {
                    depth++;
                } else if (t.isSymbol(")")) {
                    depth--;
                } else if (depth == 0 && (t.isWord("FROM") || t.isWord("SELECT") || t.isWord("UNION")
                        || t.isWord("INTERSECT") || t.isWord("EXCEPT") || t.isSymbol(";"))) {
                    break;
                } else if (depth == 0 && t.isWord("WHERE")) {
                    out.replace(t.start, t.start, "FROM (VALUES (0)) AS \"no table\"(\"no column\") ");
                    break;
                }
            }
        }
    }

    /**
     * Functions whose names Calcite's parser takes for calls of its own, and their names as Troupe's: {@code range(...)}
     * (a window frame's keyword) and {@code date_diff(...)} (BigQuery's, of other arguments).
     */
    private static final Map<String, String> OWN_CALLS = Map.of("RANGE", "range", "DATE_DIFF", "date_diff", "UUID",
            "uuid");

    /**
     * Words Calcite's parser reserves that PostgreSQL and DuckDB take as names of columns and tables ({@code SELECT
     * date, value, count FROM t}, PostgreSQL's name of a count(*) column): where one stands as a name, it is quoted.
     */
    private static final Set<String> NAMES = Set.of("DATE", "TIME", "TIMESTAMP", "INTERVAL", "YEAR", "MONTH", "DAY",
            "HOUR", "MINUTE", "SECOND", "VALUE", "COUNT", "POSITION", "RESULT", "LANGUAGE", "START", "MIN", "MAX", "SUM",
            "AVG", "RANK", "PERCENT", "PERIOD", "LAG", "LEAD", "UPPER", "LOWER", "FLOOR", "CEIL", "MOD", "POWER",
            "ELEMENT", "AT", "PARTITION", "SYSTEM", "EXTERNAL", "GLOBAL", "METHOD", "NEW", "OLD", "PARAMETER", "RELEASE",
            "RETURN", "TRANSLATION", "TRIGGER");
    /** The calls whose first word is a unit ({@code EXTRACT(YEAR FROM t)}), and those that name a type after AS. */
    private static final Set<String> UNIT_CALLS = Set.of("EXTRACT", "TIMESTAMPADD", "TIMESTAMPDIFF");
    private static final Set<String> CASTS = Set.of("CAST", "TRY_CAST", "SAFE_CAST");

    /**
     * Whether the word at {@code i}, one of {@link #NAMES}, stands as a name: not a call ({@code count(*)}), a typed
     * literal's type ({@code DATE '...'}), a type ({@code CAST(x AS DATE)}, {@code TIMESTAMP WITH TIME ZONE}) or an
     * interval's or EXTRACT's unit ({@code INTERVAL '3' DAY}, {@code DAY TO SECOND}, {@code EXTRACT(YEAR FROM t)},
     * {@code FLOOR(t TO DAY)}, {@code AT TIME ZONE}), or a keyword of its clause ({@code AT TIME ZONE}, {@code
     * PARTITION BY}).
     */
    private static boolean isName(List<Token> tokens, int i) {
        Token next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
        Token previous = i > 0 ? tokens.get(i - 1) : null;
        if (next != null && (tokens.get(i).isWord("AT") && (next.isWord("TIME") || next.isWord("LOCAL"))
                || tokens.get(i).isWord("PARTITION") && next.isWord("BY"))) {
            return false;
        }
        if (next != null && (next.isSymbol("(") || next.kind == Kind.STRING || next.kind == Kind.ESCAPED_STRING
                || next.isWord("WITH") || next.isWord("WITHOUT") || next.isWord("ZONE"))) {
            return false;
        }
        if (previous == null) {
            return true;
        }
        if (previous.kind == Kind.STRING || previous.isWord("TO") || previous.isWord("AT")
                || previous.isWord("INTERVAL")) {
            return false;
        }
        String call = enclosingCall(tokens, i);
        return !(previous.isWord("AS") && CASTS.contains(call) || previous.isSymbol("(") && UNIT_CALLS.contains(call));
    }

    /** The word, upper case, before the innermost parenthesis open at token {@code i}; empty if none. */
    private static String enclosingCall(List<Token> tokens, int i) {
        int depth = 0;
        for (int j = i - 1; j >= 0; j--) {
            if (tokens.get(j).isSymbol(")")) {
                depth++;
            } else if (tokens.get(j).isSymbol("(") && depth-- == 0) {
                return j > 0 && tokens.get(j - 1).kind == Kind.WORD ? tokens.get(j - 1).upper() : "";
            }
        }
        return "";
    }

    /** Whether tokens {@code i} and {@code i + 1} are PostgreSQL's cast operator, {@code ::}. */
    private static boolean isCast(List<Token> tokens, int i) {
        return adjacent(tokens, i) && tokens.get(i).isSymbol(":") && tokens.get(i + 1).isSymbol(":");
    }

    /** Whether token {@code i + 1} follows token {@code i} with nothing between them. */
    private static boolean adjacent(List<Token> tokens, int i) {
        return i + 1 < tokens.size() && tokens.get(i + 1).start == tokens.get(i).end;
    }

    /** Whether {@code t} can end an operand, so that an operator after it is a binary one. */
    private static boolean endsOperand(Token t) {
        return switch (t.kind) {
            case STRING, ESCAPED_STRING, QUOTED_NAME, NUMBER -> true;
            case WORD -> !NOT_CALLS.contains(t.upper());
            case SYMBOL -> t.isSymbol(")") || t.isSymbol("?");
        };
    }

    /**
     * The index after the type that starts at {@code i}, as PostgreSQL spells types: a name, {@code DOUBLE PRECISION},
     * {@code CHARACTER VARYING}, a parenthesised precision, a TIMESTAMP's or TIME's zone, an INTERVAL's units; {@code
     * i} when no type starts there.
     */
    private static int typeEnd(List<Token> tokens, int i) {
        if (i >= tokens.size() || tokens.get(i).kind != Kind.WORD && tokens.get(i).kind != Kind.QUOTED_NAME) {
            return i;
        }
        Token name = tokens.get(i);
        int j = i + 1;
        if (name.isWord("DOUBLE") && j < tokens.size() && tokens.get(j).isWord("PRECISION")
                || (name.isWord("CHARACTER") || name.isWord("CHAR")) && j < tokens.size()
                && tokens.get(j).isWord("VARYING")) {
            j++;
        }
        while (name.isWord("INTERVAL") && j < tokens.size()
                && (UNITS.contains(tokens.get(j).upper()) || tokens.get(j).isWord("TO"))) {
            j++;
        }
        if (j < tokens.size() && tokens.get(j).isSymbol("(")) {
            j = closing(tokens, j) + 1;
        }
        return name.isWord("TIMESTAMP") || name.isWord("TIME") ? afterZone(tokens, j) : j;
    }

    /** The words before a parenthesis that make it no function call's: {@code x IN (1, 2)::text} casts a list. */
    private static final Set<String> NOT_CALLS = Set.of("SELECT", "WHERE", "AND", "OR", "NOT", "IN", "ON", "AS",
            "BY", "WHEN", "THEN", "ELSE", "FROM", "JOIN", "HAVING", "EXISTS", "ALL", "ANY", "SOME", "VALUES", "LIKE",
            "ILIKE", "BETWEEN", "IS", "DISTINCT", "UNION", "INTERSECT", "EXCEPT", "WITH", "USING", "LIMIT", "OFFSET",
            "ESCAPE", "TO", "INTO", "TABLE", "LATERAL", "CASE", "RETURN", "SET");

    /**
     * The index of the first token of the operand that ends at token {@code k}, as PostgreSQL binds {@code ::} (tighter
     * than any other operator): a name, qualified or not; a literal, typed or prefixed ({@code DATE '...'}, {@code
     * E'...'}); a function call with its FILTER, WITHIN GROUP and OVER; a parenthesised expression; a CASE.
     */
    private static int operandStart(List<Token> tokens, int k) {
        Token t = tokens.get(k);
        int start = k;
        if (t.isSymbol(")")) {
            start = opening(tokens, k);
            Token before = start > 0 ? tokens.get(start - 1) : null;
            if (before != null && (before.isWord("OVER") || before.isWord("FILTER"))
                    || before != null && before.isWord("GROUP") && start > 1 && tokens.get(start - 2).isWord("WITHIN")) {
                int call = start - (before.isWord("GROUP") ? 3 : 2);
                return call >= 0 ? operandStart(tokens, call) : start;
            }
            if (before != null && (before.kind == Kind.QUOTED_NAME
                    || before.kind == Kind.WORD && !NOT_CALLS.contains(before.upper()))) {
                start--;
            }
        } else if (t.isWord("END")) {
            start = caseStart(tokens, k);
        } else if (t.kind == Kind.STRING && k > 0) {
            start = typedLiteralStart(tokens, k);
        }
        while (start >= 2 && tokens.get(start - 1).isSymbol(".") && (tokens.get(start - 2).kind == Kind.WORD
                || tokens.get(start - 2).kind == Kind.QUOTED_NAME)) {
            start -= 2;
        }
        return start;
    }

    /** The index of the first token of the literal whose text is token {@code k}: its prefix or type name. */
    private static int typedLiteralStart(List<Token> tokens, int k) {
        Token before = tokens.get(k - 1);
        if (before.kind == Kind.WORD && before.end == tokens.get(k).start) {
            return k - 1;
        }
        if (TYPED.containsKey(before.upper()) || before.isWord("INTERVAL")) {
            return k - 1;
        }
        for (int j = k - 1; j >= 0 && j >= k - 5; j--) {
            if ((tokens.get(j).isWord("TIMESTAMP") || tokens.get(j).isWord("TIME")) && afterZone(tokens, j + 1) == k) {
                return j;
            }
        }
        return k;
    }

    /** The index of the CASE that the END at {@code k} closes. */
    private static int caseStart(List<Token> tokens, int k) {
        int depth = 0;
        for (int j = k; j >= 0; j--) {
            if (tokens.get(j).isWord("END")) {
                depth++;
            } else if (tokens.get(j).isWord("CASE") && --depth == 0) {
                return j;
            }
        }
        return k;
    }

    /** The index of the parenthesis that closes the one at {@code k}; the last token's if none does. */
    private static int closing(List<Token> tokens, int k) {
        int depth = 0;
        for (int j = k; j < tokens.size(); j++) {
            if (tokens.get(j).isSymbol("(")) {
                depth++;
            } else if (tokens.get(j).isSymbol(")") && --depth == 0) {
                return j;
            }
        }
        return tokens.size() - 1;
    }

    /** The index of the parenthesis that the one at {@code k} closes; {@code k} if none opens it. */
    private static int opening(List<Token> tokens, int k) {
        int depth = 0;
        for (int j = k; j >= 0; j--) {
            if (tokens.get(j).isSymbol(")")) {
                depth++;
            } else if (tokens.get(j).isSymbol("(") && --depth == 0) {
                return j;
            }
        }
        return k;
    }

    /** The index after {@code WITH [LOCAL] TIME ZONE} or {@code WITHOUT TIME ZONE} at {@code i}, else {@code i}. */
    private static int afterZone(List<Token> tokens, int i) {
        int j = i;
        if (j < tokens.size() && (tokens.get(j).isWord("WITH") || tokens.get(j).isWord("WITHOUT"))) {
            j++;
            if (j < tokens.size() && tokens.get(j).isWord("LOCAL")) {
                j++;
            }
            if (j + 1 < tokens.size() && tokens.get(j).isWord("TIME") && tokens.get(j + 1).isWord("ZONE")) {
                return j + 2;
            }
        }
        return i;
    }

    /**
     * The text with its edits, which come as the tokens are read, a cast's {@code CAST(} behind them: they are put in
     * the order of the text when done, an insertion before a replacement that starts where it goes.
     */
    private static final class Rewriter {
        private final String sql;
        private final List<Change> changes = new ArrayList<>();

        /** {@code order}: among changes at one place, the lower first. */
        private record Change(int from, int to, String replacement, int order) {
        }

        Rewriter(String sql) {
            this.sql = sql;
        }

        /** Replaces {@code [from, to)} of the original, or inserts at {@code from} when {@code to == from}. */
        void replace(int from, int to, String replacement) {
            changes.add(new Change(from, to, replacement, changes.size()));
        }

        /** Inserts {@code opening} at {@code at} before whatever was inserted there so far: a call around it all. */
        void wrap(int at, String opening) {
            changes.add(new Change(at, at, opening, -changes.size() - 1));
        }

        StatementText done() {
            if (changes.isEmpty()) {
                return unchanged(sql);
            }
            List<Change> ordered = new ArrayList<>(changes);
            ordered.sort(Comparator.comparingInt(Change::from).thenComparingInt(Change::to)
                    .thenComparingInt(Change::order));
            StringBuilder out = new StringBuilder(sql.length() + 16 * ordered.size());
            List<Edit> edits = new ArrayList<>(ordered.size());
            int copied = 0;
            for (Change c : ordered) {
                out.append(sql, copied, c.from).append(c.replacement);
                edits.add(new Edit(c.from, c.to, c.replacement.length()));
                copied = c.to;
            }
            out.append(sql, copied, sql.length());
            return new StatementText(sql, out.toString(), List.copyOf(edits), null);
        }
    }

    /** {@code sql} as it is, for a parser of Troupe's own. */
    static StatementText unchanged(String sql) {
        return new StatementText(sql, sql, List.of(), null);
    }

    /** Null, or what makes the text no statement (an escape string's bad escape, {@code //}); the parser never gets it. */
    Malformed malformed() {
        return malformed;
    }

    /** The line and column (1-based) of {@code offset} in the user's text. */
    int[] position(int offset) {
        return positionOf(original, offset);
    }

    /** The text as the user wrote it. */
    String original() {
        return original;
    }

    /** The text Calcite's parser reads. */
    String parsed() {
        return parsed;
    }

    /**
     * The position in the user's text of {@code line} and {@code column} (1-based) of the parsed text, as {@code
     * {line, column}}: a position within a rewritten spelling is where that spelling starts. Positions below 1 are
     * returned as they are (no position).
     */
    int[] original(int line, int column) {
        return original(line, column, false);
    }

    /**
     * As {@link #original(int, int)}, for the last character of a span: one within a rewritten spelling is where that
     * spelling ends.
     */
    int[] originalEnd(int line, int column) {
        return original(line, column, true);
    }

    private int[] original(int line, int column, boolean end) {
        if (edits.isEmpty() || line < 1 || column < 1) {
            return new int[] {line, column};
        }
        int offset = offsetOf(parsed, line, column);
        int shift = 0;
        int at = offset;
        for (Edit e : edits) {
            int start = e.from + shift;
            if (offset < start) {
                break;
            }
            if (offset < start + e.length) {
                at = end ? Math.max(e.from, e.to - 1) : e.from;
                shift = Integer.MIN_VALUE;
                break;
            }
            shift += e.length - (e.to - e.from);
        }
        if (shift != Integer.MIN_VALUE) {
            at = offset - shift;
        }
        return positionOf(original, at);
    }

    private static int offsetOf(String text, int line, int column) {
        int offset = 0;
        for (int l = 1; l < line && offset < text.length(); l++) {
            int newline = text.indexOf('\n', offset);
            offset = newline < 0 ? text.length() : newline + 1;
        }
        return offset + column - 1;
    }

    private static int[] positionOf(String text, int offset) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new int[] {line, offset - lineStart + 1};
    }

    private enum Kind { WORD, STRING, ESCAPED_STRING, QUOTED_NAME, NUMBER, SYMBOL }

    /** One of SQL's tokens: whitespace and comments are not tokens. */
    private record Token(Kind kind, int start, int end, String text) {

        boolean isWord(String word) {
            return kind == Kind.WORD && text.equalsIgnoreCase(word);
        }

        boolean isSymbol(String symbol) {
            return kind == Kind.SYMBOL && text.equals(symbol);
        }

        String upper() {
            return text.toUpperCase(Locale.ROOT);
        }

        static List<Token> all(String sql) {
            List<Token> tokens = new ArrayList<>();
            int n = sql.length();
            int i = 0;
            while (i < n) {
                char c = sql.charAt(i);
                int end = i + 1;
                Kind kind;
                if (Character.isWhitespace(c)) {
                    i++;
                    continue;
                } else if (c == '-' && sql.startsWith("--", i)) {
                    end = sql.indexOf('\n', i);
                    i = end < 0 ? n : end;
                    continue;
                } else if (c == '/' && sql.startsWith("/*", i)) {
                    end = sql.indexOf("*/", i + 2);
                    i = end < 0 ? n : end + 2;
                    continue;
                } else if ((c == 'E' || c == 'e') && i + 1 < n && sql.charAt(i + 1) == '\''
                        && (i == 0 || !isWordPart(sql.charAt(i - 1)))) {
                    end = escaped(sql, i + 1);
                    kind = Kind.ESCAPED_STRING;
                } else if (c == '\'' || c == '"') {
                    end = quoted(sql, i, c);
                    kind = c == '\'' ? Kind.STRING : Kind.QUOTED_NAME;
                } else if (Character.isLetter(c) || c == '_') {
                    while (end < n && isWordPart(sql.charAt(end))) {
                        end++;
                    }
                    kind = Kind.WORD;
                } else if (Character.isDigit(c)) {
                    while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '.')) {
                        end++;
                    }
                    kind = Kind.NUMBER;
                } else {
                    kind = Kind.SYMBOL;
                }
                tokens.add(new Token(kind, i, end, sql.substring(i, end)));
                i = end;
            }
            return tokens;
        }

        private static boolean isWordPart(char c) {
            return Character.isLetterOrDigit(c) || c == '_' || c == '$';
        }

        /** The end of the escape string's text starting at {@code start}: a backslash escapes the next character. */
        private static int escaped(String sql, int start) {
            int i = start + 1;
            while (i < sql.length()) {
                char c = sql.charAt(i);
                if (c == '\\') {
                    i += 2;
                    continue;
                }
                if (c == '\'') {
                    if (i + 1 < sql.length() && sql.charAt(i + 1) == '\'') {
                        i += 2;
                        continue;
                    }
                    return i + 1;
                }
                i++;
            }
            return sql.length();
        }

        /** The end of the quoted text starting at {@code start}, a doubled quote inside it; the text's end if open. */
        private static int quoted(String sql, int start, char quote) {
            int i = start + 1;
            while (i < sql.length()) {
                if (sql.charAt(i) == quote) {
                    if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                        i += 2;
                        continue;
                    }
                    return i + 1;
                }
                i++;
            }
            return sql.length();
        }
    }
}
