package io.troupe.operators.table;

/**
 * An estimate of how many distinct values a column holds, from their 64-bit hashes (Flajolet et al.,
 * "HyperLogLog", 2007): 2^14 one-byte registers, a standard error of 1.04 / sqrt(2^14) = 0.8%, with
 * linear counting below 2.5 * 2^14 so that small counts come out (nearly) exact. The hashes must be
 * well mixed in every bit ({@link io.troupe.operators.batch.VectorHash#hashAt} is). The static methods
 * work on registers held elsewhere (approx_count_distinct keeps a group's in its aggregate state). Not
 * threadsafe.
 */
public final class HyperLogLog {

    private static final int BITS = 14;
    /** How many registers a sketch has; each holds a rank of at most 64 - 14 + 1 = 51. */
    public static final int REGISTERS = 1 << BITS;
    /** The bias correction alpha_m for m >= 128 registers. */
    private static final double ALPHA = 0.7213 / (1 + 1.079 / REGISTERS);

    private final byte[] registers = new byte[REGISTERS];

    void add(long hash) {
        add(registers, hash);
    }

    long estimate() {
        return estimate(registers);
    }

    /** Adds {@code hash} to {@code registers} (of {@link #REGISTERS} bytes). */
    public static void add(byte[] registers, long hash) {
        int index = (int) (hash >>> (64 - BITS));
        // The rank of the first set bit after the index bits; the guard bit bounds it at 64 - BITS + 1.
        int rank = Long.numberOfLeadingZeros((hash << BITS) | (1L << (BITS - 1))) + 1;
        if (rank > registers[index]) {
            registers[index] = (byte) rank;
        }
    }

    /** The estimate of the distinct hashes added to {@code registers}. */
    public static long estimate(byte[] registers) {
        double sum = 0;
        int zeros = 0;
        for (byte r : registers) {
            sum += 1.0 / (1L << r);
            if (r == 0) {
                zeros++;
            }
        }
        double raw = ALPHA * REGISTERS * (double) REGISTERS / sum;
        if (raw <= 2.5 * REGISTERS && zeros > 0) {
            return Math.round(REGISTERS * Math.log((double) REGISTERS / zeros));
        }
        return Math.round(raw);
    }
}
