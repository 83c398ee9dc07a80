package io.troupe.oracle;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The comparator: multisets, order, tolerance, LIMIT subsets, kinds of type, and value normalisation. */
class ResultComparatorTest {

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    @Test
    void shouldMatchMultisetsInAnyOrderAndNumbersByValue() {
        List<List<Object>> duck = List.of(row(1L, "a"), row(2L, null), row(1L, "a"));
        List<List<Object>> troupe = List.of(row(2L, null), row(new BigDecimal("1.00"), "a"), row(1L, "a"));
        assertNull(ResultComparator.compare(duck, troupe, false));
    }

    @Test
    void shouldCountDuplicates() {
        String diff = ResultComparator.compare(List.of(row(1L), row(1L)), List.of(row(1L)), false);
        assertNotNull(diff);
        assertTrue(diff.contains("missing (DuckDB has them, Troupe not): 1"), diff);
        assertTrue(diff.contains("(1)"), diff);
    }

    @Test
    void shouldCompareIntervalsByTheirLength() {
        Interval month = Interval.ofMonths(1);
        Interval thirtyDays = Interval.ofDays(30);
        assertNull(ResultComparator.compare(List.of(row(month), row(Interval.ofDays(1))),
                List.of(row(Interval.ofMicros(86_400_000_000L)), row(thirtyDays)), false));
        assertNull(ResultComparator.compare(List.of(row(month)), List.of(row(thirtyDays)), true));
        assertNotNull(ResultComparator.compare(List.of(row(month)), List.of(row(Interval.ofDays(31))), false));
    }

    @Test
    void shouldCompareDoublesWithinTolerance() {
        assertNull(ResultComparator.compare(List.of(row(0.3)), List.of(row(0.1 + 0.2)), false));
        assertNull(ResultComparator.compare(List.of(row(0.0)), List.of(row(1e-13)), true));
        assertNotNull(ResultComparator.compare(List.of(row(1.0)), List.of(row(1.0001)), false));
        assertNotNull(ResultComparator.compare(List.of(row(1.0)), List.of(row((Object) null)), false));
    }

    @Test
    void shouldReportFirstDifferenceInOrder() {
        List<List<Object>> duck = List.of(row(1L), row(2L), row(3L));
        List<List<Object>> troupe = List.of(row(1L), row(3L), row(2L));
        String diff = ResultComparator.compare(duck, troupe, true);
        assertNotNull(diff);
        assertTrue(diff.startsWith("ordered results differ first at row 2"), diff);
        assertTrue(diff.contains("same rows, different order"), diff);
        assertNull(ResultComparator.compare(duck, troupe, false));
    }

    @Test
    void shouldCheckLimitWithoutOrderAsSubset() {
        List<List<Object>> input = List.of(row("x"), row("y"), row("y"));
        assertNull(ResultComparator.compareSubset(input, List.of(row("y"), row("y")), 2));
        assertNotNull(ResultComparator.compareSubset(input, List.of(row("x"), row("x")), 2));
        assertNotNull(ResultComparator.compareSubset(input, List.of(row("x")), 2));
    }

    @Test
    void shouldTellExactNumbersFromDoubles() {
        assertNull(ResultComparator.compareTypes(List.of("HUGEINT", "DECIMAL(38,2)", "DOUBLE", "DATE"),
                List.of(DataType.INT64, DataType.decimal(18, 2), DataType.FLOAT64, DataType.DATE)));
        String diff = ResultComparator.compareTypes(List.of("DECIMAL(10,1)"), List.of(DataType.FLOAT64));
        assertEquals("column 1: Troupe FLOAT64 (double) but DuckDB DECIMAL(10,1) (exact number)\n", diff);
    }

    @Test
    void shouldNormaliseBothEnginesValues() {
        assertEquals(5L, DuckDbOracle.normalise(5));
        assertEquals(7L, DuckDbOracle.normalise(BigInteger.valueOf(7)));
        assertEquals(0, new BigDecimal("1.5").compareTo((BigDecimal) DuckDbOracle.normalise(new BigDecimal("1.500"))));
        assertEquals(LocalDate.of(2000, 2, 29), DuckDbOracle.normalise(java.sql.Date.valueOf("2000-02-29")));
    }
}
