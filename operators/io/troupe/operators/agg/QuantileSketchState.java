package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.Validity;
import io.troupe.operators.memory.HeapArrays;
import io.troupe.operators.types.DataType;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;

/**
 * approx_quantile(x, fraction): a value of x near that rank, of x's type (DuckDB's function; PostgreSQL has none). A
 * group keeps its values until it has {@value #THRESHOLD} and answers exactly as percentile_disc does; past that they
 * go into a {@link KllSketch} of about 6 KB, which answers with one of the values it kept, whose rank is off by
 * about 1.65% of the group's values at most. DuckDB keeps a t-digest and interpolates, so its answers differ from
 * these by about as much. NULL for a group without values.
 *
 * <p>Not threadsafe (see {@link AggregateState}).
 */
final class QuantileSketchState extends SketchState {

    /** Values a group keeps exactly. */
    static final int THRESHOLD = 256;

    private final BigDecimal fraction;

    QuantileSketchState(AggregateSpec spec) {
        super(spec, THRESHOLD);
        this.fraction = spec.fraction();
    }

    @Override
    Object newSketch() {
        return KllSketch.create();
    }

    @Override
    long sketchBytes() {
        return HeapArrays.bytes(KllSketch.BLOCK, Long.BYTES);
    }

    @Override
    long[] words(ColumnVector v, Batch batch, long[] scratch) {
        return ValueLog.words(v, batch, scratch);
    }

    @Override
    void add(Object sketch, long word) {
        KllSketch.add((long[]) sketch, word);
    }

    @Override
    void merge(Object into, Object from) {
        KllSketch.merge((long[]) into, (long[]) from);
    }

    @Override
    void write(Object sketch, PartialBytes.Writer out) {
        KllSketch.write((long[]) sketch, out);
    }

    @Override
    Object read(PartialBytes.Reader in) {
        return KllSketch.read(in);
    }

    /** The rank (from 1) the fraction picks of n values: ceil(fraction * n), at least 1, as percentile_disc. */
    private long rank(long n) {
        return Math.max(1, fraction.multiply(BigDecimal.valueOf(n)).setScale(0, RoundingMode.CEILING).longValueExact());
    }

    @Override
    ColumnVector result(int from, int count) {
        long[] out = new long[count];
        long[] validity = null;
        long[] scratch = new long[0];
        for (int k = 0; k < count; k++) {
            int g = from + k;
            Object sketch = sketch(g);
            if (sketch != null) {
                long[] block = (long[]) sketch;
                out[k] = KllSketch.itemAt(block, rank(KllSketch.weight(block)));
            } else if (sparseCount(g) > 0) {
                int n = sparseCount(g);
                scratch = sparseWords(g, scratch);
                Arrays.sort(scratch, 0, n);
                out[k] = scratch[(int) rank(n) - 1];
            } else {
                validity = validity == null ? Validity.allValid(count) : validity;
                validity[k >>> 6] &= ~(1L << k);
            }
        }
        return ValueLog.vectorOf(spec.resultType(), out, validity);
    }
}
