package io.troupe.cli;

import io.troupe.operators.table.DelimitedFileWriter;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

/**
 * DuckDB as a bench peer, in the same JVM, reached only through JDBC: its driver is a test-scope
 * dependency that bin/troupe puts on the classpath from target/bench-lib, never a dependency of the
 * library, so nothing here names a DuckDB class. A workload's tables are made by its own SQL
 * (a series) or else loaded from the bench's generated values through a temporary '|' file per
 * table, with Troupe's column types and NOT NULLs. Workers are {@code SET threads = k}, set before the
 * timer starts; the time covers executing the query and reading every row of its result (the
 * checksum is summed while reading, which costs nothing next to the query).
 *
 * <p>Not threadsafe (see {@link BenchEngine}); owns one in-memory database and closes it. The static
 * helpers serve {@code troupe loadtest}'s DuckDB peer as well.
 */
public final class DuckDbBenchEngine implements BenchEngine {

    public static final String URL = "jdbc:duckdb:";

    private final Connection connection;
    /** 1: DuckDB's own memory_limit; else the share of each workload's memory need it runs under. */
    private final int memoryDivisor;

    private DuckDbBenchEngine(Connection connection, int memoryDivisor) {
        this.connection = connection;
        this.memoryDivisor = memoryDivisor;
    }

    /**
     * Opens an in-memory DuckDB through the driver registered for {@code url}.
     *
     * @throws IllegalStateException naming the missing jar when no driver accepts {@code url}
     */
    static DuckDbBenchEngine open(String url) throws SQLException {
        return new DuckDbBenchEngine(connect(url), 1);
    }

    /**
     * As {@link #open}, running each workload under 1/{@code memoryDivisor} of what it needs (its
     * memory_limit, set when the workload loads) and spilling into {@code spillDirectory}.
     */
    static DuckDbBenchEngine openLimited(String url, int memoryDivisor, Path spillDirectory) throws SQLException {
        Connection connection = connect(url);
        try (Statement s = connection.createStatement()) {
            s.execute("SET temp_directory = " + literal(spillDirectory.toString()));
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return new DuckDbBenchEngine(connection, memoryDivisor);
    }

    /**
     * A connection to a new in-memory DuckDB through the driver registered for {@code url}.
     *
     * @throws IllegalStateException naming the missing jar when no driver accepts {@code url}
     */
    public static Connection connect(String url) throws SQLException {
        try {
            DriverManager.getDriver(url);
        } catch (SQLException e) {
            throw new IllegalStateException("peer duckdb needs the DuckDB JDBC driver (org.duckdb:duckdb_jdbc) on "
                    + "the classpath, and no driver accepts the URL '" + url + "': build with 'mvn -DskipTests package', which "
                    + "copies it to target/bench-lib/ for bin/troupe, or leave out the duckdb peer", e);
        }
        return DriverManager.getConnection(url);
    }

    @Override
    public String id() {
        return memoryDivisor == 1 ? "duckdb" : "duckdb@1/" + memoryDivisor;
    }

    @Override
    public List<Integer> workerCounts(List<Integer> asked) {
        return asked.stream().filter(k -> k >= 1).toList();
    }

    /**
     * Under a share of the memory, the tables are made under DuckDB's default limit and then the
     * limit is set to what they take in DuckDB's buffer pool (an in-memory database keeps its tables
     * there, under the same limit) plus the share: the query gets as much memory as Troupe's does.
     */
    @Override
    public void load(BenchWorkload workload, BenchSize size, List<Table> tables, long memoryNeed)
            throws SQLException, IOException {
        if (memoryDivisor > 1) {
            try (Statement s = connection.createStatement()) {
                s.execute("RESET memory_limit");
            }
        }
        load(connection, workload, size, tables);
        if (memoryDivisor > 1) {
            try (Statement s = connection.createStatement()) {
                long tablesBytes;
                try (ResultSet rs = s.executeQuery("SELECT sum(memory_usage_bytes) FROM duckdb_memory()")) {
                    rs.next();
                    tablesBytes = rs.getLong(1);
                }
                long limit = tablesBytes + memoryNeed / memoryDivisor;
                s.execute("SET memory_limit = '" + Math.max(1, limit / 1024) + "KiB'");
            }
        }
    }

    /**
     * Makes {@code workload}'s tables in the DuckDB behind {@code connection}: by the workload's own
     * SQL when it has one, else from {@code tables}, the values the bench generated.
     */
    public static void load(Connection connection, BenchWorkload workload, BenchSize size, List<Table> tables)
            throws SQLException, IOException {
        Optional<String> create = workload.createTableSql(size);
        if (create.isPresent()) {
            try (Statement s = connection.createStatement()) {
                s.execute(create.get());
            }
            return;
        }
        loadTables(connection, tables);
    }

    /**
     * Creates each of {@code tables} in the DuckDB behind {@code connection}, with the same name,
     * columns, types and NOT NULLs, holding the same values (tests load their oracle this way).
     */
    public static void loadTables(Connection connection, List<Table> tables) throws SQLException, IOException {
        Path dir = Files.createTempDirectory("troupe-bench-");
        try {
            for (Table table : tables) {
                loadThroughFile(connection, table, dir.resolve(table.name() + ".dat"));
            }
        } finally {
            Files.delete(dir);
        }
    }

    /**
     * Loads {@code table} as DuckDB's table of the same name, columns and types: written to
     * {@code file} as '|'-separated text ({@link DelimitedFileWriter}: every field ends with '|',
     * NULL is an empty field), read with read_csv, then the file is deleted.
     */
    private static void loadThroughFile(Connection connection, Table table, Path file)
            throws SQLException, IOException {
        try {
            DelimitedFileWriter.write(table, file);
            StringBuilder create = new StringBuilder("create or replace table ").append(quote(table.name())).append(" (");
            StringBuilder columns = new StringBuilder("{");
            StringBuilder select = new StringBuilder();
            for (Field f : table.schema().fields()) {
                String type = f.type().sqlName();
                if (select.length() > 0) {
                    create.append(", ");
                    select.append(", ");
                }
                create.append(quote(f.name())).append(' ').append(type).append(f.nullable() ? "" : " not null");
                columns.append(literal(f.name())).append(": ").append(literal(type)).append(", ");
                select.append(quote(f.name()));
            }
            create.append(')');
            // The '|' that ends every line opens one more, empty column, which is read and dropped.
            columns.append("'trailing_': 'VARCHAR'}");
            try (Statement s = connection.createStatement()) {
                s.execute(create.toString());
                s.execute("insert into " + quote(table.name()) + " select " + select + " from read_csv("
                        + literal(file.toString()) + ", delim = '|', header = false, quote = '', escape = '', "
                        + "auto_detect = false, columns = " + columns + ")");
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    private static String literal(String text) {
        return '\'' + text.replace("'", "''") + '\'';
    }

    @Override
    public BenchOutcome run(BenchWorkload workload, int workers) throws SQLException, EngineRefusedException {
        if (workers < 1) {
            throw new IllegalArgumentException("duckdb runs with 1 or more threads, got " + workers);
        }
        try (Statement s = connection.createStatement()) {
            s.execute("SET threads = " + workers);
        }
        long t0 = System.nanoTime();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(workload.sql())) {
            return readAll(rs, t0);
        } catch (SQLException e) {
            if (memoryDivisor > 1 && String.valueOf(e.getMessage()).startsWith("Out of Memory Error")) {
                throw new EngineRefusedException(e.getMessage().lines().findFirst().orElse(""), e);
            }
            throw e;
        }
    }

    /**
     * Reads every row of {@code rs}, summing the checksum as it goes; the seconds are those since
     * {@code startNanos} (a {@link System#nanoTime()}) until the last row was read.
     */
    public static BenchOutcome readAll(ResultSet rs, long startNanos) throws SQLException {
        long rows = 0;
        BigDecimal checksum = BigDecimal.ZERO;
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            rows++;
            for (int c = 1; c <= columns; c++) {
                BigDecimal n = BenchOutcome.numeric(rs.getObject(c));
                if (n != null) {
                    checksum = checksum.add(n);
                }
            }
        }
        return new BenchOutcome((System.nanoTime() - startNanos) / 1e9, rows, checksum);
    }

    @Override
    public void unload(BenchWorkload workload) throws SQLException {
        try (Statement s = connection.createStatement()) {
            for (String table : workload.tableNames()) {
                s.execute("drop table if exists " + quote(table));
            }
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
