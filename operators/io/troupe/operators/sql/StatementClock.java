package io.troupe.operators.sql;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * What a SQL statement's times are read against: its session's time zone, and the instant it was planned,
 * which CURRENT_TIMESTAMP, CURRENT_DATE and their kin return wherever they stand in it (as PostgreSQL fixes
 * them per transaction, and DuckDB per statement). Immutable.
 *
 * @param zone the session's time zone
 * @param now  the statement's instant
 */
record StatementClock(ZoneId zone, Instant now) {

    /** A statement planned now in {@code zone}. */
    static StatementClock now(ZoneId zone) {
        return new StatementClock(zone, Instant.now());
    }

    /** For expressions that hold no times with a zone and no CURRENT_TIMESTAMP (a Java plan's, a window's arguments). */
    static StatementClock utc() {
        return now(ZoneOffset.UTC);
    }
}
