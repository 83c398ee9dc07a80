package io.troupe.operators.join;

import io.troupe.operators.batch.VectorHash;

/**
 * The spill partitions of a hash join: which partition a row belongs to, from the same 64-bit hash
 * that picks its bucket. A table of level {@code L} splits its rows by four bits of the hash,
 * {@code 60 - 4L .. 63 - 4L}, counted from the top, so each level splits by bits of its own, and
 * no level's bits are bucket bits (a bucket index is at most the low 30 bits):
 *
 * <pre>
 *   bit  63..60   59..56   ...   35..32   31 .. 30 ... 0
 *        level 0  level 1        level 7           bucket
 * </pre>
 *
 * A row's hash is, on the table's fast path, {@link VectorHash#mix} of its key (as the bucket is
 * found), else the {@link VectorHash} of its key columns (as the table stores it). Stateless.
 */
final class Radix {

    static final int BITS = 4;
    static final int PARTITIONS = 1 << BITS;
    /** The deepest level whose bits are still its own; a table below it cannot split its rows further. */
    static final int MAX_LEVEL = 7;

    private Radix() {
    }

    /** Partition of a row with {@code hash}, at {@code level} (0..{@link #MAX_LEVEL}). */
    static int partition(long hash, int level) {
        return (int) (hash >>> (64 - BITS * (level + 1))) & (PARTITIONS - 1);
    }

    /** The hash of a fast-path key: the one its bucket is found by. */
    static long hashOfKey(long key) {
        return VectorHash.mix(key);
    }
}
