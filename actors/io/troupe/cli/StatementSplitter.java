package io.troupe.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts the lines of a SQL session into statements ended by {@code ;}, as {@code bin/troupe sql} reads them
 * from the keyboard, a file or {@code -c}: a {@code ;} inside a string ({@code 'a;b'}), a quoted name
 * ({@code "a;b"}) or a comment ({@code -- ;}, {@code /* ; *}{@code /}) does not end one, and a statement may run
 * over many lines. Not threadsafe: one per session.
 */
final class StatementSplitter {

    /** Where the next character falls. */
    private enum Lexical { CODE, STRING, QUOTED_NAME, BLOCK_COMMENT }

    private final StringBuilder pending = new StringBuilder();
    private Lexical state = Lexical.CODE;

    /** Adds one line; returns the statements it completes (trimmed, without their {@code ;}, none empty). */
    List<String> feed(String line) {
        List<String> done = new ArrayList<>();
        scan:
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            char next = i + 1 < line.length() ? line.charAt(i + 1) : 0;
            switch (state) {
                case CODE -> {
                    if (c == ';') {
                        String statement = pending.toString().trim();
                        if (!statement.isEmpty()) {
                            done.add(statement);
                        }
                        pending.setLength(0);
                        continue;
                    }
                    if (c == '\'') {
                        state = Lexical.STRING;
                    } else if (c == '"') {
                        state = Lexical.QUOTED_NAME;
                    } else if (c == '-' && next == '-') {
                        break scan; // a comment to the end of the line: dropped
                    } else if (c == '/' && next == '*') {
                        state = Lexical.BLOCK_COMMENT;
                        pending.append(c).append(next);
                        i++;
                        continue;
                    }
                }
                case STRING -> state = c == '\'' ? Lexical.CODE : state; // '' reads as two quotes: out and in again
                case QUOTED_NAME -> state = c == '"' ? Lexical.CODE : state;
                case BLOCK_COMMENT -> {
                    if (c == '*' && next == '/') {
                        state = Lexical.CODE;
                        pending.append(c).append(next);
                        i++;
                        continue;
                    }
                }
            }
            pending.append(c);
        }
        pending.append('\n');
        return done;
    }

    /** True when no statement is under way: only blanks since the last {@code ;}. */
    boolean isEmpty() {
        return pending.toString().isBlank();
    }

    /** What follows the last {@code ;}, trimmed (a last statement without one), and starts afresh. */
    String rest() {
        String rest = pending.toString().trim();
        pending.setLength(0);
        state = Lexical.CODE;
        return rest;
    }
}
