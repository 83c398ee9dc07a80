package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

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
        return type.id() == TypeId.VARCHAR ? new StringKeyColumn() : new FixedKeyColumn(type);
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

    /** The keys of groups {@code from .. from+count-1} as a dense vector. */
    abstract ColumnVector output(int from, int count);
}
