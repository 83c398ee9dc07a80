package io.troupe.golden;

import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The canonical text both engines' values are compared in. */
class GoldenValuesTest {

    @Test
    void shouldSpellEveryTypeCanonically() {
        assertEquals("NULL", GoldenValues.format(null));
        assertEquals("(empty)", GoldenValues.format(""));
        assertEquals("12", GoldenValues.format(12));
        assertEquals("12", GoldenValues.format(12L));
        assertEquals("12", GoldenValues.format(BigInteger.valueOf(12)));
        assertEquals("1.50", GoldenValues.format(new BigDecimal("1.50")));
        assertEquals("3.0", GoldenValues.format(3.0));
        assertEquals("0.3", GoldenValues.format(0.1 + 0.2));
        assertEquals("2.33333333333", GoldenValues.format(7.0 / 3));
        assertEquals("0.0", GoldenValues.format(-0.0));
        assertEquals("100000000000000000000.0", GoldenValues.format(1e20));
        assertEquals("2001-01-02", GoldenValues.format(LocalDate.of(2001, 1, 2)));
        assertEquals("2001-01-02", GoldenValues.format(java.sql.Date.valueOf("2001-01-02")));
        assertEquals("false", GoldenValues.format(false));
        assertEquals("1\tNULL\tx", GoldenValues.formatRow(Arrays.asList(1, null, "x")));
    }

    @Test
    void shouldReadCellsByColumnType() {
        assertEquals(-3, GoldenValues.parseCell("-3", DataType.INT32));
        assertEquals(3L, GoldenValues.parseCell("3", DataType.INT64));
        assertEquals(new BigDecimal("1.50"), GoldenValues.parseCell("1.50", DataType.decimal(7, 2)));
        assertEquals("", GoldenValues.parseCell("(empty)", DataType.VARCHAR));
        assertEquals(null, GoldenValues.parseCell("NULL", DataType.VARCHAR));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GoldenValues.parseCell("yes", DataType.BOOLEAN));
        assertEquals("'yes' is not a BOOLEAN value (true or false)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GoldenValues.parseCell("2001-13-01", DataType.DATE));
        assertEquals("'2001-13-01' is not a DATE value", e.getMessage());
    }
}
