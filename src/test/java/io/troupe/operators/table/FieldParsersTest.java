package io.troupe.operators.table;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FieldParsersTest {

    /** The text placed in a larger buffer, so that parsers must respect from and to. */
    private static byte[] padded(String text) {
        return ("#" + text + "#").getBytes(StandardCharsets.UTF_8);
    }

    private static int parseInt(String s) {
        byte[] b = padded(s);
        return FieldParsers.parseInt(b, 1, b.length - 1);
    }

    private static long parseLong(String s) {
        byte[] b = padded(s);
        return FieldParsers.parseLong(b, 1, b.length - 1);
    }

    private static long parseDecimal(String s, DataType type) {
        byte[] b = padded(s);
        return FieldParsers.parseDecimal(b, 1, b.length - 1, type);
    }

    private static double parseDouble(String s) {
        byte[] b = padded(s);
        return FieldParsers.parseDouble(b, 1, b.length - 1);
    }

    private static int parseDate(String s) {
        byte[] b = padded(s);
        return FieldParsers.parseDate(b, 1, b.length - 1);
    }

    private static boolean parseBoolean(String s) {
        byte[] b = padded(s);
        return FieldParsers.parseBoolean(b, 1, b.length - 1);
    }

    private static String reason(Runnable parse) {
        return assertThrows(FieldParsers.FieldParseException.class, parse::run).getMessage();
    }

    @Test
    void shouldParseInt32AtItsLimits() {
        assertEquals(0, parseInt("0"));
        assertEquals(-17, parseInt("-17"));
        assertEquals(17, parseInt("+17"));
        assertEquals(Integer.MAX_VALUE, parseInt("2147483647"));
        assertEquals(Integer.MIN_VALUE, parseInt("-2147483648"));
        assertEquals(5, parseInt("0000000000000005"));
    }

    @Test
    void shouldRejectBadInt32() {
        assertEquals("out of range", reason(() -> parseInt("2147483648")));
        assertEquals("out of range", reason(() -> parseInt("-2147483649")));
        assertEquals("out of range", reason(() -> parseInt("99999999999999999999999")));
        assertEquals("not an integer", reason(() -> parseInt("99999999999999999999999x")));
        assertEquals("not an integer", reason(() -> parseInt("")));
        assertEquals("not an integer", reason(() -> parseInt("-")));
        assertEquals("not an integer", reason(() -> parseInt(" 1")));
        assertEquals("not an integer", reason(() -> parseInt("1.0")));
    }

    @Test
    void shouldParseInt64AtItsLimitsAndMatchTheJdk() {
        assertEquals(Long.MAX_VALUE, parseLong("9223372036854775807"));
        assertEquals(Long.MIN_VALUE, parseLong("-9223372036854775808"));
        assertEquals("out of range", reason(() -> parseLong("9223372036854775808")));
        assertEquals("out of range", reason(() -> parseLong("-9223372036854775809")));
        assertEquals("out of range", reason(() -> parseLong("100000000000000000000")));
        assertEquals("not an integer", reason(() -> parseLong("12e3")));
        Random random = new Random(7);
        for (int i = 0; i < 10_000; i++) {
            long v = random.nextLong() >> random.nextInt(64);
            assertEquals(v, parseLong(Long.toString(v)));
        }
    }

    @Test
    void shouldParseDecimalsExactly() {
        DataType d72 = DataType.decimal(7, 2);
        assertEquals(1234567L, parseDecimal("12345.67", d72));
        assertEquals(-1234567L, parseDecimal("-12345.67", d72));
        assertEquals(150L, parseDecimal("1.5", d72));
        assertEquals(100L, parseDecimal("1", d72));
        assertEquals(100L, parseDecimal("1.", d72));
        assertEquals(50L, parseDecimal(".5", d72));
        assertEquals(-50L, parseDecimal("-.5", d72));
        assertEquals(123L, parseDecimal("1.2300", d72));
        assertEquals(0L, parseDecimal("-0.00", d72));
        assertEquals(1234567L, parseDecimal("0000012345.67", d72));
        assertEquals(99L, parseDecimal("0.99", DataType.decimal(2, 2)));
        assertEquals(999_999_999_999_999_999L, parseDecimal("999999999999999999", DataType.decimal(18, 0)));
    }

    @Test
    void shouldRejectDecimalsThatWouldRoundOrOverflow() {
        DataType d72 = DataType.decimal(7, 2);
        assertEquals("more than 2 fractional digits", reason(() -> parseDecimal("1.234", d72)));
        assertEquals("more than 2 fractional digits", reason(() -> parseDecimal("1.2301", d72)));
        assertEquals("more than 5 integer digits", reason(() -> parseDecimal("123456", d72)));
        assertEquals("more than 5 integer digits", reason(() -> parseDecimal("-123456.1", d72)));
        assertEquals("more than 0 integer digits", reason(() -> parseDecimal("1.00", DataType.decimal(2, 2))));
        assertEquals("not a decimal", reason(() -> parseDecimal("12.3x", d72)));
        assertEquals("not a decimal", reason(() -> parseDecimal("1.2.3", d72)));
        assertEquals("not a decimal", reason(() -> parseDecimal(".", d72)));
        assertEquals("not a decimal", reason(() -> parseDecimal("-", d72)));
        assertEquals("not a decimal", reason(() -> parseDecimal("", d72)));
        assertEquals("not a decimal", reason(() -> parseDecimal("1e2", d72)));
    }

    @Test
    void shouldParseDoublesAsTheJdkDoes() {
        Random random = new Random(11);
        for (int i = 0; i < 20_000; i++) {
            double v = switch (i % 4) {
                case 0 -> random.nextDouble() * 1000;
                case 1 -> random.nextGaussian() * 1e-8;
                case 2 -> Double.longBitsToDouble(random.nextLong());
                default -> Math.round(random.nextDouble() * 1e6) / 100.0;
            };
            if (Double.isNaN(v)) {
                continue;
            }
            String text = Double.toString(v);
            assertEquals(v, parseDouble(text), text);
            String plain = new BigDecimal(text).toPlainString();
            assertEquals(Double.parseDouble(plain), parseDouble(plain), plain);
        }
        assertEquals(0.1, parseDouble("0.1"));
        assertEquals(-2.5e-3, parseDouble("-2.5E-3"));
        assertEquals(1e22, parseDouble("1e22"));
        assertEquals(1e23, parseDouble("1e23"));
        assertEquals(123.0, parseDouble("123."));
        assertEquals(0.5, parseDouble(".5"));
        assertEquals(9007199254740993.0, parseDouble("9007199254740993"));
        assertEquals(Double.POSITIVE_INFINITY, parseDouble("Infinity"));
        assertEquals(Double.NEGATIVE_INFINITY, parseDouble("-inf"));
        assertTrue(Double.isNaN(parseDouble("NaN")));
    }

    @Test
    void shouldRejectTextTheJdkWouldTakeButIsNoNumber() {
        assertEquals("not a number", reason(() -> parseDouble("1.5d")));
        assertEquals("not a number", reason(() -> parseDouble("0x1p3")));
        assertEquals("not a number", reason(() -> parseDouble("1e")));
        assertEquals("not a number", reason(() -> parseDouble(" 1")));
        assertEquals("not a number", reason(() -> parseDouble("")));
        assertEquals("not a number", reason(() -> parseDouble(".")));
        assertEquals("not a number", reason(() -> parseDouble("infinit")));
    }

    @Test
    void shouldParseDatesOfTheCalendar() {
        Random random = new Random(3);
        for (int i = 0; i < 5_000; i++) {
            LocalDate d = LocalDate.ofEpochDay(random.nextInt(2_932_897 + 719_162) - 719_162); // 0001-01-01 .. 9999-12-31
            assertEquals(Dates.fromLocalDate(d), parseDate(d.toString()), d.toString());
        }
        assertEquals(Dates.days(2024, 2, 29), parseDate("2024-02-29"));
        assertEquals(Dates.days(2000, 2, 29), parseDate("2000-02-29"));
        for (String bad : new String[] {"2023-02-29", "1900-02-29", "2024-04-31", "2024-13-01", "2024-00-10",
                                        "2024-01-00", "2024-1-01", "2024/01/01", "20240101", "2024-01-01 "}) {
            assertEquals("not a date (yyyy-mm-dd)", reason(() -> parseDate(bad)), bad);
        }
    }

    @Test
    void shouldParseBooleansInEveryAcceptedSpelling() {
        for (String t : new String[] {"true", "TRUE", "True", "t", "T", "1"}) {
            assertTrue(parseBoolean(t), t);
        }
        for (String f : new String[] {"false", "FALSE", "fAlSe", "f", "F", "0"}) {
            assertFalse(parseBoolean(f), f);
        }
        for (String bad : new String[] {"yes", "2", "", "tru", "truee", "10"}) {
            assertEquals("not a boolean", reason(() -> parseBoolean(bad)), bad);
        }
    }

    @Test
    void shouldAcceptValidUtf8AndRejectTheRest() {
        byte[] ok = "plain, é, 日本, \uD83D\uDE00".getBytes(StandardCharsets.UTF_8);
        FieldParsers.checkUtf8(ok, 0, ok.length);
        byte[][] bad = {
            {(byte) 0xC3},                                   // truncated
            {(byte) 0xC0, (byte) 0x80},                      // overlong NUL
            {(byte) 0xE0, (byte) 0x80, (byte) 0x80},         // overlong
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80},         // surrogate
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // past U+10FFFF
            {'a', (byte) 0x80},                              // stray continuation
            {(byte) 0xFF},
        };
        for (byte[] b : bad) {
            assertEquals("invalid UTF-8", reason(() -> FieldParsers.checkUtf8(b, 0, b.length)));
        }
    }
}
