package io.troupe.actors.cluster;

import io.troupe.operators.table.Table;

import java.util.Optional;

/**
 * Where a node's partitioned tables come from, so that it can cut them again for another set of nodes
 * ({@link PartAlignment}): when a node is lost, the survivors re-read the tables from their source and
 * share all of it among themselves; when one joins, the parts shrink.
 */
@FunctionalInterface
public interface TableParts {

    /** A node whose tables have no source to re-read: its parts stay as they were loaded. */
    TableParts NONE = (name, index, count) -> Optional.empty();

    /**
     * Table {@code name} read again from its source and cut to part {@code index} (from 0) of {@code count};
     * empty when this node has no source for it.
     *
     * @throws RuntimeException when the source cannot be read (gone, or changed into something unreadable)
     */
    Optional<Table> cut(String name, int index, int count);
}
