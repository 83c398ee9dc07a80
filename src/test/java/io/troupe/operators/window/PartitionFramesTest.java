package io.troupe.operators.window;

import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Frames over one sorted partition where DuckDB cannot be the oracle (it fails on a bound past a BIGINT, and
 * refuses infinite offsets): PostgreSQL's answers from its in_range functions, worked out by hand. A bound past a
 * long lies beyond every key; a DECIMAL offset finer than the key's scale rounds the way its test goes; an
 * infinite offset from an infinite key of the same sign takes every value but NaN; dates less a month by the
 * calendar; GROUPS and EXCLUDE TIES cut into runs.
 */
class PartitionFramesTest {

    /** The frames of {@code frame} over {@code key} (sorted, NULLs as peers), as {@code [start, end)} per row. */
    private static int[][] frames(WindowFrame frame, ColumnVector key, boolean ascending) {
        int n = key.capacity();
        int[] order = new int[n];
        Arrays.setAll(order, i -> i);
        int[] peerStart = new int[n];
        int[] peerEnd = new int[n];
        for (int start = 0; start < n; ) {
            int end = start + 1;
            while (end < n && peers(key, start, end)) {
                end++;
            }
            Arrays.fill(peerStart, start, end, start);
            Arrays.fill(peerEnd, start, end, end);
            start = end;
        }
        PartitionFrames frames = new PartitionFrames(frame, order, key, ascending);
        frames.compute(0, n, peerStart, peerEnd);
        int[][] out = new int[n][];
        for (int pos = 0; pos < n; pos++) {
            out[pos] = new int[] {frames.start(pos), frames.end(pos)};
        }
        return out;
    }

    private static boolean peers(ColumnVector v, int a, int b) {
        if (v.isNull(a) || v.isNull(b)) {
            return v.isNull(a) && v.isNull(b);
        }
        if (v instanceof DoubleVector d) {
            return Double.compare(d.get(a), d.get(b)) == 0;
        }
        return v instanceof IntVector i ? i.get(a) == i.get(b) : ((LongVector) v).get(a) == ((LongVector) v).get(b);
    }

    private static void assertFrames(int[][] expected, int[][] actual) {
        assertEquals(Arrays.deepToString(expected), Arrays.deepToString(actual));
    }

    @Test
    void shouldPutBoundsPastALongBeyondEveryKey() {
        LongVector key = new LongVector(DataType.INT64, new long[] {Long.MIN_VALUE, -5, 0, Long.MAX_VALUE - 1,
                Long.MAX_VALUE});
        // MIN - MAX and -5 - MAX lie below every key, MIN + MAX = -1 takes MIN and -5, -5 + MAX takes up to 0,
        // 0 - MAX = MIN + 1 leaves MIN out, MAX - MAX = 0, and MAX - 1 + MAX lies above every key.
        assertFrames(new int[][] {{0, 2}, {0, 3}, {1, 5}, {2, 5}, {2, 5}}, frames(WindowFrame.range(
                FrameBound.preceding(Long.MAX_VALUE), FrameBound.following(Long.MAX_VALUE)), key, true));
        // MAX + 1 and MAX + 2 lie above every key: the last row's frame is empty, MAX - 1's holds MAX.
        assertFrames(new int[][] {{1, 1}, {2, 2}, {3, 3}, {4, 5}, {5, 5}}, frames(WindowFrame.range(
                FrameBound.following(1), FrameBound.following(2)), key, true));
    }

    @Test
    void shouldRoundADecimalOffsetFinerThanTheKeyTheWayItsTestGoes() {
        // 1.00, 1.01, 1.02, 1.03, 1.15 at scale 2; 1.02 -/+ 0.015 is 1.005..1.035: 1.01 to 1.03.
        LongVector key = new LongVector(DataType.decimal(9, 2), new long[] {100, 101, 102, 103, 115});
        int[][] frames = frames(WindowFrame.range(FrameBound.preceding(new BigDecimal("0.015")),
                FrameBound.following(new BigDecimal("0.015"))), key, true);
        assertArrayEquals(new int[] {1, 4}, frames[2]);
        assertArrayEquals(new int[] {4, 5}, frames[4]);
        // Descending, PRECEDING is the larger keys: 1.02 + 0.015 down to 1.02 - 0.015 again.
        LongVector down = new LongVector(DataType.decimal(9, 2), new long[] {115, 103, 102, 101, 100});
        assertArrayEquals(new int[] {1, 4}, frames(WindowFrame.range(FrameBound.preceding(new BigDecimal("0.015")),
                FrameBound.following(new BigDecimal("0.015"))), down, false)[2]);
    }

    @Test
    void shouldTakeInfinitiesAndNanAsPostgresDoes() {
        DoubleVector key = new DoubleVector(new double[] {Double.NEGATIVE_INFINITY, -1, 0, 1,
                Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.NaN, 0});
        key.setNull(7);
        double inf = Double.POSITIVE_INFINITY;
        // inf PRECEDING: x - inf is -inf for finite x, and +inf - inf takes every value but NaN. NaN's frame is
        // its NaN peers, NULL's its NULL peers.
        assertFrames(new int[][] {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 6}, {0, 6}, {6, 7}, {7, 8}},
                frames(WindowFrame.range(FrameBound.preceding(inf), FrameBound.CURRENT_ROW), key, true));
        // inf FOLLOWING: x + inf is +inf, NaN above it; -inf + inf takes every value but NaN.
        assertFrames(new int[][] {{0, 6}, {1, 6}, {2, 6}, {3, 6}, {4, 6}, {4, 6}, {6, 7}, {7, 8}},
                frames(WindowFrame.range(FrameBound.CURRENT_ROW, FrameBound.following(inf)), key, true));
    }

    @Test
    void shouldSubtractMonthsByTheCalendar() {
        IntVector key = new IntVector(DataType.DATE, new int[] {day("2024-01-31"), day("2024-02-29"),
                day("2024-03-30"), day("2024-03-31")});
        // 03-31 and 03-30 less a month are 02-29 (cut to February's last day); 02-29 less a month is 01-29.
        assertFrames(new int[][] {{0, 1}, {0, 2}, {1, 3}, {1, 4}}, frames(WindowFrame.range(
                FrameBound.preceding(Interval.ofMonths(1)), FrameBound.CURRENT_ROW), key, true));
        // 36 hours after 2024-02-29's midnight is 03-01 noon: no later date within; 01-31 reaches 02-01 noon.
        assertFrames(new int[][] {{0, 1}, {1, 2}, {2, 4}, {3, 4}}, frames(WindowFrame.range(FrameBound.CURRENT_ROW,
                FrameBound.following(Interval.ofMicros(36 * 3_600_000_000L))), key, true));
    }

    @Test
    void shouldNeverMoveABoundBackAsPostgresDoes() {
        // 2024-01-30 16:00 plus a month is 02-29 16:00, but 01-31 10:00 plus a month is 02-29 10:00, before it: the
        // month cut to February's end makes the bound fall back while the keys rise. PostgreSQL's frame end only
        // moves forward, so 01-31 10:00's frame keeps 02-29 12:00; DuckDB, which searches each row's bound anew,
        // ends that frame before it.
        LongVector key = new LongVector(DataType.TIMESTAMP, new long[] {micros("2024-01-30T16:00"),
                micros("2024-01-31T10:00"), micros("2024-02-29T12:00")});
        assertFrames(new int[][] {{0, 3}, {1, 3}, {2, 3}}, frames(WindowFrame.range(FrameBound.CURRENT_ROW,
                FrameBound.following(Interval.ofMonths(1))), key, true));
    }

    private static long micros(String time) {
        return java.time.LocalDateTime.parse(time).toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000L;
    }

    private static int day(String date) {
        return (int) LocalDate.parse(date).toEpochDay();
    }

    @Test
    void shouldCutGroupsAndTiesIntoRuns() {
        // Groups {0,1} {2} {3,4,5} {6}: one group either side of row 3's, its ties out, itself back in.
        IntVector key = new IntVector(DataType.INT32, new int[] {1, 1, 2, 3, 3, 3, 5});
        int n = key.capacity();
        int[] order = new int[n];
        Arrays.setAll(order, i -> i);
        int[] peerStart = {0, 0, 2, 3, 3, 3, 6};
        int[] peerEnd = {2, 2, 3, 6, 6, 6, 7};
        PartitionFrames frames = new PartitionFrames(WindowFrame.groups(FrameBound.preceding(1),
                FrameBound.following(1)).excluding(WindowFrame.Exclusion.TIES), order, null, true);
        frames.compute(0, n, peerStart, peerEnd);
        assertArrayEquals(new int[] {2, 3, 6, 7}, new int[] {frames.start(3), frames.cutStart(3), frames.cutEnd(3),
                frames.end(3)});
        assertEquals(true, frames.keepsCurrent(3));
        assertEquals(3, frames.size(3));
        // Row 0: groups 0..1, its tie row 1 out.
        assertEquals(2, frames.size(0));
        assertArrayEquals(new int[] {0, 0, 2, 3}, new int[] {frames.start(0), frames.cutStart(0), frames.cutEnd(0),
                frames.end(0)});
    }
}
