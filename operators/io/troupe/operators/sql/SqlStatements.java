package io.troupe.operators.sql;

import io.troupe.operators.TroupeException;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.DelimitedFileLoader;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import static io.troupe.operators.Arguments.notNull;

/**
 * Runs one SQL statement of any kind Troupe has: a query (its rows), or CREATE TABLE [AS], INSERT, DROP TABLE,
 * COPY and ANALYZE, which return their update count ({@link QueryResult#ofUpdate}). The first word tells them
 * apart ({@link #isQuery}); CREATE, DROP, COPY and ANALYZE are read by {@link DdlParser}, INSERT by Calcite ({@link Insert}),
 * and the queries inside (CREATE TABLE AS, INSERT ... SELECT) are planned by the {@link SqlPlanner} and run by
 * the caller's runner, in parallel like any query.
 *
 * <p>Tables are immutable: a statement that adds rows builds a new table of the old rows and the new (the old
 * table's full chunks shared, not copied) and puts it in the old one's place with {@link Catalog#replace}, so
 * that a query already running goes on reading the table it started with, and of two INSERTs at once into one
 * table each builds again on the other's if it lost the race. The table's statistics are read again on the next
 * statement that plans over it. Threadsafe: statements may run from any number of threads.
 */
public final class SqlStatements {

    /** The first words of the statements that are not queries. */
    private static final Set<String> UPDATES = Set.of("CREATE", "DROP", "INSERT", "COPY", "ANALYZE");

    private final Catalog catalog;
    private final SqlPlanner planner;
    private final Function<Plan, QueryResult> runner;

    /** @param runner runs a planned query to its end (the caller's executor, with the caller's options) */
    public SqlStatements(Catalog catalog, SqlPlanner planner, Function<Plan, QueryResult> runner) {
        this.catalog = notNull(catalog, "SqlStatements", "catalog");
        this.planner = notNull(planner, "SqlStatements", "planner");
        this.runner = notNull(runner, "SqlStatements", "runner");
    }

    /** Whether {@code sql} is a query, which returns rows, rather than a statement that returns an update count. */
    public static boolean isQuery(String sql) {
        return !UPDATES.contains(DdlParser.firstWord(notNull(sql, "SqlStatements.isQuery", "sql")));
    }

    /**
     * Runs {@code sql}: a query's rows, or a statement's update count.
     *
     * @throws SqlException when the statement does not parse or plan, names a table that is not there (or, to
     *                      create, one that is), or stores a value that does not fit its column
     * @throws TroupeException when a file to COPY cannot be read or has a malformed line (its line number given),
     *                         or a query fails while running
     */
    public QueryResult run(String sql) {
        notNull(sql, "SqlStatements.run", "sql");
        if (isQuery(sql)) {
            return runner.apply(planner.plan(sql));
        }
        if (DdlParser.firstWord(sql).equals("INSERT")) {
            SqlErrors errors = SqlErrors.of(sql, catalog);
            return QueryResult.ofUpdate(new Insert(errors.text(), errors, planner, runner)
                    .into(catalog, this::append));
        }
        SqlErrors errors = new SqlErrors(sql, catalog);
        Ddl ddl = DdlParser.parse(sql, errors);
        if (ddl instanceof Ddl.CreateTable create) {
            if (!create.ifNotExists() || !catalog.contains(create.name())) {
                add(new TableBuilder(create.name(), create.schema()).build());
            }
            return QueryResult.ofUpdate(0);
        }
        if (ddl instanceof Ddl.CreateTableAs create) {
            if (create.ifNotExists() && catalog.contains(create.name())) {
                return QueryResult.ofUpdate(0);
            }
            if (catalog.contains(create.name())) {
                throw duplicate(create.name());
            }
            Table table = runner.apply(planner.plan(create.query())).toTable(create.name());
            add(table);
            return QueryResult.ofUpdate(table.rowCount());
        }
        if (ddl instanceof Ddl.DropTable drop) {
            if (!catalog.drop(drop.name()) && !drop.ifExists()) {
                throw new SqlException(SqlException.Kind.UNKNOWN_TABLE, "DROP TABLE: unknown table '" + drop.name()
                        + "'" + (catalog.names().isEmpty() ? "" : "; known tables: "
                        + String.join(", ", catalog.names())), 0, 0, null);
            }
            return QueryResult.ofUpdate(0);
        }
        if (ddl instanceof Ddl.Analyze analyze) {
            catalog.statistics(existing(analyze.name()).name());
            return QueryResult.ofUpdate(0);
        }
        Ddl.Copy copy = (Ddl.Copy) ddl;
        Table table = existing(copy.name());
        Table loaded = new DelimitedFileLoader(table.schema(), copy.format()).load(copy.file(), table.name());
        append(copy.name(), old -> {
            if (!old.schema().equals(loaded.schema())) {
                throw new SqlException(SqlException.Kind.UNSUPPORTED, "COPY " + copy.name() + ": the table was"
                        + " dropped and created again with other columns while its file was read", 0, 0, null);
            }
            List<Batch> chunks = new ArrayList<>(old.chunks());
            chunks.addAll(loaded.chunks());
            return new Table(old.name(), old.schema(), chunks);
        });
        return QueryResult.ofUpdate(loaded.rowCount());
    }

    private void add(Table table) {
        if (!catalog.add(table)) {
            throw duplicate(table.name());
        }
    }

    private static SqlException duplicate(String name) {
        return new SqlException(SqlException.Kind.DUPLICATE_TABLE, "CREATE TABLE: table '" + name
                + "' already exists (DROP TABLE it first, or write CREATE TABLE IF NOT EXISTS)", 0, 0, null);
    }

    private Table existing(String name) {
        if (!catalog.contains(name)) {
            throw new SqlException(SqlException.Kind.UNKNOWN_TABLE, "unknown table '" + name + "'", 0, 0, null);
        }
        return catalog.table(name);
    }

    /**
     * Puts {@code grow} of table {@code name} in its place, again over the newer table whenever another statement
     * replaced it in between: the rows of both statements end up in the table.
     */
    private void append(String name, UnaryOperator<Table> grow) {
        while (true) {
            Table old = existing(name);
            if (old.part() != null) {
                throw new SqlException(SqlException.Kind.UNSUPPORTED, "unsupported in SQL: adding rows to " + name
                        + ", " + old.part() + " of a table spread over a cluster's nodes", 0, 0, null);
            }
            if (catalog.replace(old, grow.apply(old))) {
                return;
            }
        }
    }
}
