package io.troupe.jdbc;

import io.troupe.config.TimeZones;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.HashMap;

/**
 * A parsed {@code jdbc:troupe:} URL with its connection properties:
 *
 * <pre>
 *   jdbc:troupe:[?key=value[&amp;key=value]...]   a Troupe of this driver's, with these settings
 *   jdbc:troupe:name                          the Troupe a service registered as name
 * </pre>
 *
 * The keys of the URL's query and of the {@link Properties} given to {@code connect} (the URL's win) are
 * Troupe settings under {@code troupe.} ({@code workers.default=2} is {@code troupe.workers.default},
 * reference.conf documents them); {@code user} and {@code password}, which tools pass to every driver,
 * are ignored. A named Troupe's settings are its service's: any setting is then an error. {@code timezone}
 * is the connection's own: its session's time zone (a name as {@code troupe.sql.time-zone} takes), for any
 * Troupe.
 *
 * @param name     the registered Troupe's name, or null for a Troupe of the driver's own
 * @param settings setting keys (under {@code troupe.}) to values: equal ones share one Troupe
 * @param timeZone the session's time zone, or null for the Troupe's {@code troupe.sql.time-zone}
 */
record TroupeUrl(String name, Map<String, String> settings, ZoneId timeZone) {

    static final String PREFIX = "jdbc:troupe:";
    /** The connection property of the session's time zone. */
    static final String TIME_ZONE = "timezone";
    private static final Set<String> IGNORED = Set.of("user", "password");

    static boolean accepts(String url) {
        return url != null && url.startsWith(PREFIX);
    }

    /** Parses {@code url} (accepted) with {@code info}, which may be null. */
    static TroupeUrl parse(String url, Properties info) throws SQLException {
        String rest = url.substring(PREFIX.length());
        int query = rest.indexOf('?');
        String name = query < 0 ? rest : rest.substring(0, query);
        Map<String, String> settings = new HashMap<>();
        if (info != null) {
            for (String key : info.stringPropertyNames()) {
                settings.put(key, info.getProperty(key));
            }
        }
        if (query >= 0) {
            for (String pair : rest.substring(query + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new SQLException("bad URL " + url + ": '" + pair + "' is not key=value", "08001");
                }
                settings.put(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
            }
        }
        settings.keySet().removeAll(IGNORED);
        String zoneName = settings.remove(TIME_ZONE);
        ZoneId zone = null;
        if (zoneName != null) {
            try {
                zone = TimeZones.zone(zoneName);
            } catch (IllegalArgumentException e) {
                throw new SQLException("bad URL " + url + ": " + TIME_ZONE + ": " + e.getMessage(), "08001");
            }
        }
        if (!name.isEmpty() && !settings.isEmpty()) {
            throw new SQLException("bad URL " + url + ": the Troupe '" + name + "' runs with its service's settings; "
                    + "settings " + settings.keySet() + " apply only to jdbc:troupe: (a Troupe of the driver's own)",
                    "08001");
        }
        return new TroupeUrl(name.isEmpty() ? null : name, Map.copyOf(settings), zone);
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }
}
