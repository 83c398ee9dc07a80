package io.troupe.operators.types;

import java.util.UUID;

/**
 * UUID values in two words, as an {@link io.troupe.operators.batch.Int128Vector} holds them: the high word is the
 * first eight bytes with its top bit flipped, the low word the last eight. The flip makes the words' signed 128-bit
 * order ({@link Int128#compare}) the unsigned order of the sixteen bytes, which is how PostgreSQL and DuckDB order
 * UUIDs (the order of their text), so sorting, grouping, min/max and statistics need no case of their own.
 *
 * <p>Text is read as PostgreSQL's {@code uuid_in} reads it: 32 hex digits of either case, a hyphen allowed after
 * any group of four, the whole optionally in braces; anything else is 22P02's {@code invalid input syntax for type
 * uuid}. Text is written lower-case in the 8-4-4-4-12 form. Stateless; threadsafe.
 */
public final class Uuids {

    private static final int BYTES = 16;

    private Uuids() {
    }

    /** The high word of {@code value}. */
    public static long high(UUID value) {
        return value.getMostSignificantBits() ^ Long.MIN_VALUE;
    }

    /** The low word of {@code value}. */
    public static long low(UUID value) {
        return value.getLeastSignificantBits();
    }

    /** The UUID of words {@code high} and {@code low}. */
    public static UUID of(long high, long low) {
        return new UUID(high ^ Long.MIN_VALUE, low);
    }

    /** The UUID that {@code text} spells; an {@link IllegalArgumentException} naming the text when it is none. */
    public static UUID parse(CharSequence text) {
        int n = text.length();
        int at = 0;
        boolean braces = n > 0 && text.charAt(0) == '{';
        if (braces) {
            at++;
        }
        long most = 0;
        long least = 0;
        for (int i = 0; i < BYTES; i++) {
            if (at + 1 >= n) {
                throw invalid(text);
            }
            int hi = Character.digit(text.charAt(at), 16);
            int lo = Character.digit(text.charAt(at + 1), 16);
            if (hi < 0 || lo < 0 || !isAsciiHex(text.charAt(at)) || !isAsciiHex(text.charAt(at + 1))) {
                throw invalid(text);
            }
            at += 2;
            long b = hi << 4 | lo;
            if (i < BYTES / 2) {
                most = most << 8 | b;
            } else {
                least = least << 8 | b;
            }
            if (i % 2 == 1 && i < BYTES - 1 && at < n && text.charAt(at) == '-') {
                at++;
            }
        }
        if (braces) {
            if (at >= n || text.charAt(at) != '}') {
                throw invalid(text);
            }
            at++;
        }
        if (at != n) {
            throw invalid(text);
        }
        return new UUID(most, least);
    }

    /** The error for text that is no UUID, as PostgreSQL words it (SQLState 22P02). */
    public static IllegalArgumentException invalid(CharSequence text) {
        return new IllegalArgumentException("invalid input syntax for type uuid: \"" + text + "\"");
    }

    private static boolean isAsciiHex(char c) {
        return c < 128;
    }
}
