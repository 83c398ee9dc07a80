package io.troupe.cli;

import io.troupe.operators.table.Table;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which tables a node keeps only a part of ({@code --partitioned NAME[:COLUMN],...}, {@code --part I/N}):
 * by the hash of COLUMN, or round robin without one, each node of N keeping part I (from 1). The
 * others are replicated: every node holds all of them. A node cuts them
 * again for another number of nodes ({@link NodeTables#parts()}). Immutable.
 *
 * @param columns by table name, the column it is partitioned by; an empty Optional for round robin
 */
record Partitioning(Map<String, Optional<String>> columns) {

    Partitioning {
        columns = Map.copyOf(columns);
    }

    /**
     * Parses {@code --partitioned}'s values.
     *
     * @throws IllegalArgumentException naming the bad value
     */
    static Partitioning parse(List<String> values) {
        Map<String, Optional<String>> columns = new LinkedHashMap<>();
        for (String value : values == null ? List.<String>of() : values) {
            String[] f = value.trim().split(":", -1);
            if (f.length > 2 || f[0].isEmpty() || f.length == 2 && f[1].isEmpty()) {
                throw new IllegalArgumentException("--partitioned takes NAME or NAME:COLUMN, got '" + value + "'");
            }
            columns.put(f[0], f.length == 2 ? Optional.of(f[1]) : Optional.empty());
        }
        return new Partitioning(columns);
    }

    /**
     * Parses {@code --part I/N} (I from 1 to N) into the 0-based index and the count.
     *
     * @throws IllegalArgumentException naming the value
     */
    static int[] parsePart(String part) {
        String[] f = part.trim().split("/", -1);
        try {
            int index = Integer.parseInt(f[0]);
            int count = f.length == 2 ? Integer.parseInt(f[1]) : -1;
            if (f.length == 2 && count >= 1 && index >= 1 && index <= count) {
                return new int[] {index - 1, count};
            }
        } catch (NumberFormatException e) {
            // Falls through to the error below.
        }
        throw new IllegalArgumentException("--part takes I/N with 1 <= I <= N (this node's part of N), got '"
                + part + "'");
    }

    /**
     * {@code tables} as node {@code index} of {@code count} keeps them: the partitioned ones cut to its part
     * (those made in part already, by a generator, as they are).
     *
     * @throws IllegalArgumentException naming a partitioned table that is not among them, or its column
     */
    List<Table> apply(List<Table> tables, int index, int count) {
        Map<String, Table> byName = new LinkedHashMap<>();
        tables.forEach(t -> byName.put(t.name(), t));
        for (String name : columns.keySet()) {
            if (!byName.containsKey(name)) {
                throw new IllegalArgumentException("--partitioned names table " + name + ", which the node does not"
                        + " load; it loads " + byName.keySet());
            }
        }
        List<Table> kept = new ArrayList<>();
        for (Table table : tables) {
            Optional<String> column = columns.get(table.name());
            kept.add(column == null || table.part() != null ? table
                    : table.part(new Table.Part(index, count, column.orElse(null))));
        }
        return kept;
    }

    boolean isEmpty() {
        return columns.isEmpty();
    }
}
