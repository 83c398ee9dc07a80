package io.troupe.config;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Time zones by the names SQL users write: IANA names ({@code Europe/Amsterdam}, any letter case, as
 * PostgreSQL accepts them), {@code UTC} and {@code GMT}, offsets ({@code +02:00}, {@code -05}, {@code
 * UTC+2}), and the system's zone as {@code system} or an empty name. Stateless; threadsafe.
 */
public final class TimeZones {

    /** IANA names by their lower-case spelling. */
    private static final Map<String, String> IANA = new TreeMap<>();

    static {
        for (String id : ZoneId.getAvailableZoneIds()) {
            IANA.put(id.toLowerCase(Locale.ROOT), id);
        }
    }

    private TimeZones() {
    }

    /**
     * The zone named {@code name}.
     *
     * @throws IllegalArgumentException naming the zone when there is none of that name
     */
    public static ZoneId zone(String name) {
        String n = name.trim();
        if (n.isEmpty() || n.equalsIgnoreCase("system")) {
            return ZoneId.systemDefault();
        }
        String lower = n.toLowerCase(Locale.ROOT);
        if (lower.equals("utc") || lower.equals("gmt") || lower.equals("z") || lower.equals("zulu")) {
            return ZoneOffset.UTC;
        }
        String iana = IANA.get(lower);
        if (iana != null) {
            return ZoneId.of(iana);
        }
        try {
            char first = n.charAt(0);
            if (first == '+' || first == '-') {
                return ZoneOffset.of(n.length() == 2 ? first + "0" + n.charAt(1) : n);
            }
            return ZoneId.of(n.toUpperCase(Locale.ROOT));
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("time zone \"" + name + "\" not recognized");
        }
    }
}
