package io.troupe.operators.expr;

import io.troupe.operators.exec.QueryDataException;

import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Regular expressions as PostgreSQL writes them, run by {@link java.util.regex}: a pattern is
 * checked and rewritten into Java's syntax so that it matches what it matches in PostgreSQL, and
 * a construct that Java, PostgreSQL's ARE and DuckDB's RE2 would read differently, and that this
 * class cannot rewrite, is refused rather than run with another meaning. docs/sql/functions-string.md
 * has the list for users.
 *
 * <h2>The same in all three</h2>
 * Literals; {@code .}; bracket expressions with ranges and negation, a {@code ]} first being a
 * literal; the POSIX classes {@code [[:alpha:]]} ... (ASCII, as PostgreSQL in the C locale and RE2;
 * rewritten, since Java reads {@code [[:alpha:]]} as a nested class); {@code \d \s \w \D \S \W}
 * (ASCII); {@code ^}, {@code $}, {@code \A}; the quantifiers {@code * + ? {m} {m,} {m,n}} (at most
 * 255, PostgreSQL's limit) and their non-greedy forms; groups {@code ( )} and {@code (?: )};
 * {@code |}; the escapes {@code \t \n \r \f \v} and a backslash before punctuation; options at the very start,
 * {@code (?i)}, of the letters the flags argument takes but {@code g} (applied after the flags, as in PostgreSQL).
 *
 * <h2>Rewritten</h2>
 * <ul>
 *   <li>{@code .} matches a newline, as in PostgreSQL (Java and RE2 need a flag for it).</li>
 *   <li>{@code $} matches at the very end only (Java's also before a final newline): {@code \z}.</li>
 *   <li>{@code \Z} (PostgreSQL's end of string, Java's end or before a final newline): {@code \z}.</li>
 *   <li>{@code \v} is the vertical tab (Java: any vertical space).</li>
 *   <li>In brackets, {@code [} and {@code &} are literals (Java: a nested class, an intersection).</li>
 *   <li>A {@code {} that starts no bound is a literal (Java fails it).</li>
 *   <li>With the {@code n} option, {@code [^...]} does not match a newline, as in PostgreSQL.</li>
 * </ul>
 *
 * <h2>Refused</h2>
 * Backreferences {@code \1} (RE2 has none); {@code (?} constructs other than {@code (?:} and the
 * leading options: lookahead and lookbehind (RE2 has none), named groups, options elsewhere and
 * PostgreSQL's other option letters ({@code (?x)}, {@code (?q)} ...); possessive quantifiers
 * (PostgreSQL and RE2 have none); {@code \b} and {@code \B} (PostgreSQL: backspace and backslash,
 * Java and RE2: word boundaries); any other escape of a letter or digit ({@code \x41}, {@code \u00e9},
 * {@code \p{L}}, {@code \m}, {@code \y} ...: read differently or not at all by one of them);
 * collating elements {@code [= =]} and {@code [. .]}; and non-greedy quantifiers in a pattern that
 * also has a greedy one or a {@code |}, where PostgreSQL decides the greediness of the whole match
 * by its first quantifier (and makes alternation greedy) while Java and RE2 decide it per quantifier.
 *
 * <h2>Not detected</h2>
 * Alternation: PostgreSQL's match is the longest ({@code a|ab} takes {@code ab} of {@code abc}),
 * Java's and RE2's the first alternative that matches ({@code a}). They agree where no
 * alternative's match is a prefix of another's.
 *
 * <p>Stateless; threadsafe.
 */
final class RegexDialect {

    /** PostgreSQL's largest repetition count (DUPMAX). */
    private static final int MAX_REPEAT = 255;

    /** The POSIX classes in Java's syntax, ASCII as in PostgreSQL's C locale. */
    private static final Map<String, String> POSIX_CLASSES = Map.ofEntries(
            Map.entry("alpha", "\\p{Alpha}"), Map.entry("digit", "0-9"), Map.entry("alnum", "\\p{Alnum}"),
            Map.entry("upper", "\\p{Upper}"), Map.entry("lower", "\\p{Lower}"), Map.entry("space", "\\s"),
            Map.entry("punct", "\\p{Punct}"), Map.entry("xdigit", "0-9A-Fa-f"), Map.entry("blank", " \\t"),
            Map.entry("cntrl", "\\x00-\\x1F\\x7F"), Map.entry("print", "\\x20-\\x7E"),
            Map.entry("graph", "\\x21-\\x7E"), Map.entry("word", "\\w"));

    /** A call's options, from its flags argument. */
    record Options(boolean ignoreCase, boolean newlineSensitive, boolean global) {

        static final Options DEFAULT = new Options(false, false, false);
    }

    private RegexDialect() {
    }

    /**
     * The options of {@code flags}, as PostgreSQL reads them: {@code i} ignores case, {@code c} does
     * not (the last one counts), {@code n} (or {@code m}) is newline-sensitive, {@code s} is not,
     * {@code g} replaces every match (regexp_replace only).
     *
     * @throws DomainException for another letter, or {@code g} where {@code globalAllowed} is false
     */
    static Options options(String flags, boolean globalAllowed, String function) {
        boolean ignoreCase = false;
        boolean newline = false;
        boolean global = false;
        for (int i = 0; i < flags.length(); i++) {
            switch (flags.charAt(i)) {
                case 'i' -> ignoreCase = true;
                case 'c' -> ignoreCase = false;
                case 'n', 'm' -> newline = true;
                case 's' -> newline = false;
                case 'g' -> {
                    if (!globalAllowed) {
                        throw new DomainException(function + " does not support the \"global\" option");
                    }
                    global = true;
                }
                default -> throw new DomainException("invalid regular expression option: \""
                        + flags.substring(i, flags.offsetByCodePoints(i, 1)) + "\"");
            }
        }
        return new Options(ignoreCase, newline, global);
    }

    /**
     * {@code pattern} compiled as PostgreSQL reads it under {@code options}.
     *
     * @throws DomainException ({@link QueryDataException.Kind#INVALID_REGULAR_EXPRESSION}) naming the
     *         pattern, when it is no regular expression or has a construct this dialect refuses
     */
    static Pattern compile(String pattern, Options given) {
        Options options = given;
        int start = 0;
        for (int close = leadingOptionsEnd(pattern, start); close > 0; close = leadingOptionsEnd(pattern, start)) {
            options = embedded(pattern.substring(start + 2, close), options, pattern);
            start = close + 1;
        }
        String java = translate(pattern.substring(start), options.newlineSensitive());
        int flags = Pattern.UNIX_LINES | (options.newlineSensitive() ? Pattern.MULTILINE : Pattern.DOTALL)
                | (options.ignoreCase() ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
        try {
            return Pattern.compile(java, flags);
        } catch (PatternSyntaxException e) {
            throw invalid(e.getDescription(), pattern);
        }
    }

    /** The index of the {@code )} that closes options {@code (?i)} at {@code start} of {@code pattern}; else -1. */
    private static int leadingOptionsEnd(String pattern, int start) {
        int close = pattern.startsWith("(?", start) ? pattern.indexOf(')', start) : -1;
        return close > start + 2 && pattern.substring(start + 2, close).chars().allMatch(Character::isLetter)
                ? close : -1;
    }

    /** {@code options} with the leading options {@code letters} of {@code pattern} applied. */
    private static Options embedded(String letters, Options options, String pattern) {
        boolean ignoreCase = options.ignoreCase();
        boolean newline = options.newlineSensitive();
        for (int i = 0; i < letters.length(); i++) {
            switch (letters.charAt(i)) {
                case 'i' -> ignoreCase = true;
                case 'c' -> ignoreCase = false;
                case 'n', 'm' -> newline = true;
                case 's' -> newline = false;
                default -> throw refused("the option (?" + letters.charAt(i) + ")", pattern);
            }
        }
        return new Options(ignoreCase, newline, options.global());
    }

    /** {@code pattern} in Java's syntax; see the class comment. Visible for testing. */
    static String translate(String pattern, boolean newlineSensitive) {
        StringBuilder out = new StringBuilder(pattern.length() + 8);
        boolean greedy = false;
        boolean lazy = false;
        boolean alternation = false;
        int n = pattern.length();
        int i = 0;
        while (i < n) {
            char c = pattern.charAt(i);
            switch (c) {
                case '\\' -> i = escape(pattern, i, out, false);
                case '[' -> i = bracket(pattern, i, out, newlineSensitive);
                case '(' -> {
                    if (i + 1 < n && pattern.charAt(i + 1) == '?') {
                        if (i + 2 >= n || pattern.charAt(i + 2) != ':') {
                            throw refused("(?" + (i + 2 < n ? pattern.charAt(i + 2) : "")
                                    + " (lookaround, named groups and inline options: only (?: is read alike)",
                                    pattern);
                        }
                        out.append("(?:");
                        i += 3;
                    } else {
                        out.append('(');
                        i++;
                    }
                }
                case '$' -> {
                    out.append(newlineSensitive ? "$" : "\\z");
                    i++;
                }
                case '|' -> {
                    alternation = true;
                    out.append('|');
                    i++;
                }
                case '*', '+', '?', '{' -> {
                    int end = c == '{' ? bound(pattern, i) : i + 1;
                    if (end < 0) {
                        out.append("\\{");
                        i++;
                        break;
                    }
                    out.append(pattern, i, end);
                    boolean exact = c == '{' && pattern.substring(i, end).indexOf(',') < 0;
                    i = end;
                    if (i < n && pattern.charAt(i) == '+') {
                        throw refused("the possessive quantifier " + pattern.substring(i - 1, i + 1), pattern);
                    }
                    if (i < n && pattern.charAt(i) == '?') {
                        out.append('?');
                        i++;
                        lazy |= !exact;
                    } else {
                        greedy |= !exact;
                    }
                }
                default -> {
                    out.append(c);
                    i++;
                }
            }
        }
        if (lazy && (greedy || alternation)) {
            throw refused("non-greedy quantifiers beside greedy ones or | (PostgreSQL makes the whole match as "
                    + "greedy as its first quantifier, Java decides per quantifier)", pattern);
        }
        return out.toString();
    }

    /**
     * After a <code>{</code> at {@code i}: the position after its <code>}</code> when it starts a
     * bound <code>{m}</code>, <code>{m,}</code> or <code>{m,n}</code>; else -1.
     */
    private static int bound(String p, int i) {
        int j = i + 1;
        int n = p.length();
        int digits = j;
        while (j < n && Character.isDigit(p.charAt(j)) && p.charAt(j) < 128) {
            j++;
        }
        if (j == digits) {
            return -1;
        }
        long low = Long.parseLong(p.substring(digits, Math.min(j, digits + 9)));
        long high = low;
        if (j < n && p.charAt(j) == ',') {
            int from = ++j;
            while (j < n && Character.isDigit(p.charAt(j)) && p.charAt(j) < 128) {
                j++;
            }
            high = j == from ? low : Long.parseLong(p.substring(from, Math.min(j, from + 9)));
        }
        if (j >= n || p.charAt(j) != '}') {
            return -1;
        }
        if (low > MAX_REPEAT || high > MAX_REPEAT) {
            throw invalid("invalid repetition count(s)", p);
        }
        return j + 1;
    }

    /** The escape at {@code i}, translated into {@code out}; returns the position after it. */
    private static int escape(String p, int i, StringBuilder out, boolean inBracket) {
        if (i + 1 >= p.length()) {
            throw invalid("invalid escape \\ sequence", p);
        }
        int e = p.codePointAt(i + 1);
        int after = i + 1 + Character.charCount(e);
        switch (e) {
            case 'd', 's', 'w' -> out.append('\\').append((char) e);
            case 'D', 'S', 'W' -> {
                if (inBracket) {
                    throw refused("\\" + (char) e + " in brackets", p);
                }
                out.append('\\').append((char) e);
            }
            case 't', 'n', 'r', 'f' -> out.append('\\').append((char) e);
            case 'v' -> out.append("\\x0B");
            case 'A', 'Z', 'z' -> {
                if (inBracket) {
                    throw refused("\\" + (char) e + " in brackets", p);
                }
                out.append(e == 'A' ? "\\A" : "\\z");
            }
            default -> {
                if (e >= '1' && e <= '9') {
                    throw refused("the backreference \\" + (char) e + " (DuckDB's RE2 has none)", p);
                }
                if (e == 'b' || e == 'B') {
                    throw refused("\\" + (char) e + " (a word boundary in Java and DuckDB, "
                            + (e == 'b' ? "a backspace" : "a backslash") + " in PostgreSQL)", p);
                }
                if (e < 128 && Character.isLetterOrDigit(e)) {
                    throw refused("the escape \\" + (char) e, p);
                }
                if (e < 128) {
                    out.append('\\');
                }
                out.appendCodePoint(e);
            }
        }
        return after;
    }

    /** The bracket expression at {@code i}, translated into {@code out}; returns the position after it. */
    private static int bracket(String p, int i, StringBuilder out, boolean newlineSensitive) {
        int n = p.length();
        int j = i + 1;
        StringBuilder b = new StringBuilder("[");
        boolean negated = j < n && p.charAt(j) == '^';
        if (negated) {
            b.append('^');
            j++;
        }
        if (j < n && p.charAt(j) == ']') {
            b.append("\\]");
            j++;
        }
        while (true) {
            if (j >= n) {
                throw invalid("brackets [] not balanced", p);
            }
            char c = p.charAt(j);
            if (c == ']') {
                j++;
                break;
            }
            char next = j + 1 < n ? p.charAt(j + 1) : 0;
            if (c == '[' && next == ':') {
                int end = p.indexOf(":]", j + 2);
                String java = end < 0 ? null : POSIX_CLASSES.get(p.substring(j + 2, end));
                if (java == null) {
                    throw invalid("invalid character class", p);
                }
                b.append(java);
                j = end + 2;
            } else if (c == '[' && (next == '=' || next == '.')) {
                throw refused("the collating element [" + next, p);
            } else if (c == '[' || c == '&') {
                b.append('\\').append(c);
                j++;
            } else if (c == '\\') {
                j = escape(p, j, b, true);
            } else {
                b.append(c);
                j++;
            }
        }
        if (negated && newlineSensitive) {
            b.append("\\n");
        }
        out.append(b).append(']');
        return j;
    }

    private static DomainException invalid(String why, String pattern) {
        return new DomainException(QueryDataException.Kind.INVALID_REGULAR_EXPRESSION,
                "invalid regular expression: " + why + " (pattern '" + pattern + "')");
    }

    private static DomainException refused(String construct, String pattern) {
        return new DomainException(QueryDataException.Kind.INVALID_REGULAR_EXPRESSION,
                "unsupported in a regular expression: " + construct + " (pattern '" + pattern + "')");
    }
}
