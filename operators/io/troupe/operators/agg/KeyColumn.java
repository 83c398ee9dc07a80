package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.DataType;

/**
 * The stored keys of one key column of a {@link GenericKeyTable}, indexed by group id, with the
 * column-at-a-time kernels the table's probe needs: append the keys of new groups, compare rows
 * with candidate groups. Each kernel dispatches on the vector class once and loops tightly.
 * NULL equals NULL here (group keys), and a NULL key stores as a zero value plus a NULL flag.
 *
 * <p>Not threadsafe: part of one {@link GroupTable}.
 */
abstract class KeyColumn {

    static KeyColumn create(DataType type) {
        return switch (type.physical()) {
            case BYTES -> new StringKeyColumn(type);
            case INT128 -> new Int128KeyColumn(type);
            default -> new FixedKeyColumn(type);
        };
    }

    /** Makes room for groups 0 .. groups-1. */
    abstract void ensureCapacity(int groups);

    /**
     * Stores the keys of live rows {@code rows[0..count)} of {@code batch} (indexes into its live
     * rows) as groups {@code firstGid, firstGid+1, ...}.
     */
    abstract void append(ColumnVector column, Batch batch, int[] rows, int count, int firstGid);

    /**
     * Clears {@code match[k]} where live row {@code rows[k]} differs from group {@code gids[k]} in
     * this column; leaves it as it was otherwise.
     */
    abstract void compare(ColumnVector column, Batch batch, int[] rows, int[] gids, int count, boolean[] match);

    /** The keys of groups {@code groups[0 .. count-1]} as a dense vector. */
    abstract ColumnVector output(int[] groups, int count);

    /**
     * At least the bytes of the column's arrays once it has room for {@code groups} groups and
     * stored up to {@code moreBytes} more bytes of values (VARCHAR).
     */
    abstract long bytesFor(int groups, long moreBytes);

    /** The bytes of values that appending the live rows of {@code column} may store (0 for fixed-width keys). */
    long valueBytes(ColumnVector column, Batch batch) {
        return 0;
    }

    /** The bytes of values stored so far (0 for fixed-width keys). */
    long storedValueBytes() {
        return 0;
    }
}
