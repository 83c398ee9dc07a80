package io.troupe.operators.table;

import io.troupe.operators.TroupeException;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import static io.troupe.operators.Arguments.notNull;

/**
 * The tables a query can scan, by case-insensitive name. Threadsafe: tables may be registered
 * while queries run; a query sees the table that was registered when it was planned.
 */
public final class Catalog {

    private final Map<String, Table> tables = new ConcurrentHashMap<>();

    /** Registers {@code table} under its name, replacing any table of that name. */
    public void register(Table table) {
        notNull(table, "Catalog.register", "table");
        tables.put(key(table.name()), table);
    }

    public void drop(String name) {
        notNull(name, "Catalog.drop", "name");
        tables.remove(key(name));
    }

    /** @throws TroupeException naming the known tables when there is no such table */
    public Table table(String name) {
        notNull(name, "Catalog.table", "name");
        Table t = tables.get(key(name));
        if (t == null) {
            throw new TroupeException(TroupeException.Category.QUERY,
                    "unknown table '" + name + "'; known tables: " + new TreeMap<>(tables).keySet());
        }
        return t;
    }

    public boolean contains(String name) {
        return tables.containsKey(key(name));
    }

    /** The registered tables, in alphabetical order of their names. */
    public List<Table> tables() {
        return tables.values().stream().sorted(Comparator.comparing(Table::name, String.CASE_INSENSITIVE_ORDER))
                .toList();
    }

    /** The registered tables' names as they were registered, in alphabetical order. */
    public List<String> names() {
        return tables().stream().map(Table::name).toList();
    }

    /** Bytes of heap the registered tables hold (see {@link Table#sizeInBytes()}). */
    public long sizeInBytes() {
        long bytes = 0;
        for (Table t : tables.values()) {
            bytes += t.sizeInBytes();
        }
        return bytes;
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
