package io.troupe.operators.window;

import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A frame's interval offset: read and written as PostgreSQL and DuckDB spell intervals, its sign as PostgreSQL
 * weighs it (a month as 30 days), and added to a time by the calendar, months first.
 */
class FrameIntervalTest {

    @Test
    void shouldReadWhatItWrites() {
        for (FrameInterval i : List.of(FrameInterval.ofMonths(14), FrameInterval.ofDays(7), new FrameInterval(1, 2,
                36 * 3_600_000_000L), FrameInterval.ofMicros(90_000_000L), FrameInterval.ofMicros(1_500),
                FrameInterval.ofMicros(1), new FrameInterval(0, 0, 0))) {
            String text = i.toString();
            assertEquals(i, FrameInterval.parse(text.substring("INTERVAL '".length(), text.length() - 1)), text);
        }
        assertEquals("INTERVAL '1 month 2 days 36 hours'", new FrameInterval(1, 2, 36 * 3_600_000_000L).toString());
        assertEquals(new FrameInterval(26, 15, 90_000_000L), FrameInterval.parse("2 years 2 months 2 weeks 1 day 90 "
                + "seconds"));
    }

    @Test
    void shouldRefuseWhatIsNotAnIntervalNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FrameInterval.parse("7"));
        assertEquals("bad interval '7': expected pairs of a number and a unit, such as '1 month 7 days'",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> FrameInterval.parse("1.5 days"));
        assertEquals("bad interval '1.5 days': a count that is not an integer or is too large", e.getMessage());
    }

    @Test
    void shouldWeighAMonthAsThirtyDays() {
        assertFalse(new FrameInterval(1, -30, 0).negative());
        assertTrue(new FrameInterval(1, -30, -1).negative());
        assertFalse(new FrameInterval(-1, 31, 0).negative());
    }

    @Test
    void shouldAddMonthsByTheCalendarThenDaysThenMicros() {
        long march31 = micros("2024-03-31T00:00");
        assertEquals(micros("2024-02-29T00:00"), FrameInterval.ofMonths(1).addTo(march31, true));
        // Months first: 2024-01-31 + 1 month is 02-29, + 1 day 03-01, + 1 hour 01:00.
        assertEquals(micros("2024-03-01T01:00"), new FrameInterval(1, 1, 3_600_000_000L)
                .addTo(micros("2024-01-31T00:00"), false));
        assertEquals(micros("1969-12-31T23:59:59.999999"), FrameInterval.ofMicros(1).addTo(0, true));
        assertEquals(Long.MAX_VALUE, FrameInterval.ofMonths(Integer.MAX_VALUE).addTo(march31, false));
        assertEquals(Long.MIN_VALUE, FrameInterval.ofMonths(Integer.MAX_VALUE).addTo(march31, true));
    }

    private static long micros(String time) {
        LocalDateTime t = LocalDateTime.parse(time);
        return t.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + t.getNano() / 1000;
    }
}
