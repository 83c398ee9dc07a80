package io.troupe.cli.loadtest;

import io.troupe.cli.BenchOutcome;
import io.troupe.cli.DuckDbBenchEngine;

import java.lang.reflect.InvocationTargetException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * DuckDB as the load test's peer: one in-memory database in the same JVM, reached through JDBC
 * only (its driver is test-scope, on bin/troupe's classpath from target/bench-lib, as for the
 * bench), each client with a connection of its own to it (DuckDB's advice for parallel clients),
 * each query with DuckDB's {@code threads} set to Troupe's workers and its own timeout.
 *
 * <h2>Concurrency</h2>
 * {@link #run} is called by every client at once; client {@code i} alone opens, uses and keeps
 * {@code clients[i]}. {@link #close} runs after every client thread has been joined (the join
 * publishes the connections to it).
 */
final class DuckDbTarget implements LoadTarget, AutoCloseable {

    private final Connection main;
    private final Connection[] clients;
    private final int timeoutSeconds;

    private DuckDbTarget(Connection main, int clients, Duration timeout) {
        this.main = main;
        this.clients = new Connection[clients];
        // JDBC's timeout is in whole seconds; 0 would mean none.
        this.timeoutSeconds = (int) Math.max(1, Math.min(Integer.MAX_VALUE, (timeout.toMillis() + 999) / 1000));
    }

    /**
     * Opens an in-memory DuckDB at {@code url} whose queries use {@code threads} threads.
     *
     * @throws IllegalStateException naming the missing jar when no driver accepts {@code url}
     */
    static DuckDbTarget open(String url, int threads, int clients, Duration timeout) throws SQLException {
        Connection main = DuckDbBenchEngine.connect(url);
        try (Statement s = main.createStatement()) {
            s.execute("SET threads = " + threads);
        } catch (SQLException e) {
            main.close();
            throw e;
        }
        return new DuckDbTarget(main, clients, timeout);
    }

    /** The connection that makes the tables (before any client runs). */
    Connection connection() {
        return main;
    }

    @Override
    public String id() {
        return "duckdb";
    }

    @Override
    public BenchOutcome run(LoadQuery query, int client, AtomicReference<Runnable> inFlight) throws SQLException {
        if (clients[client] == null) {
            clients[client] = duplicate(main);
        }
        AtomicBoolean cancelled = new AtomicBoolean();
        try (Statement s = clients[client].createStatement()) {
            s.setQueryTimeout(timeoutSeconds);
            inFlight.set(() -> {
                cancelled.set(true);
                cancel(s);
            });
            long t0 = System.nanoTime();
            try (ResultSet rs = s.executeQuery(query.sql())) {
                return DuckDbBenchEngine.readAll(rs, t0);
            }
        } catch (SQLException e) {
            // JDBC's timeout interrupts the query like a cancel does; only the cancel is ours.
            if (!cancelled.get() && String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("interrupt")) {
                throw new SQLTimeoutException("query timed out after " + timeoutSeconds + " s: " + e.getMessage(), e);
            }
            throw e;
        } finally {
            inFlight.set(null);
        }
    }

    private static void cancel(Statement s) {
        try {
            s.cancel();
        } catch (SQLException e) {
            // The statement ended meanwhile: nothing is left to cancel.
        }
    }

    /**
     * Another connection to the database behind {@code connection}: DuckDBConnection.duplicate() (a
     * second {@code jdbc:duckdb:} URL would open a new, empty database), called by reflection so that
     * nothing here names a class of the test-scope driver.
     */
    private static Connection duplicate(Connection connection) throws SQLException {
        try {
            return (Connection) connection.getClass().getMethod("duplicate").invoke(connection);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            throw new SQLException("cannot open another connection to DuckDB's database: " + e.getCause(),
                    e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new SQLException("cannot open another connection to DuckDB's database: " + e, e);
        }
    }

    @Override
    public void close() throws SQLException {
        SQLException first = null;
        for (Connection c : clients) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (SQLException e) {
                first = first == null ? e : first;
            }
        }
        main.close();
        if (first != null) {
            throw first;
        }
    }
}
