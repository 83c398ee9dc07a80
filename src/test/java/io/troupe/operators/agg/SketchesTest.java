package io.troupe.operators.agg;

import io.troupe.operators.batch.StringVector;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pieces under the growing and approximate aggregates: {@link PartialBytes} writes numbers and strings that read
 * back the same and only bytes below 0x80 for numbers; a {@link KllSketch} keeps the weight of every value it was
 * given, alone or merged, answers within its error on a million values fed to one sketch and to eight merged, and
 * reads back as it was written.
 */
class SketchesTest {

    @Test
    void partialBytesReadBackWhatTheyWroteAndNumbersStayBelow0x80() {
        long[] numbers = {0, 1, -1, 31, -32, 32, 63, 64, 1L << 40, Long.MAX_VALUE, Long.MIN_VALUE, -123456789};
        byte[] text = "naïve ✓".getBytes(StandardCharsets.UTF_8);
        PartialBytes.Writer out = new PartialBytes.Writer(4);
        for (long n : numbers) {
            out.number(n);
        }
        int numbersEnd = out.position();
        out.bytes(text, 0, text.length);
        for (int i = 0; i < numbersEnd; i++) {
            assertTrue(out.data()[i] >= 0, "byte " + i + " of the numbers is " + out.data()[i]);
        }
        PartialBytes.Reader in = new PartialBytes.Reader(out.data(), 0);
        for (long n : numbers) {
            assertEquals(n, in.number());
        }
        int start = in.string();
        assertArrayEquals(text, Arrays.copyOfRange(out.data(), start, start + in.lastLength()));
        String cell = new StringVector(Arrays.copyOf(out.data(), out.position()), new int[] {0, out.position()})
                .getString(0);
        assertTrue(cell.endsWith("naïve ✓"), "a cell is UTF-8 text: " + cell);
    }

    @Test
    void aKllSketchKeepsEveryWeightAndRanksWithinItsError() {
        Random random = new Random(3);
        int n = 1_000_000;
        long[] values = new long[n];
        long[] one = KllSketch.create();
        long[][] parts = new long[8][];
        for (int p = 0; p < parts.length; p++) {
            parts[p] = KllSketch.create();
        }
        for (int i = 0; i < n; i++) {
            values[i] = random.nextLong() % 1_000_000_000L;
            KllSketch.add(one, ValueLog.word((double) values[i]));
            KllSketch.add(parts[i % parts.length], values[i]);
        }
        long[] merged = KllSketch.create();
        for (long[] part : parts) {
            KllSketch.merge(merged, part);
        }
        assertEquals(n, KllSketch.weight(one));
        assertEquals(n, KllSketch.weight(merged));
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        for (double q : new double[] {0.001, 0.1, 0.5, 0.77, 0.999}) {
            long rank = (long) Math.ceil(q * n);
            long fromOne = (long) ValueLog.doubleOf(KllSketch.itemAt(one, rank));
            long fromMerged = KllSketch.itemAt(merged, rank);
            for (long answer : new long[] {fromOne, fromMerged}) {
                int at = Arrays.binarySearch(sorted, answer);
                assertTrue(at >= 0, "an answer is one of the values: " + answer);
                assertTrue(Math.abs(at + 1 - rank) <= 0.02 * n, q + ": rank " + (at + 1) + ", wanted " + rank);
            }
        }
        PartialBytes.Writer out = new PartialBytes.Writer(16);
        KllSketch.write(merged, out);
        long[] read = KllSketch.read(new PartialBytes.Reader(out.data(), 0));
        assertEquals(KllSketch.weight(merged), KllSketch.weight(read));
        for (double q : new double[] {0.25, 0.5, 0.75}) {
            long rank = (long) Math.ceil(q * n);
            assertEquals(KllSketch.itemAt(merged, rank), KllSketch.itemAt(read, rank));
        }
    }
}
