package io.troupe.operators.window;

/**
 * Sums of ranges of a fixed array of doubles in O(log n) each: a segment tree, leaves at {@code n..2n}, each
 * inner node the sum of its two children. A range's sum adds at most two nodes a level and never subtracts,
 * unlike prefix sums, so a frame after an infinity or a NaN, or after a huge value, sums what it holds.
 *
 * <p>Not threadsafe.
 */
final class DoubleSumTree {

    private final int n;
    private final double[] nodes;

    DoubleSumTree(double[] values) {
        n = values.length;
        nodes = new double[2 * n];
        System.arraycopy(values, 0, nodes, n, n);
        for (int i = n - 1; i > 0; i--) {
            nodes[i] = nodes[2 * i] + nodes[2 * i + 1];
        }
    }

    /** The sum of values {@code from..to} (to exclusive); 0 for an empty range. */
    double sum(int from, int to) {
        double left = 0.0;
        double right = 0.0;
        for (int l = from + n, r = to + n; l < r; l >>= 1, r >>= 1) {
            if ((l & 1) == 1) {
                left += nodes[l++];
            }
            if ((r & 1) == 1) {
                right = nodes[--r] + right;
            }
        }
        return left + right;
    }
}
