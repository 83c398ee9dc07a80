package io.troupe.jdbc;

import io.troupe.actors.api.Troupe;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

import static io.troupe.operators.Arguments.notNull;

/**
 * Troupe's JDBC driver, for {@code jdbc:troupe:} URLs ({@link TroupeUrl}): found by {@link DriverManager}
 * through {@code META-INF/services/java.sql.Driver}, and registered with it when this class loads.
 *
 * <pre>{@code
 * TroupeDriver.register("orders", troupe);   // a service exposes its Troupe, with its tables
 * try (Connection c = DriverManager.getConnection("jdbc:troupe:orders");
 *      PreparedStatement s = c.prepareStatement("SELECT id, amount FROM orders WHERE qty > ?")) {
 *     s.setInt(1, 5);
 *     try (ResultSet rs = s.executeQuery()) { ... }
 * }
 * }</pre>
 *
 * {@code jdbc:troupe:name} connects to the Troupe a service {@link #register registered} under that name;
 * closing its connections leaves it running. {@code jdbc:troupe:} (with settings in its query) connects to
 * a Troupe of the driver's own ({@link SharedTroupes}), closed with its last connection; its tables are
 * registered through {@code connection.unwrap(Troupe.class)}.
 *
 * <p>Threadsafe.
 */
public final class TroupeDriver implements Driver {

    static final int MAJOR_VERSION = 0;
    static final int MINOR_VERSION = 1;
    static final String VERSION = "0.1.0";

    private static final Map<String, Troupe> NAMED = new ConcurrentHashMap<>();
    private static final SharedTroupes SHARED = new SharedTroupes();

    static {
        try {
            DriverManager.registerDriver(new TroupeDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Makes {@code troupe} reachable as {@code jdbc:troupe:name} until {@link #unregister}: a service
     * exposes its own Troupe, with the tables it registered, to JDBC code and tools in its JVM.
     *
     * @throws IllegalArgumentException when {@code name} is empty or holds {@code ?}
     * @throws IllegalStateException when another Troupe is registered under {@code name}
     */
    public static void register(String name, Troupe troupe) {
        notNull(name, "TroupeDriver.register", "name");
        notNull(troupe, "TroupeDriver.register", "troupe");
        if (name.isEmpty() || name.contains("?")) {
            throw new IllegalArgumentException("TroupeDriver.register: a name is not empty and has no '?', got '"
                    + name + "'");
        }
        Troupe before = NAMED.putIfAbsent(name, troupe);
        if (before != null && before != troupe) {
            throw new IllegalStateException("TroupeDriver.register: '" + name + "' is registered for "
                    + before.name() + " already; unregister it first");
        }
    }

    /**
     * Removes the Troupe registered as {@code name}; its open connections work on until closed, new ones
     * are refused. Returns whether one was registered.
     */
    public static boolean unregister(String name) {
        notNull(name, "TroupeDriver.unregister", "name");
        return NAMED.remove(name) != null;
    }

    /** Null for a URL of another driver, as {@link Driver#connect} asks. */
    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        TroupeUrl parsed = TroupeUrl.parse(url, info);
        if (parsed.name() != null) {
            Troupe troupe = NAMED.get(parsed.name());
            if (troupe == null) {
                throw new SQLException("no Troupe is registered as '" + parsed.name() + "' (registered: "
                        + new TreeSet<>(NAMED.keySet()) + "); a service registers one with TroupeDriver.register",
                        "08001");
            }
            return new TroupeConnection(troupe, url, () -> { }, parsed.timeZone());
        }
        Troupe troupe = SHARED.acquire(parsed.settings());
        return new TroupeConnection(troupe, url, () -> SHARED.release(parsed.settings()), parsed.timeZone());
    }

    @Override
    public boolean acceptsURL(String url) {
        return TroupeUrl.accepts(url);
    }

    /** None asked: every setting has a default (reference.conf documents them). */
    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        return new DriverPropertyInfo[0];
    }

    @Override
    public int getMajorVersion() {
        return MAJOR_VERSION;
    }

    @Override
    public int getMinorVersion() {
        return MINOR_VERSION;
    }

    /** False: Troupe runs SELECT queries only, not all of SQL-92 entry level. */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw JdbcErrors.unsupported("getParentLogger (Troupe logs through SLF4J)");
    }
}
