package io.troupe.operators.agg;

/**
 * A stable sort of int indices by a comparator of their own, without boxing: a merge sort, insertion sort below
 * {@value #RUN} entries. Stable, so that entries equal by their keys keep their order (string_agg's insertion
 * order, which SQL leaves unspecified).
 *
 * <p>Stateless; threadsafe.
 */
final class EntrySort {

    /** Compares two indices. */
    @FunctionalInterface
    interface Order {
        int compare(int a, int b);
    }

    private static final int RUN = 16;

    private EntrySort() {
    }

    /** Sorts {@code a[0 .. n)}. */
    static void sort(int[] a, int n, Order order) {
        if (n < 2) {
            return;
        }
        int[] buffer = new int[n];
        sort(a, buffer, 0, n, order);
    }

    private static void sort(int[] a, int[] buffer, int from, int to, Order order) {
        if (to - from <= RUN) {
            for (int i = from + 1; i < to; i++) {
                int v = a[i];
                int j = i - 1;
                while (j >= from && order.compare(a[j], v) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        sort(a, buffer, from, mid, order);
        sort(a, buffer, mid, to, order);
        if (order.compare(a[mid - 1], a[mid]) <= 0) {
            return;
        }
        System.arraycopy(a, from, buffer, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || i < mid && order.compare(buffer[i], buffer[j]) <= 0) {
                a[k] = buffer[i++];
            } else {
                a[k] = buffer[j++];
            }
        }
    }
}
