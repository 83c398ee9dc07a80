package io.troupe.operators.batch;

/**
 * Hashes key columns of a batch, a column at a time, into one {@code long} per live row: the
 * shared hashing of hash join and hash aggregate, so equal keys hash equally wherever they meet.
 *
 * <p>Equal values of the same type always hash alike; NULL hashes to a fixed constant (callers
 * that must not match NULLs check validity themselves). -0.0 and 0.0 hash alike, as they compare
 * equal. Stateless and threadsafe.
 */
public final class VectorHash {

    private static final long NULL_HASH = 0x9E3779B97F4A7C15L;
    private static final long SEED = 0x2545F4914F6CDD1DL;

    private VectorHash() {
    }

    /**
     * Folds {@code column} into {@code hashes}: {@code hashes[i]} belongs to the batch's i-th live
     * row. With {@code first}, the hashes are overwritten rather than combined.
     */
    public static void hash(ColumnVector column, Batch batch, long[] hashes, boolean first) {
        int n = batch.size();
        if (column.mayHaveNulls()) {
            for (int i = 0; i < n; i++) {
                int r = batch.row(i);
                hashes[i] = combine(hashes[i], column.isNull(r) ? NULL_HASH : hashAt(column, r), first);
            }
        } else if (column instanceof IntVector v) {
            int[] values = v.values();
            for (int i = 0; i < n; i++) {
                hashes[i] = combine(hashes[i], mix(values[batch.row(i)]), first);
            }
        } else if (column instanceof LongVector v) {
            long[] values = v.values();
            for (int i = 0; i < n; i++) {
                hashes[i] = combine(hashes[i], mix(values[batch.row(i)]), first);
            }
        } else {
            for (int i = 0; i < n; i++) {
                hashes[i] = combine(hashes[i], hashAt(column, batch.row(i)), first);
            }
        }
    }

    /** The hash of the (non-NULL) value at physical row {@code row}. */
    public static long hashAt(ColumnVector column, int row) {
        if (column instanceof IntVector v) {
            return mix(v.get(row));
        } else if (column instanceof LongVector v) {
            return mix(v.get(row));
        } else if (column instanceof DoubleVector v) {
            double d = v.get(row);
            return mix(Double.doubleToLongBits(d == 0.0 ? 0.0 : d));
        } else if (column instanceof BooleanVector v) {
            return mix(v.get(row) ? 1 : 0);
        } else if (column instanceof Int128Vector v) {
            return mix(v.keyAt(row));
        }
        return mix(((StringVector) column).hash(row));
    }

    /**
     * Which of {@code parts} parts a row whose keys hash to {@code hash} belongs to: the high bits of a
     * second mix scaled to the count, so that rows of one part still spread over a hash table's buckets
     * and a spill's partitions, which take low bits. The nodes of a spread query route rows by it, and a
     * table partitioned across nodes by a column splits its rows by it.
     */
    public static int part(long hash, int parts) {
        long spread = mix(hash ^ 0x5DEECE66DL) >>> 32;
        return (int) ((spread * parts) >>> 32);
    }

    /** The murmur3 64-bit finaliser: spreads every input bit over the whole word. */
    public static long mix(long value) {
        long h = value + SEED;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB93FE5E3B4B1L;
        h ^= h >>> 33;
        return h;
    }

    private static long combine(long previous, long hash, boolean first) {
        return first ? hash : previous * 31 + hash;
    }
}
