package io.troupe.operators.types;

/**
 * A byte range of ASCII text seen as a {@link CharSequence}, without copying: what a parser of dates and
 * times reads one value of a column or a file through. Bytes past ASCII read as characters no parser
 * accepts, so a value with them fails to parse (the caller names it from its own bytes).
 *
 * <p>Not threadsafe: one view per reader, pointed at each value in turn.
 */
public final class ByteChars implements CharSequence {

    private byte[] bytes;
    private int from;
    private int length;

    /** Points this view at {@code bytes[from, to)}; returns it. */
    public ByteChars of(byte[] bytes, int from, int to) {
        this.bytes = bytes;
        this.from = from;
        this.length = to - from;
        return this;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        byte b = bytes[from + index];
        return b >= 0 ? (char) b : '\uFFFD';
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return toString().substring(start, end);
    }

    @Override
    public String toString() {
        return new String(bytes, from, length, java.nio.charset.StandardCharsets.UTF_8);
    }
}
