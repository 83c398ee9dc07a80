package io.troupe.operators.table;

import io.troupe.operators.TroupeException;
import io.troupe.operators.udf.UserFunctions;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import static io.troupe.operators.Arguments.notNull;

/**
 * The tables a query can scan, by case-insensitive name, and their {@link TableStatistics} once asked
 * for (kept until the table is replaced or dropped), and the {@link UserFunctions} its queries call. Threadsafe:
 * tables may be registered while queries run; a query sees the table that was registered when it was planned.
 */
public final class Catalog {

    private final Map<String, Table> tables = new ConcurrentHashMap<>();
    private final UserFunctions functions;
    private final Map<String, Analyzed> statistics = new ConcurrentHashMap<>();

    /** Statistics and the table they were read from: a table registered under the same name is another. */
    private record Analyzed(Table table, TableStatistics statistics) {
    }

    /** A catalog without tables or functions of one's own. */
    public Catalog() {
        this(new UserFunctions(Set::of));
    }

    /** A catalog without tables, whose queries call {@code functions} besides the built-in ones. */
    public Catalog(UserFunctions functions) {
        this.functions = notNull(functions, "Catalog", "functions");
    }

    /** The functions of one's own its queries call. */
    public UserFunctions functions() {
        return functions;
    }

    /** Registers {@code table} under its name, replacing any table of that name. */
    public void register(Table table) {
        notNull(table, "Catalog.register", "table");
        tables.put(key(table.name()), table);
        statistics.remove(key(table.name()));
    }

    /**
     * Registers {@code table} unless a table of its name is registered (SQL's CREATE TABLE).
     *
     * @return false, registering nothing, when the name is taken
     */
    public boolean add(Table table) {
        notNull(table, "Catalog.add", "table");
        if (tables.putIfAbsent(key(table.name()), table) != null) {
            return false;
        }
        statistics.remove(key(table.name()));
        return true;
    }

    /**
     * Registers {@code next} in place of {@code current} if {@code current} is still the table registered
     * under its name (compare and set: what INSERT does with its table of old and new rows, so that of two
     * inserts at once neither loses the other's rows).
     *
     * @return false, changing nothing, when another table took {@code current}'s place first, or it was dropped
     */
    public boolean replace(Table current, Table next) {
        notNull(current, "Catalog.replace", "current");
        notNull(next, "Catalog.replace", "next");
        if (!key(current.name()).equals(key(next.name()))) {
            throw new IllegalArgumentException("table " + next.name() + " cannot replace table " + current.name());
        }
        if (!tables.replace(key(current.name()), current, next)) {
            return false;
        }
        statistics.remove(key(next.name()));
        return true;
    }

    /** @return whether a table of that name was registered */
    public boolean drop(String name) {
        notNull(name, "Catalog.drop", "name");
        boolean dropped = tables.remove(key(name)) != null;
        statistics.remove(key(name));
        return dropped;
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

    /**
     * The statistics of the table registered as {@code name}: read on the first call for that table
     * ({@link TableStatistics#of}, one pass over its rows per column), then kept.
     *
     * @throws TroupeException naming the known tables when there is no such table
     */
    public TableStatistics statistics(String name) {
        Table t = table(name);
        return statistics.compute(key(name), (k, old) -> old != null && old.table() == t ? old
                : new Analyzed(t, TableStatistics.of(t))).statistics();
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
