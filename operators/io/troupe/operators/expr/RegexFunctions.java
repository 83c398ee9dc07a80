package io.troupe.operators.expr;

import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The regular expression functions, in PostgreSQL's dialect ({@link RegexDialect}):
 * <ul>
 *   <li>{@code regexp_matches(s, pattern [, flags])}: whether {@code pattern} matches somewhere in
 *       {@code s}; a BOOLEAN, as DuckDB's (PostgreSQL's returns the matched groups as a set of
 *       arrays, which Troupe has no type for; its {@code regexp_like} is this function).</li>
 *   <li>{@code regexp_replace(s, pattern, replacement [, flags])}: the first match (every match
 *       with flag {@code g}) replaced; in {@code replacement}, {@code \1} to {@code \9} are the
 *       groups (empty when the group did not take part or does not exist), {@code \&} the whole
 *       match and {@code \\} a backslash, as in PostgreSQL (DuckDB: {@code \0} is the match, a
 *       missing group fails).</li>
 *   <li>{@code regexp_extract(s, pattern [, group [, flags]])} (DuckDB's): the first match's
 *       {@code group} (0, the whole match, when left out), {@code ''} when nothing matches or the
 *       group did not take part; {@code group} is a constant.</li>
 * </ul>
 * A constant pattern is compiled once, at bind time; a pattern from a column is compiled per row,
 * the last one kept, so that a run of equal patterns compiles once. A bad pattern or flag fails
 * when a row reaches it, naming the pattern and the call ({@code invalid regular expression: ...},
 * SQLSTATE 2201B). A row of ASCII is matched in place; any other row is decoded. A value on which
 * Java's backtracking would take more than about a second fails (see {@code RowChars}).
 *
 * <p>Stateless; threadsafe (each evaluation has its own matcher).
 */
final class RegexFunctions {

    private RegexFunctions() {
    }

    static final Signature.Kernel MATCHES = (args, type, text) -> {
        Source source = new Source(args, 2, false, "regexp_matches");
        return StringKernel.predicateWithState(args, text, () -> {
            Row row = new Row(source);
            return (a, r) -> row.find(row.matcher(a, r));
        });
    };

    static final Signature.Kernel REPLACE = (args, type, text) -> {
        Source source = new Source(args, 3, true, "regexp_replace");
        byte[] template = StringFunctions.constant(args.get(2));
        Replacement fixed = template == null ? null : Replacement.parse(template, 0, template.length);
        boolean global = source.options.global();
        return StringKernel.textWithState(args, text, () -> {
            Row row = new Row(source);
            return (a, r, out) -> {
                Matcher m = row.matcher(a, r);
                Replacement replacement = fixed != null ? fixed : row.replacement(a, r);
                int last = 0;
                // Where a match of some text ends, an empty match is no match, as in PostgreSQL and RE2:
                // regexp_replace('abc', 'a*b?', 'X', 'g') is XcX (Java's search would give XXcX).
                int endOfText = -1;
                while (row.find(m)) {
                    if (m.start() == m.end() && m.start() == endOfText) {
                        continue;
                    }
                    row.append(out, last, m.start());
                    replacement.append(m, row, out);
                    last = m.end();
                    endOfText = m.start() < m.end() ? last : -1;
                    if (!global) {
                        break;
                    }
                }
                row.append(out, last, row.length());
            };
        });
    };

    static final Signature.Kernel EXTRACT = (args, type, text) -> {
        int group = 0;
        if (args.size() > 2) {
            LiteralExpression g = (LiteralExpression) args.get(2);
            if (g.isNull()) {
                return new LiteralExpression(null, DataType.VARCHAR, text);
            }
            group = g.intValue();
            if (group < 0) {
                throw new ExpressionTypeException("regexp_extract's group must not be negative, got " + group
                        + " in " + text);
            }
        }
        int wanted = group;
        Source source = new Source(args, 3, false, "regexp_extract");
        return StringKernel.textWithState(args, text, () -> {
            Row row = new Row(source);
            return (a, r, out) -> {
                Matcher m = row.matcher(a, r);
                if (row.find(m) && wanted <= m.groupCount() && m.start(wanted) >= 0) {
                    row.append(out, m.start(wanted), m.end(wanted));
                }
            };
        });
    };

    /**
     * Where a call's pattern comes from: its options, and the pattern compiled at bind time when it
     * is a constant. A constant that does not compile, or bad flags, is kept as the error that the
     * first row reaching it throws.
     */
    private static final class Source {

        private final RegexDialect.Options options;
        private final Pattern constant;
        /** The constant pattern as written, for errors. */
        private final String text;
        private final DomainException error;

        Source(List<Expression> args, int flagsAt, boolean globalAllowed, String function) {
            RegexDialect.Options o = RegexDialect.Options.DEFAULT;
            Pattern p = null;
            String written = null;
            DomainException e = null;
            try {
                byte[] flags = args.size() > flagsAt ? StringFunctions.constant(args.get(flagsAt)) : null;
                if (flags != null) {
                    o = RegexDialect.options(new String(flags, StandardCharsets.UTF_8), globalAllowed, function);
                }
                byte[] pattern = StringFunctions.constant(args.get(1));
                if (pattern != null) {
                    written = new String(pattern, StandardCharsets.UTF_8);
                    p = RegexDialect.compile(written, o);
                }
            } catch (DomainException failed) {
                e = failed;
            }
            this.options = o;
            this.constant = p;
            this.text = written;
            this.error = e;
        }
    }

    /** One evaluation's matching state: the matcher, the current row's characters, the last row pattern. */
    private static final class Row {

        private final Source source;
        private final RowChars chars = new RowChars();
        private Matcher matcher;
        private byte[] data;
        private int from;
        /** The last pattern (or replacement) read from a column, and what it compiled to. */
        private byte[] lastPattern;
        private Pattern compiled;
        private byte[] lastTemplate;
        private Replacement parsed;

        Row(Source source) {
            this.source = source;
        }

        /** A matcher of row {@code r}'s pattern over its string, at the start. */
        Matcher matcher(StringKernel.Args a, int r) {
            if (source.error != null) {
                throw source.error;
            }
            Pattern p = source.constant != null ? source.constant : pattern(a, r);
            data = a.data(0);
            from = a.start(0, r);
            chars.of(data, from, a.end(0, r), source.constant != null ? source.text : lastPatternText());
            if (matcher == null || matcher.pattern() != p) {
                matcher = p.matcher(chars);
            } else {
                matcher.reset(chars);
            }
            return matcher;
        }

        private Pattern pattern(StringKernel.Args a, int r) {
            byte[] d = a.data(1);
            int start = a.start(1, r);
            int end = a.end(1, r);
            if (lastPattern == null || !Arrays.equals(lastPattern, 0, lastPattern.length, d, start, end)) {
                lastPattern = Arrays.copyOfRange(d, start, end);
                compiled = RegexDialect.compile(lastPatternText(), source.options);
            }
            return compiled;
        }

        private String lastPatternText() {
            return new String(lastPattern, StandardCharsets.UTF_8);
        }

        /** Row {@code r}'s replacement template (argument 2), parsed. */
        Replacement replacement(StringKernel.Args a, int r) {
            byte[] d = a.data(2);
            int start = a.start(2, r);
            int end = a.end(2, r);
            if (lastTemplate == null || !Arrays.equals(lastTemplate, 0, lastTemplate.length, d, start, end)) {
                lastTemplate = Arrays.copyOfRange(d, start, end);
                parsed = Replacement.parse(lastTemplate, 0, lastTemplate.length);
            }
            return parsed;
        }

        /**
         * The next match; an empty match between the two chars of a surrogate pair (where Java's search
         * steps after an empty match) is no match, since it falls inside a character.
         */
        boolean find(Matcher m) {
            while (m.find()) {
                int at = m.start();
                if (at != m.end() || !chars.insidePair(at)) {
                    return true;
                }
            }
            return false;
        }

        /** The current row's length in chars. */
        int length() {
            return chars.length();
        }

        /** The current row's chars {@code [start, end)} to {@code out}. */
        void append(TextOut out, int start, int end) {
            if (chars.isAscii()) {
                out.append(data, from + start, from + end);
            } else {
                out.appendChars(chars.decoded(), start, end);
            }
        }
    }

    /**
     * One value's characters as the matcher reads them: a row of ASCII in place (a byte is a char),
     * any other decoded. The reads are counted: Java's backtracking can take exponential time on a
     * pattern such as {@code (a|aa)+c}, where PostgreSQL's and RE2's automata do not, so a value of
     * n chars that takes more than {@code 100,000,000 + 1,000 n²} reads (about a second for a short
     * value; a quadratic search such as {@code .*x} over a long one stays within it) fails with
     * PostgreSQL's "regular expression is too complex" rather than hold its worker.
     */
    private static final class RowChars implements CharSequence {

        private static final double BASE_READS = 1e8;
        private static final double READS_PER_SQUARED_CHAR = 1e3;

        private byte[] bytes;
        private int from;
        private int length;
        private String decoded;
        private String pattern;
        private long reads;
        private long limit;

        void of(byte[] d, int start, int end, String pattern) {
            boolean ascii = Utf8.isAscii(d, start, end);
            this.bytes = d;
            this.from = start;
            this.decoded = ascii ? null : new String(d, start, end - start, StandardCharsets.UTF_8);
            this.length = ascii ? end - start : decoded.length();
            this.pattern = pattern;
            this.reads = 0;
            this.limit = (long) Math.min(Long.MAX_VALUE, BASE_READS + READS_PER_SQUARED_CHAR * length * length);
        }

        boolean isAscii() {
            return decoded == null;
        }

        String decoded() {
            return decoded;
        }

        /** Whether {@code at} falls between the two chars of a surrogate pair. */
        boolean insidePair(int at) {
            return decoded != null && at > 0 && at < length && Character.isLowSurrogate(decoded.charAt(at))
                    && Character.isHighSurrogate(decoded.charAt(at - 1));
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public char charAt(int index) {
            if (++reads > limit) {
                throw new DomainException(QueryDataException.Kind.INVALID_REGULAR_EXPRESSION,
                        "regular expression is too complex: more than " + limit + " steps on one value of " + length
                                + " characters (pattern '" + pattern + "')");
            }
            return decoded != null ? decoded.charAt(index) : (char) bytes[from + index];
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return toString().substring(start, end);
        }

        @Override
        public String toString() {
            return decoded != null ? decoded : new String(bytes, from, length, StandardCharsets.US_ASCII);
        }
    }

    /** regexp_replace's replacement: literal bytes and group references, in order. */
    private static final class Replacement {

        /** Part k is {@code literals[k]} when {@code groups[k] < 0}, else group {@code groups[k]}. */
        private final byte[][] literals;
        private final int[] groups;

        private Replacement(byte[][] literals, int[] groups) {
            this.literals = literals;
            this.groups = groups;
        }

        /** PostgreSQL's reading: {@code \1}..{@code \9}, {@code \&}, {@code \\}; any other backslash is itself. */
        static Replacement parse(byte[] t, int from, int to) {
            List<byte[]> literals = new ArrayList<>();
            List<Integer> groups = new ArrayList<>();
            ByteArrayOutputStream literal = new ByteArrayOutputStream();
            for (int i = from; i < to; i++) {
                byte b = t[i];
                byte next = i + 1 < to ? t[i + 1] : 0;
                int group = b != '\\' ? -1 : next >= '1' && next <= '9' ? next - '0' : next == '&' ? 0 : -1;
                if (group >= 0) {
                    if (literal.size() > 0) {
                        literals.add(literal.toByteArray());
                        groups.add(-1);
                        literal.reset();
                    }
                    literals.add(null);
                    groups.add(group);
                    i++;
                } else {
                    literal.write(b);
                    if (b == '\\' && next == '\\') {
                        i++;
                    }
                }
            }
            if (literal.size() > 0) {
                literals.add(literal.toByteArray());
                groups.add(-1);
            }
            int[] groupArray = groups.stream().mapToInt(Integer::intValue).toArray();
            return new Replacement(literals.toArray(new byte[0][]), groupArray);
        }

        void append(Matcher m, Row row, TextOut out) {
            for (int k = 0; k < groups.length; k++) {
                int g = groups[k];
                if (g < 0) {
                    out.append(literals[k], 0, literals[k].length);
                } else if (g <= m.groupCount() && m.start(g) >= 0) {
                    row.append(out, m.start(g), m.end(g));
                }
            }
        }
    }
}
