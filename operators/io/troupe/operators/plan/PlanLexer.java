package io.troupe.operators.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts plan text into tokens, each with the line and column it starts at, so that
 * {@link PlanParser} can name the spot of every error.
 *
 * <p>Tokens: identifiers and keywords (letters, digits, {@code _}; keywords are recognised by the
 * parser, case-insensitively), numbers ({@code 12}, {@code 1.50}, {@code 1.5e0}), strings in single
 * quotes ({@code ''} is a quote), and the symbols {@code ( ) , . | || : + - * / % = <> != < <= > >=}.
 * A {@code --} starts a comment that runs to the end of the line.
 *
 * <p>Stateless: {@link #tokenize} is a pure function.
 */
final class PlanLexer {

    /** What a token is; keywords are identifiers until the parser asks for one. */
    enum Kind {
        IDENT,
        INTEGER,
        DECIMAL,
        FLOAT,
        STRING,
        SYMBOL,
        END
    }

    /**
     * One token: its kind, its text (a string's text is unquoted) and where it starts: the source's
     * line and the 1-based column on that line (the end of the plan: just past its last character).
     */
    record Token(Kind kind, String text, int line, int column) {

        boolean isSymbol(String symbol) {
            return kind == Kind.SYMBOL && text.equals(symbol);
        }

        boolean isKeyword(String keyword) {
            return kind == Kind.IDENT && text.equalsIgnoreCase(keyword);
        }

        /** The token as an error message quotes it. */
        String describe() {
            return switch (kind) {
                case END -> "the end of the plan";
                case STRING -> "'" + text.replace("'", "''") + "'";
                default -> "'" + text + "'";
            };
        }
    }

    private PlanLexer() {
    }

    /**
     * @param text      the plan text (several lines)
     * @param firstLine the source's line of the text's first line
     * @param source    the file name or other source, for errors
     * @throws PlanSyntaxException on a character that starts no token, or an unclosed string
     */
    static List<Token> tokenize(String text, int firstLine, String source) {
        List<Token> tokens = new ArrayList<>();
        int line = firstLine;
        int lineStart = 0;
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            int column = i - lineStart + 1;
            if (c == '\n') {
                line++;
                i++;
                lineStart = i;
            } else if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (Character.isLetter(c) || c == '_') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
                    i++;
                }
                tokens.add(new Token(Kind.IDENT, text.substring(start, i), line, column));
            } else if (Character.isDigit(c)) {
                i = number(text, i, line, column, tokens);
            } else if (c == '\'') {
                i = string(text, i, line, column, source, tokens);
            } else {
                String two = i + 1 < n ? text.substring(i, i + 2) : "";
                if (two.equals("<>") || two.equals("!=") || two.equals("<=") || two.equals(">=")
                        || two.equals("||")) {
                    tokens.add(new Token(Kind.SYMBOL, two, line, column));
                    i += 2;
                } else if ("(),.|:+-*/%=<>".indexOf(c) >= 0) {
                    tokens.add(new Token(Kind.SYMBOL, String.valueOf(c), line, column));
                    i++;
                } else {
                    throw new PlanSyntaxException(source, line, column, "unexpected character '" + c + "' in plan");
                }
            }
        }
        tokens.add(new Token(Kind.END, "", line, n - lineStart + 1));
        return tokens;
    }

    private static int number(String text, int start, int line, int column, List<Token> tokens) {
        int i = start;
        int n = text.length();
        Kind kind = Kind.INTEGER;
        while (i < n && Character.isDigit(text.charAt(i))) {
            i++;
        }
        if (i + 1 < n && text.charAt(i) == '.' && Character.isDigit(text.charAt(i + 1))) {
            kind = Kind.DECIMAL;
            i++;
            while (i < n && Character.isDigit(text.charAt(i))) {
                i++;
            }
        }
        if (i < n && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
            int j = i + 1;
            if (j < n && (text.charAt(j) == '+' || text.charAt(j) == '-')) {
                j++;
            }
            if (j < n && Character.isDigit(text.charAt(j))) {
                kind = Kind.FLOAT;
                i = j;
                while (i < n && Character.isDigit(text.charAt(i))) {
                    i++;
                }
            }
        }
        tokens.add(new Token(kind, text.substring(start, i), line, column));
        return i;
    }

    private static int string(String text, int start, int line, int column, String source, List<Token> tokens) {
        StringBuilder sb = new StringBuilder();
        int i = start + 1;
        int n = text.length();
        while (true) {
            if (i >= n || text.charAt(i) == '\n') {
                throw new PlanSyntaxException(source, line, column, "unclosed string literal");
            }
            char c = text.charAt(i);
            if (c == '\'') {
                if (i + 1 < n && text.charAt(i + 1) == '\'') {
                    sb.append('\'');
                    i += 2;
                    continue;
                }
                tokens.add(new Token(Kind.STRING, sb.toString(), line, column));
                return i + 1;
            }
            sb.append(c);
            i++;
        }
    }
}
