package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.batch.VectorHash;
import io.troupe.operators.memory.HeapArrays;
import io.troupe.operators.table.HyperLogLog;
import io.troupe.operators.types.DataType;

import java.util.Arrays;

/**
 * approx_count_distinct(x): an estimate of the distinct non-NULL values per group, from their 64-bit hashes. A group
 * keeps its hashes until it has {@value #THRESHOLD} values and then counts their distinct hashes exactly; past that
 * it folds them into the {@link HyperLogLog} registers that table statistics use (2^14 bytes, a standard error of
 * 0.8%). Two groups' states merge by adding one's hashes to the other, or register by register (the larger rank).
 * A string is hashed by 64-bit FNV-1a of its bytes, mixed, so that distinct strings practically never share a
 * hash; a number by {@link VectorHash#hashAt}. 0 for a group without values.
 *
 * <p>Not threadsafe (see {@link AggregateState}).
 */
final class DistinctSketchState extends SketchState {

    /** Values a group keeps exactly: their log entries (12 bytes each) then weigh about as much as its registers. */
    static final int THRESHOLD = 1024;

    DistinctSketchState(AggregateSpec spec) {
        super(spec, THRESHOLD);
    }

    @Override
    Object newSketch() {
        return new byte[HyperLogLog.REGISTERS];
    }

    @Override
    long sketchBytes() {
        return HeapArrays.bytes(HyperLogLog.REGISTERS, 1);
    }

    @Override
    long[] words(ColumnVector v, Batch batch, long[] scratch) {
        int n = batch.size();
        if (v instanceof StringVector strings) {
            byte[] data = strings.data();
            for (int i = 0; i < n; i++) {
                int r = batch.row(i);
                scratch[i] = hash(data, strings.start(r), strings.length(r));
            }
        } else {
            for (int i = 0; i < n; i++) {
                scratch[i] = VectorHash.hashAt(v, batch.row(i));
            }
        }
        return scratch;
    }

    private static long hash(byte[] data, int from, int length) {
        long h = 0xCBF29CE484222325L;
        for (int i = from, end = from + length; i < end; i++) {
            h = (h ^ (data[i] & 0xFF)) * 0x100000001B3L;
        }
        return VectorHash.mix(h);
    }

    @Override
    void add(Object sketch, long word) {
        HyperLogLog.add((byte[]) sketch, word);
    }

    @Override
    void merge(Object into, Object from) {
        byte[] mine = (byte[]) into;
        byte[] theirs = (byte[]) from;
        for (int i = 0; i < mine.length; i++) {
            mine[i] = (byte) Math.max(mine[i], theirs[i]);
        }
    }

    /** The registers as one string: each is at most 51, a byte below 0x80. */
    @Override
    void write(Object sketch, PartialBytes.Writer out) {
        byte[] registers = (byte[]) sketch;
        out.bytes(registers, 0, registers.length);
    }

    @Override
    Object read(PartialBytes.Reader in) {
        int start = in.string();
        return Arrays.copyOfRange(in.data(), start, start + in.lastLength());
    }

    @Override
    ColumnVector result(int from, int count) {
        long[] out = new long[count];
        long[] scratch = new long[0];
        for (int k = 0; k < count; k++) {
            int g = from + k;
            Object sketch = sketch(g);
            if (sketch != null) {
                out[k] = HyperLogLog.estimate((byte[]) sketch);
            } else {
                int n = sparseCount(g);
                scratch = sparseWords(g, scratch);
                Arrays.sort(scratch, 0, n);
                long distinct = 0;
                for (int i = 0; i < n; i++) {
                    distinct += i == 0 || scratch[i] != scratch[i - 1] ? 1 : 0;
                }
                out[k] = distinct;
            }
        }
        return new LongVector(DataType.INT64, out);
    }
}
