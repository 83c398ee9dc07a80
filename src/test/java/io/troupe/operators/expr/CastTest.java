package io.troupe.operators.expr;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;

import static io.troupe.operators.expr.Fixture.row;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;

class CastTest {

    private static final DataType D52 = DataType.decimal(5, 2);

    private static Fixture column(DataType type, Object... values) {
        Object[][] rows = new Object[values.length][];
        for (int i = 0; i < values.length; i++) {
            rows[i] = row(values[i]);
        }
        return Fixture.of(Schema.of(Field.of("x", type)), rows);
    }

    private static BigDecimal dec(String v) {
        return new BigDecimal(v);
    }

    @Test
    void shouldConvertBetweenNumericTypes() {
        Fixture ints = column(DataType.INT32, 7, -7, null, Integer.MAX_VALUE);
        assertEquals(Arrays.asList(7L, -7L, null, 2147483647L), ints.eval(col("x").cast(DataType.INT64)));
        assertEquals(Arrays.asList(7.0, -7.0, null, 2147483647.0), ints.eval(col("x").cast(DataType.FLOAT64)));
        assertEquals(Arrays.asList(dec("7.00"), dec("-7.00"), null), ints.select(0, 1, 2).eval(col("x").cast(D52)));
        assertEquals("value 2147483647 is out of range for type decimal(5,2) in CAST(x AS DECIMAL(5,2))", ints.runtimeError(col("x").cast(D52)));

        Fixture longs = column(DataType.INT64, 5L, null, 3_000_000_000L);
        assertEquals(Arrays.asList(5, null), longs.select(0, 1).eval(col("x").cast(DataType.INT32)));
        assertEquals("value 3000000000 is out of range for type integer in CAST(x AS INT32)", longs.runtimeError(col("x").cast(DataType.INT32)));

        // FLOAT64 to an integer rounds half to even, as DuckDB (nearbyint); to DECIMAL half away from zero.
        Fixture doubles = column(DataType.FLOAT64, 2.5, -2.5, 3.5, -0.5, 2.675, 1.005, null);
        assertEquals(Arrays.asList(2, -2, 4, 0, 3, 1, null), doubles.eval(col("x").cast(DataType.INT32)));
        assertEquals(Arrays.asList(2L, -2L, 4L, 0L, 3L, 1L, null), doubles.eval(col("x").cast(DataType.INT64)));
        assertEquals(Arrays.asList(dec("2.50"), dec("-2.50"), dec("3.50"), dec("-0.50"), dec("2.68"), dec("1.00"), null),
                doubles.eval(col("x").cast(D52)));
        assertEquals(Arrays.asList(dec("3"), dec("-3"), dec("4"), dec("-1")),
                doubles.select(0, 1, 2, 3).eval(col("x").cast(DataType.decimal(3, 0))));
        assertEquals("value 1.0E300 is out of range for type integer in CAST(x AS INT32)",
                column(DataType.FLOAT64, 1e300).runtimeError(col("x").cast(DataType.INT32)));
        assertEquals("value NaN is out of range for type bigint in CAST(x AS INT64)",
                column(DataType.FLOAT64, Double.NaN).runtimeError(col("x").cast(DataType.INT64)));
        assertEquals("value 1000.0 is out of range for type decimal(5,2) in CAST(x AS DECIMAL(5,2))",
                column(DataType.FLOAT64, 1000.0).runtimeError(col("x").cast(D52)));

        // DECIMAL to an integer or a smaller scale rounds half away from zero.
        Fixture decimals = column(D52, dec("1.25"), dec("-1.25"), dec("2.50"), dec("-999.99"), null);
        assertEquals(Arrays.asList(1, -1, 3, -1000, null), decimals.eval(col("x").cast(DataType.INT32)));
        assertEquals(Arrays.asList(1L, -1L, 3L, -1000L, null), decimals.eval(col("x").cast(DataType.INT64)));
        assertEquals(Arrays.asList(1.25, -1.25, 2.5, -999.99, null), decimals.eval(col("x").cast(DataType.FLOAT64)));
        assertEquals(Arrays.asList(dec("1.3"), dec("-1.3"), dec("2.5"), dec("-1000.0"), null),
                decimals.eval(col("x").cast(DataType.decimal(5, 1))));
        assertEquals(Arrays.asList(dec("1.2500"), dec("-1.2500"), dec("2.5000"), dec("-999.9900"), null),
                decimals.eval(col("x").cast(DataType.decimal(8, 4))));
        assertEquals(Arrays.asList(dec("1.25"), dec("-1.25"), dec("2.50"), dec("-999.99"), null),
                decimals.eval(col("x").cast(DataType.decimal(18, 2))));
        assertEquals("value -999.99 is out of range for type decimal(4,1) in CAST(x AS DECIMAL(4,1))",
                decimals.runtimeError(col("x").cast(DataType.decimal(4, 1))));
        assertEquals("value -999.99 is out of range for type decimal(6,4) in CAST(x AS DECIMAL(6,4))",
                decimals.runtimeError(col("x").cast(DataType.decimal(6, 4))));
    }

    @Test
    void shouldConvertBooleansToAndFromNumbers() {
        Fixture bools = column(DataType.BOOLEAN, true, false, null);
        assertEquals(Arrays.asList(1, 0, null), bools.eval(col("x").cast(DataType.INT32)));
        assertEquals(Arrays.asList(1L, 0L, null), bools.eval(col("x").cast(DataType.INT64)));
        assertEquals(Arrays.asList(1.0, 0.0, null), bools.eval(col("x").cast(DataType.FLOAT64)));
        assertEquals(Arrays.asList(dec("1.00"), dec("0.00"), null), bools.eval(col("x").cast(D52)));
        assertEquals(Arrays.asList(true, false, null), column(DataType.INT32, 2, 0, null).eval(col("x").cast(DataType.BOOLEAN)));
        assertEquals(Arrays.asList(true, false), column(DataType.FLOAT64, 0.5, 0.0).eval(col("x").cast(DataType.BOOLEAN)));
        assertEquals(Arrays.asList(true, false), column(D52, dec("0.01"), dec("0.00")).eval(col("x").cast(DataType.BOOLEAN)));
    }

    @Test
    void shouldFormatValuesAsText() {
        assertEquals(Arrays.asList("7", "-2147483648", null),
                column(DataType.INT32, 7, Integer.MIN_VALUE, null).eval(col("x").cast(DataType.VARCHAR)));
        assertEquals(Arrays.asList("-9223372036854775808", "0"),
                column(DataType.INT64, Long.MIN_VALUE, 0L).eval(col("x").cast(DataType.VARCHAR)));
        assertEquals(Arrays.asList("1.50", "-0.05", "0.00", "999.99"),
                column(D52, dec("1.50"), dec("-0.05"), dec("0"), dec("999.99")).eval(col("x").cast(DataType.VARCHAR)));
        assertEquals(Arrays.asList("12", "-3"), column(DataType.decimal(3, 0), dec("12"), dec("-3")).eval(col("x").cast(DataType.VARCHAR)));
        // DuckDB's (Python's repr) layout of the shortest round-trip digits.
        assertEquals(Arrays.asList("1.5", "1.0", "0.1", "1e+20", "1000000000000000.0", "1e+16", "0.0001", "1e-05",
                        "1.234e-07", "-0.0", "nan", "inf", "-inf", "0.3333333333333333", "1.23e+18", "12345678.9"),
                column(DataType.FLOAT64, 1.5, 1.0, 0.1, 1e20, 1e15, 1e16, 0.0001, 0.00001, 1.234e-7, -0.0, Double.NaN,
                        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1 / 3.0, 123e16, 12345678.9)
                        .eval(col("x").cast(DataType.VARCHAR)));
        assertEquals(Arrays.asList("2024-01-05", "0001-01-01", "10000-01-01", "0002-12-31 (BC)"),
                column(DataType.DATE, LocalDate.of(2024, 1, 5), LocalDate.of(1, 1, 1), LocalDate.of(10000, 1, 1),
                        LocalDate.of(-1, 12, 31)).eval(col("x").cast(DataType.VARCHAR)));
        assertEquals(Arrays.asList("true", "false", null), column(DataType.BOOLEAN, true, false, null).eval(col("x").cast(DataType.VARCHAR)));
    }

    @Test
    void shouldParseText() {
        Fixture text = column(DataType.VARCHAR, " 12 ", "+5", "-2.5", "0.5", "1e2", ".5", "5.", null);
        assertEquals(Arrays.asList(12, 5, -3, 1, 100, 1, 5, null), text.eval(col("x").cast(DataType.INT32)));
        assertEquals(Arrays.asList(12L, 5L, -3L, 1L, 100L, 1L, 5L, null), text.eval(col("x").cast(DataType.INT64)));
        assertEquals(Arrays.asList(12.0, 5.0, -2.5, 0.5, 100.0, 0.5, 5.0, null), text.eval(col("x").cast(DataType.FLOAT64)));
        assertEquals(Arrays.asList(dec("12.00"), dec("5.00"), dec("-2.50"), dec("0.50"), dec("100.00"), dec("0.50"),
                dec("5.00"), null), text.eval(col("x").cast(D52)));
        assertEquals(Arrays.asList(dec("12.35"), dec("-12.35"), dec("0.00")),
                column(DataType.VARCHAR, "12.345", "-12.345", "1e-9").eval(col("x").cast(D52)));
        assertEquals(Arrays.asList(9223372036854775807L, -9223372036854775808L),
                column(DataType.VARCHAR, "9223372036854775807", "-9223372036854775808").eval(col("x").cast(DataType.INT64)));
        assertEquals(Arrays.asList(1.7976931348623157e308, 4.9e-324, 0.1, 1.0000000000000002, Double.POSITIVE_INFINITY,
                        Double.NEGATIVE_INFINITY, Double.NaN, 123456789.123456789),
                column(DataType.VARCHAR, "1.7976931348623157e308", "4.9e-324", "0.1", "1.0000000000000002", "inf", "-Infinity",
                        "NaN", "123456789.123456789").eval(col("x").cast(DataType.FLOAT64)));
        assertEquals(Arrays.asList(LocalDate.of(2024, 1, 5), LocalDate.of(2024, 2, 29), LocalDate.of(1, 1, 1), null),
                column(DataType.VARCHAR, "2024-01-05", " 2024-2-29 ", "0001-01-01", null).eval(col("x").cast(DataType.DATE)));
        assertEquals(Arrays.asList(true, true, true, true, true, false, false, false, false, false),
                column(DataType.VARCHAR, "true", "T", "yes", "Y", "1", "FALSE", "f", "No", "n", "0").eval(col("x").cast(DataType.BOOLEAN)));
    }

    @Test
    void shouldNameTheValueThatDoesNotParse() {
        assertEquals("invalid input syntax for type integer: \"abc\" in CAST(x AS INT32)",
                column(DataType.VARCHAR, "1", "abc").runtimeError(col("x").cast(DataType.INT32)));
        assertEquals("value \"2147483648\" is out of range for type integer in CAST(x AS INT32)",
                column(DataType.VARCHAR, "2147483648").runtimeError(col("x").cast(DataType.INT32)));
        assertEquals("value \"9223372036854775808\" is out of range for type bigint in CAST(x AS INT64)",
                column(DataType.VARCHAR, "9223372036854775808").runtimeError(col("x").cast(DataType.INT64)));
        assertEquals("invalid input syntax for type double: \"\" in CAST(x AS FLOAT64)",
                column(DataType.VARCHAR, "").runtimeError(col("x").cast(DataType.FLOAT64)));
        assertEquals("invalid input syntax for type double: \"1,5\" in CAST(x AS FLOAT64)",
                column(DataType.VARCHAR, "1,5").runtimeError(col("x").cast(DataType.FLOAT64)));
        assertEquals("invalid input syntax for type double: \"1.5d\" in CAST(x AS FLOAT64)",
                column(DataType.VARCHAR, "1.5d").runtimeError(col("x").cast(DataType.FLOAT64)));
        assertEquals("value \"1234.5\" is out of range for type decimal(5,2) in CAST(x AS DECIMAL(5,2))",
                column(DataType.VARCHAR, "1234.5").runtimeError(col("x").cast(D52)));
        assertEquals("invalid input syntax for type date: \"2023-02-29\" in CAST(x AS DATE)",
                column(DataType.VARCHAR, "2023-02-29").runtimeError(col("x").cast(DataType.DATE)));
        assertEquals("invalid input syntax for type date: \"2024-01-05 10:00\" in CAST(x AS DATE)",
                column(DataType.VARCHAR, "2024-01-05 10:00").runtimeError(col("x").cast(DataType.DATE)));
        assertEquals("invalid input syntax for type boolean: \" true\" in CAST(x AS BOOLEAN)",
                column(DataType.VARCHAR, " true").runtimeError(col("x").cast(DataType.BOOLEAN)));
        // A bad value at a row that is not live, or NULL, is never parsed.
        assertEquals(Arrays.asList(1, null), column(DataType.VARCHAR, "1", "abc", null).select(0, 2).eval(col("x").cast(DataType.INT32)));
    }

    @Test
    void shouldRejectCastsBetweenDatesAndNumbers() {
        Fixture dates = column(DataType.DATE, LocalDate.of(2024, 1, 5));
        assertEquals("cannot cast DATE to INTEGER in CAST(x AS INT32)", dates.typeError(col("x").cast(DataType.INT32)));
        assertEquals("cannot cast INTEGER to DATE in CAST(1 AS DATE)", dates.typeError(lit(1).cast(DataType.DATE)));
        assertEquals("cannot cast BOOLEAN to DATE in CAST(true AS DATE)", dates.typeError(lit(true).cast(DataType.DATE)));
    }

    @Test
    void shouldRoundTripDatesThroughText() {
        Fixture dates = column(DataType.DATE, LocalDate.of(2024, 1, 5), LocalDate.of(1969, 12, 31), null);
        assertEquals(Arrays.asList(LocalDate.of(2024, 1, 5), LocalDate.of(1969, 12, 31), null),
                dates.eval(col("x").cast(DataType.VARCHAR).cast(DataType.DATE)));
        assertEquals(LocalDate.of(2020, 3, 1), dates.one(lit("2020-03-01").cast(DataType.DATE)));
    }
}
