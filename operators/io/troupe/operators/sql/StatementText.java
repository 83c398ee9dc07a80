package io.troupe.operators.sql;

import java.util.ArrayList;
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
 *   <li>{@code CAST(x AS INTERVAL)} into {@code CAST(x AS INTERVAL DAY TO SECOND)};</li>
 *   <li>a typed literal whose text the parser would refuse ({@code TIMESTAMP '2024-03-10 12:00'}, {@code DATE
 *       '2024-3-1'}, {@code TIME '10:00'}) and a zoned one ({@code TIMESTAMPTZ '2024-03-10 12:00+01'}, {@code
 *       TIMESTAMP WITH TIME ZONE '...'}) into a CAST of its text, which reads it as PostgreSQL does;</li>
 *   <li>a call of an aggregate whose name the parser reserves without taking it as a function's ({@code corr(y,
 *       x)}, most {@code regr_} functions: {@link AggregateOperators#RESERVED_NAMES}) into a call of the quoted name,
 *       {@code "CORR"(y, x)}, and of {@code range(...)}, a keyword of window frames to the parser, into {@code
 *       "range"(...)} ({@link SeriesFunctions}).</li>
 * </ul>
 * The rewriting reads the text as SQL's tokens, so that quoted text, quoted names and comments stay as they are, and
 * keeps where each edit went: {@link #original} takes a position the parser or validator reports in the rewritten
 * text back to the user's, so that errors point at what the user wrote. Immutable.
 */
final class StatementText {

    /** The words that follow an interval literal's text as its unit: {@code INTERVAL '3' DAY}. */
    private static final Set<String> UNITS = Set.of("YEAR", "YEARS", "QUARTER", "QUARTERS", "MONTH", "MONTHS", "WEEK",
            "WEEKS", "DAY", "DAYS", "HOUR", "HOURS", "MINUTE", "MINUTES", "SECOND", "SECONDS");

    private static final String INTERVAL_TYPE = "INTERVAL DAY TO SECOND";

    /** The typed literals whose text Calcite's parser reads, quotes included; other text of theirs is cast. */
    private static final Map<String, Pattern> TYPED = Map.of(
            "DATE", Pattern.compile("'\\d{4}-\\d{2}-\\d{2}'"),
            "TIME", Pattern.compile("'\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,6})?'"),
            "TIMESTAMP", Pattern.compile("'\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}(\\.\\d{1,6})?'"),
            "TIMESTAMPTZ", Pattern.compile("(?!)"));

    private final String original;
    private final String parsed;
    /** The edits, in the order of the text: each replaced original[from, to) with text of length {@code length}. */
    private final List<Edit> edits;

    private record Edit(int from, int to, int length) {
    }

    private StatementText(String original, String parsed, List<Edit> edits) {
        this.original = original;
        this.parsed = parsed;
        this.edits = edits;
    }

    /** {@code sql} with its spellings rewritten for Calcite's parser. */
    static StatementText of(String sql) {
        List<Token> tokens = Token.all(sql);
        Rewriter out = new Rewriter(sql);
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            Token previous = i > 0 ? tokens.get(i - 1) : null;
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
            } else if (t.isWord("INTERVAL") && previous != null && previous.isWord("AS") && next != null
                    && next.isSymbol(")")) {
                out.replace(t.start, t.end, INTERVAL_TYPE);
            } else if (AggregateOperators.RESERVED_NAMES.contains(t.upper()) && next != null && next.isSymbol("(")) {
                out.replace(t.start, t.end, "\"" + t.upper() + "\"");
            } else if (t.isWord("RANGE") && next != null && next.isSymbol("(")) {
                out.replace(t.start, t.end, "\"range\"");
            }
        }
        return out.done();
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

    /** The text with its edits, built as the tokens are read. */
    private static final class Rewriter {
        private final String sql;
        private final StringBuilder out = new StringBuilder();
        private final List<Edit> edits = new ArrayList<>();
        private int copied;

        Rewriter(String sql) {
            this.sql = sql;
        }

        void replace(int from, int to, String replacement) {
            out.append(sql, copied, from).append(replacement);
            edits.add(new Edit(from, to, replacement.length()));
            copied = to;
        }

        StatementText done() {
            if (edits.isEmpty()) {
                return unchanged(sql);
            }
            out.append(sql, copied, sql.length());
            return new StatementText(sql, out.toString(), List.copyOf(edits));
        }
    }

    /** {@code sql} as it is, for a parser of Troupe's own. */
    static StatementText unchanged(String sql) {
        return new StatementText(sql, sql, List.of());
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
                at = end ? e.to - 1 : e.from;
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

    private enum Kind { WORD, STRING, QUOTED_NAME, NUMBER, SYMBOL }

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
                } else if (c == '\'' || c == '"') {
                    end = quoted(sql, i, c);
                    kind = c == '\'' ? Kind.STRING : Kind.QUOTED_NAME;
                } else if (Character.isLetter(c) || c == '_') {
                    while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_'
                            || sql.charAt(end) == '$')) {
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
