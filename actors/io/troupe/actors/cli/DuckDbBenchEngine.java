package io.troupe.actors.cli;

import io.troupe.operators.table.Table;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * DuckDB as a bench peer, in the same JVM, reached only through JDBC: its driver is a test-scope
 * dependency that bin/troupe puts on the classpath from target/bench-lib, never a dependency of the
 * library, so nothing here names a DuckDB class. Workers are {@code SET threads = k}, set before the
 * timer starts; the time covers executing the query and reading every row of its result (the
 * checksum is summed while reading, which costs nothing next to the query).
 *
 * <p>Not threadsafe (see {@link BenchEngine}); owns one in-memory database and closes it.
 */
final class DuckDbBenchEngine implements BenchEngine {

    static final String URL = "jdbc:duckdb:";

    private final Connection connection;

    private DuckDbBenchEngine(Connection connection) {
        this.connection = connection;
    }

    /**
     * Opens an in-memory DuckDB through the driver registered for {@code url}.
     *
     * @throws IllegalStateException naming the missing jar when no driver accepts {@code url}
     */
    static DuckDbBenchEngine open(String url) throws SQLException {
        try {
            DriverManager.getDriver(url);
        } catch (SQLException e) {
            throw new IllegalStateException("peer duckdb needs the DuckDB JDBC driver (org.duckdb:duckdb_jdbc) on "
                    + "the classpath, and no driver accepts the URL '" + url + "': build with 'mvn -DskipTests package', which "
                    + "copies it to target/bench-lib/ for bin/troupe, or leave out --peers duckdb", e);
        }
        return new DuckDbBenchEngine(DriverManager.getConnection(url));
    }

    @Override
    public String id() {
        return "duckdb";
    }

    @Override
    public int minWorkers() {
        return 1;
    }

    @Override
    public void load(BenchWorkload workload, BenchSize size, List<Table> tables) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(workload.createTableSql(size));
        }
    }

    @Override
    public BenchOutcome run(BenchWorkload workload, int workers) throws SQLException {
        if (workers < 1) {
            throw new IllegalArgumentException("duckdb runs with 1 or more threads, got " + workers);
        }
        try (Statement s = connection.createStatement()) {
            s.execute("SET threads = " + workers);
        }
        long rows = 0;
        BigDecimal checksum = BigDecimal.ZERO;
        long t0 = System.nanoTime();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(workload.sql())) {
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
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new BenchOutcome(seconds, rows, checksum);
    }

    @Override
    public void unload(BenchWorkload workload) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("drop table if exists " + workload.table());
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
