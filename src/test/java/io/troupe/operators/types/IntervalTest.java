package io.troupe.operators.types;

import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The INTERVAL value: read as PostgreSQL reads interval text, written as DuckDB writes it, ordered by its length
 * with a month as 30 days, added to a time by the calendar (months first), scaled and subtracted as PostgreSQL
 * does it. The SQL behaviour is checked against DuckDB in IntervalSqlTest.
 */
class IntervalTest {

    private static final long HOUR = Timestamps.MICROS_PER_HOUR;

    @Test
    void shouldReadWhatItWrites() {
        for (Interval i : List.of(Interval.ofMonths(14), Interval.ofDays(7), new Interval(1, 2, 36 * HOUR),
                Interval.ofMicros(90_000_000L), Interval.ofMicros(1_500), Interval.ofMicros(1), Interval.ZERO,
                new Interval(-13, -2, -HOUR - 1), new Interval(1, -1, -HOUR), new Interval(0, 0, -1),
                new Interval(Integer.MAX_VALUE, Integer.MIN_VALUE, Long.MIN_VALUE + 1))) {
            assertEquals(i, Interval.parse(i.toString()), i.toString());
        }
        assertEquals("1 year 2 months 3 days 04:05:06.789", new Interval(14, 3, 4 * HOUR + 306_789_000L).toString());
        assertEquals("1 month 2 days 36:00:00", new Interval(1, 2, 36 * HOUR).toString());
        assertEquals("00:00:00", Interval.ZERO.toString());
        assertEquals("-1 year -1 month -1 day -00:00:00.000001", new Interval(-13, -1, -1).toString());
    }

    @Test
    void shouldReadPostgresqlsSpellings() {
        assertEquals(new Interval(26, 15, 90_000_000L), Interval.parse("2 years 2 months 2 weeks 1 day 90 seconds"));
        assertEquals(new Interval(14, 3, 4 * HOUR + 5 * 60_000_000L), Interval.parse("1 yr 2 mons 3 d 4 h 5 min"));
        assertEquals(new Interval(1, 15, 0), Interval.parse("1.5 months"));
        assertEquals(new Interval(18, 0, 0), Interval.parse("1.5 years"));
        assertEquals(new Interval(0, 1, 12 * HOUR), Interval.parse("1.5 days"));
        assertEquals(Interval.ofMicros(-90 * 60_000_000L), Interval.parse("-1.5 hours"));
        assertEquals(new Interval(0, -1, 2 * HOUR), Interval.parse("-1 day 02:00"));
        assertEquals(Interval.ofDays(-1), Interval.parse("@ 1 day ago"));
        assertEquals(new Interval(14, 0, 0), Interval.parse("1-2"));
        assertEquals(new Interval(0, 3, 4 * HOUR + 5 * 60_000_000L + 6_000_000L), Interval.parse("3 4:05:06"));
        assertEquals(new Interval(14, 3, 4 * HOUR + 5 * 60_000_000L + 6_500_000L), Interval.parse("P1Y2M3DT4H5M6.5S"));
        assertEquals(Interval.ofMicros(30_000_000L), Interval.parse("30"));
        assertEquals(Interval.ofMonths(1200), Interval.parse("1 CENTURY"));
    }

    @Test
    void shouldRefuseWhatIsNotAnIntervalInPostgresqlsWords() {
        for (String bad : List.of("", "7 fortnights", "1 day day", "P", "P1X", "1:2:3:4", "abc", "ago")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Interval.parse(bad), bad);
            assertEquals("invalid input syntax for type interval: \"" + bad + "\"", e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Interval.parse("300000000 years"));
        assertEquals("interval field value out of range: \"300000000 years\"", e.getMessage());
    }

    @Test
    void shouldOrderByLengthWeighingAMonthAsThirtyDays() {
        assertEquals(0, Interval.ofMonths(1).compareTo(Interval.ofDays(30)));
        assertEquals(0, Interval.ofDays(1).compareTo(Interval.ofMicros(24 * HOUR)));
        assertTrue(Interval.ofMonths(1).compareTo(Interval.ofDays(31)) < 0);
        assertTrue(new Interval(0, 1, -1).compareTo(Interval.ofMicros(24 * HOUR - 2)) > 0);
        assertTrue(new Interval(Integer.MIN_VALUE, Integer.MIN_VALUE, Long.MIN_VALUE)
                .compareTo(new Interval(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE)) < 0);
        assertFalse(new Interval(1, -30, 0).negative());
        assertTrue(new Interval(1, -30, -1).negative());
        assertFalse(new Interval(-1, 31, 0).negative());
    }

    @Test
    void shouldAddMonthsByTheCalendarThenDaysThenMicros() {
        long march31 = micros("2024-03-31T00:00");
        assertEquals(micros("2024-02-29T00:00"), Interval.ofMonths(-1).addTo(march31));
        // Months first: 2024-01-31 + 1 month is 02-29, + 1 day 03-01, + 1 hour 01:00.
        assertEquals(micros("2024-03-01T01:00"), new Interval(1, 1, HOUR).addTo(micros("2024-01-31T00:00")));
        assertEquals(micros("1969-12-31T23:59:59.999999"), Interval.ofMicros(-1).addTo(0));
        assertThrows(ArithmeticException.class, () -> Interval.ofMonths(Integer.MAX_VALUE).addTo(march31));
        assertThrows(ArithmeticException.class, () -> Interval.ofDays(Integer.MIN_VALUE).addTo(march31));
    }

    @Test
    void shouldSubtractTimesIntoDaysAndTimeOfOneSign() {
        assertEquals(new Interval(0, 69, 10 * HOUR + 29 * 60_000_000L + 59_500_000L),
                Interval.between(micros("2024-03-10T12:00"), micros("2024-01-01T01:30:00.5")));
        assertEquals(new Interval(0, -69, -12 * HOUR),
                Interval.between(micros("2024-01-01T00:00"), micros("2024-03-10T12:00")));
    }

    @Test
    void shouldScaleAsPostgresqlSpreadingFractionsDown() {
        assertEquals(new Interval(0, 1, 12 * HOUR), Interval.ofDays(1).multiply(1.5));
        // The month's fraction is cut to six places of days first (4.285714), as PostgreSQL's TSROUND does.
        assertEquals(new Interval(0, 4, 6 * HOUR + 51 * 60_000_000L + 25_689_600L), Interval.ofMonths(1).divide(7));
        // Whole days of a month's fraction go to the days, the rest to the time; a day's fraction to the time.
        assertEquals(new Interval(0, 9, -(4 * HOUR + 41 * 60_000_000L + 49_500_000L)),
                new Interval(2, -25, 5 * HOUR + 12 * 60_000_000L + 42_000_000L).divide(4));
        assertEquals(new Interval(3, -37, -(4 * HOUR + 10 * 60_000_000L + 57_000_000L)),
                new Interval(2, -25, 5 * HOUR + 12 * 60_000_000L + 42_000_000L).multiply(1.5));
        assertEquals(new Interval(-1, -2, -3 * HOUR), new Interval(1, 2, 3 * HOUR).negate());
        assertThrows(ArithmeticException.class, () -> Interval.ofMonths(Integer.MAX_VALUE).multiply(2));
        assertThrows(ArithmeticException.class, () -> Interval.ofMonths(1).multiply(Double.NaN));
        assertThrows(ArithmeticException.class, () -> Interval.ofMonths(Integer.MIN_VALUE).negate());
    }

    @Test
    void shouldMeasureItsEpochAsPostgresql() {
        assertEquals(365.25 * 86_400 + 30 * 86_400 + 86_400 + 1.5, new Interval(13, 1, 1_500_000L).epoch());
    }

    private static long micros(String time) {
        LocalDateTime t = LocalDateTime.parse(time);
        return t.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + t.getNano() / 1000;
    }
}
