package io.troupe.operators.exec;

/**
 * Which morsels of a base input (a table's chunks, generate_series' batches) one node of a query
 * spread over {@code count} nodes reads: morsels {@code index}, {@code index + count},
 * {@code index + 2 * count} ..., so that the nodes together read every morsel once and a table's
 * chunks spread evenly. {@link #WHOLE} (index 0 of 1) is every morsel: a query in one JVM, or a
 * pipeline a spread query runs on its coordinator alone.
 *
 * <p>Immutable.
 *
 * @param index this node's share, from 0
 * @param count the number of shares
 */
public record ScanShare(int index, int count) {

    /** Every morsel. */
    public static final ScanShare WHOLE = new ScanShare(0, 1);

    public ScanShare {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("share " + index + " of " + count);
        }
    }

    /**
     * The morsel that this share's {@code claim}-th claim reads: claims come from a counter shared by
     * this node's readers, from 0.
     */
    public long morsel(long claim) {
        return claim * count + index;
    }
}
