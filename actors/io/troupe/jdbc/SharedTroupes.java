package io.troupe.jdbc;

import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;

import com.typesafe.config.ConfigFactory;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The Troupes of {@code jdbc:troupe:} URLs, the driver's own: one per set of settings, started by the
 * first connection that asks for it and closed with the last one, so that connections of a pool see the
 * same tables. Its settings are those of {@link TroupeSettings#load()} (reference.conf, application.conf,
 * {@code -Dtroupe.*}) with the URL's on top.
 *
 * <p>Threadsafe: the map and the counts are guarded by this; a Troupe is started under the lock (a
 * second connection waits for the first's Troupe) and closed outside it.
 */
final class SharedTroupes {

    /** A started Troupe and how many open connections use it. */
    private static final class Shared {
        final Troupe troupe;
        int connections;

        Shared(Troupe troupe) {
            this.troupe = troupe;
        }
    }

    private final Map<Map<String, String>, Shared> troupes = new HashMap<>();

    /**
     * The Troupe of {@code settings}, started now unless a connection holds it; every call is matched by
     * one {@link #release}.
     *
     * @throws SQLException (08001) when a setting is unknown or its value bad, naming it
     */
    synchronized Troupe acquire(Map<String, String> settings) throws SQLException {
        Shared shared = troupes.get(settings);
        if (shared == null) {
            shared = new Shared(start(settings(settings)));
            troupes.put(settings, shared);
        }
        shared.connections++;
        return shared.troupe;
    }

    /** One connection to the Troupe of {@code settings} closed: the last one closes the Troupe. */
    void release(Map<String, String> settings) {
        Troupe last = null;
        synchronized (this) {
            Shared shared = troupes.get(settings);
            if (--shared.connections == 0) {
                troupes.remove(settings);
                last = shared.troupe;
            }
        }
        if (last != null) {
            last.close();
        }
    }

    private static Troupe start(TroupeSettings settings) throws SQLException {
        try {
            return Troupe.start(settings);
        } catch (RuntimeException e) {
            throw new SQLException("cannot start a Troupe: " + e.getMessage(), "08001", e);
        }
    }

    private static TroupeSettings settings(Map<String, String> settings) throws SQLException {
        Map<String, String> keys = new HashMap<>();
        settings.forEach((key, value) -> keys.put("troupe." + key, value));
        try {
            return TroupeSettings.from(ConfigFactory.parseMap(keys, "the jdbc:troupe: URL")
                    .withFallback(ConfigFactory.load()));
        } catch (RuntimeException e) {
            throw new SQLException("bad setting in the URL: " + e.getMessage(), "08001", e);
        }
    }
}
