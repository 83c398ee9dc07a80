package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.memory.HeapArrays;

import java.util.Arrays;

/**
 * Group keys of a fixed-width type (INT32, DATE, INT64, DECIMAL, FLOAT64, BOOLEAN) as one
 * {@code long} per group, so that one comparison loop serves every type. FLOAT64 keys are stored
 * as their bits with -0.0 folded into 0.0 and every NaN into one NaN, so that values equal as SQL
 * sees them (and as {@link io.troupe.operators.batch.VectorHash} hashes them) compare equal.
 *
 * <p>Not threadsafe (see {@link KeyColumn}).
 */
final class FixedKeyColumn extends KeyColumn {

    private final DataType type;
    private long[] values = new long[64];
    /** 1 where the group's key is a value, 0 where it is NULL. */
    private byte[] present = new byte[64];
    /** The rows being appended or compared, gathered densely (k-th entry for rows[k]). */
    private long[] rowValues;
    private byte[] rowPresent;

    FixedKeyColumn(DataType type) {
        this.type = type;
    }

    @Override
    void ensureCapacity(int groups) {
        if (groups > values.length) {
            int capacity = Math.max(groups, values.length * 2);
            values = Arrays.copyOf(values, capacity);
            present = Arrays.copyOf(present, capacity);
        }
    }

    @Override
    long bytesFor(int groups, long moreBytes) {
        long capacity = groups > values.length ? Math.max(groups, values.length * 2L) : values.length;
        return HeapArrays.bytes(capacity, Long.BYTES) + HeapArrays.bytes(capacity, 1);
    }

    /** Gathers the keys of {@code rows} into rowValues/rowPresent; NULL rows get value 0. */
    private void gather(ColumnVector column, Batch batch, int[] rows, int count) {
        long[] out = rowValues = Inputs.room(rowValues, count);
        byte[] outPresent = rowPresent = Inputs.room(rowPresent, count);
        if (column instanceof IntVector v) {
            int[] src = v.values();
            for (int k = 0; k < count; k++) {
                out[k] = src[batch.row(rows[k])];
            }
        } else if (column instanceof LongVector v) {
            long[] src = v.values();
            for (int k = 0; k < count; k++) {
                out[k] = src[batch.row(rows[k])];
            }
        } else if (column instanceof DoubleVector v) {
            double[] src = v.values();
            for (int k = 0; k < count; k++) {
                double d = src[batch.row(rows[k])];
                out[k] = d == 0.0 ? 0L : Double.doubleToLongBits(d);
            }
        } else {
            byte[] src = ((BooleanVector) column).values();
            for (int k = 0; k < count; k++) {
                out[k] = src[batch.row(rows[k])];
            }
        }
        if (!column.mayHaveNulls()) {
            Arrays.fill(outPresent, 0, count, (byte) 1);
            return;
        }
        for (int k = 0; k < count; k++) {
            if (column.isNull(batch.row(rows[k]))) {
                outPresent[k] = 0;
                out[k] = 0;
            } else {
                outPresent[k] = 1;
            }
        }
    }

    @Override
    void append(ColumnVector column, Batch batch, int[] rows, int count, int firstGid) {
        gather(column, batch, rows, count);
        System.arraycopy(rowValues, 0, values, firstGid, count);
        System.arraycopy(rowPresent, 0, present, firstGid, count);
    }

    @Override
    void compare(ColumnVector column, Batch batch, int[] rows, int[] gids, int count, boolean[] match) {
        gather(column, batch, rows, count);
        long[] rv = rowValues;
        byte[] rp = rowPresent;
        for (int k = 0; k < count; k++) {
            int g = gids[k];
            match[k] &= values[g] == rv[k] & present[g] == rp[k];
        }
    }

    @Override
    ColumnVector output(int[] groups, int count) {
        ColumnVector out;
        switch (type.physical()) {
            case INT -> {
                int[] ints = new int[count];
                for (int k = 0; k < count; k++) {
                    ints[k] = (int) values[groups[k]];
                }
                out = new IntVector(type, ints);
            }
            case LONG -> out = new LongVector(type, Inputs.gather(values, groups, count));
            case DOUBLE -> {
                double[] doubles = new double[count];
                for (int k = 0; k < count; k++) {
                    doubles[k] = Double.longBitsToDouble(values[groups[k]]);
                }
                out = new DoubleVector(type, doubles);
            }
            case BOOLEAN -> {
                byte[] bools = new byte[count];
                for (int k = 0; k < count; k++) {
                    bools[k] = (byte) values[groups[k]];
                }
                out = new BooleanVector(bools);
            }
            default -> throw new IllegalStateException("not a fixed-width key type: " + type);
        }
        out.setValidity(Inputs.validity(present, groups, count));
        return out;
    }
}
