package io.troupe.operators.agg;

import java.util.Arrays;

/**
 * The bytes of a partial state that holds a group's values ({@link ValueLog}) or sketch ({@link SketchState}),
 * written as a VARCHAR cell: numbers as six bits a byte, low bits first (zigzag, so small negatives stay short), the
 * last byte marked by bit 0x40; strings as their length and UTF-8 bytes. Every byte a number takes is below 0x80, so
 * a cell is valid UTF-8 however it is cut into numbers and strings, and travels and spills as any VARCHAR does. A
 * number takes 1 to 11 bytes: values below 32 in magnitude one.
 *
 * <p>Not threadsafe: a writer or a reader belongs to one thread.
 */
final class PartialBytes {

    private PartialBytes() {
    }

    /** Appends cells one after another into one growing array, for a StringVector's data and offsets. */
    static final class Writer {

        private byte[] data;
        private int used;

        Writer(int initialBytes) {
            data = new byte[Math.max(16, initialBytes)];
        }

        void number(long value) {
            room(11);
            long zigzag = (value << 1) ^ (value >> 63);
            while ((zigzag & ~0x3FL) != 0) {
                data[used++] = (byte) (zigzag & 0x3F);
                zigzag >>>= 6;
            }
            data[used++] = (byte) (zigzag | 0x40);
        }

        void bytes(byte[] src, int from, int length) {
            number(length);
            room(length);
            System.arraycopy(src, from, data, used, length);
            used += length;
        }

        int position() {
            return used;
        }

        byte[] data() {
            return data;
        }

        private void room(int more) {
            if (used + more > data.length) {
                long capacity = Math.max((long) used + more, 2L * data.length);
                if (capacity > Integer.MAX_VALUE - 8) {
                    throw new IllegalStateException("partial state over 2 GiB in one VARCHAR column");
                }
                data = Arrays.copyOf(data, (int) capacity);
            }
        }
    }

    /** Reads one cell's numbers and strings in the order they were written. */
    static final class Reader {

        private final byte[] data;
        private int at;
        private int last;

        Reader(byte[] data, int from) {
            this.data = data;
            this.at = from;
        }

        long number() {
            long zigzag = 0;
            int shift = 0;
            byte b;
            do {
                b = data[at++];
                zigzag |= (long) (b & 0x3F) << shift;
                shift += 6;
            } while ((b & 0x40) == 0);
            return (zigzag >>> 1) ^ -(zigzag & 1);
        }

        /** Skips a string's length, returning where its bytes start; {@link #lastLength} is its length. */
        int string() {
            last = (int) number();
            int start = at;
            at += last;
            return start;
        }

        int lastLength() {
            return last;
        }

        byte[] data() {
            return data;
        }
    }
}
