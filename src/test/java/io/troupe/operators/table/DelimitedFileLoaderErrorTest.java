package io.troupe.operators.table;

import io.troupe.operators.TroupeException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Every way a file can be malformed, each with its exact message; and that a failed load registers nothing. */
class DelimitedFileLoaderErrorTest {

    private static final Schema ORDERS = Schema.of(
            Field.of("id", DataType.INT32).withNullable(false),
            Field.of("name", DataType.VARCHAR),
            Field.of("amount", DataType.decimal(7, 2)));

    private static final Schema ALL_TYPES = Schema.of(
            Field.of("i", DataType.INT32),
            Field.of("l", DataType.INT64),
            Field.of("d", DataType.FLOAT64),
            Field.of("day", DataType.DATE),
            Field.of("b", DataType.BOOLEAN),
            Field.of("s", DataType.VARCHAR));

    @TempDir
    Path dir;

    private String csvError(Schema schema, String text) throws IOException {
        return error(schema, DelimitedFormat.csv(), text, "orders.csv");
    }

    /** Loads {@code text} as file {@code name} and returns the failure's message, prefix "FILE" for the path. */
    private String error(Schema schema, DelimitedFormat format, String text, String name) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, text.getBytes(StandardCharsets.UTF_8));
        TroupeException e = assertThrows(TroupeException.class,
                () -> new DelimitedFileLoader(schema, format).load(file, "t"));
        assertEquals(TroupeException.Category.QUERY, e.category());
        return e.getMessage().replace(file.toString(), "FILE");
    }

    @Test
    void shouldNameFileLineColumnAndTextOfABadDecimal() throws IOException {
        String text = "1,a,1.00\n".repeat(16) + "17,b,12.3x\n";
        assertEquals("FILE:17: column 3 (amount DECIMAL(7,2)): not a decimal: '12.3x'", csvError(ORDERS, text));
    }

    @Test
    void shouldRejectDecimalsThatDoNotFit() throws IOException {
        assertEquals("FILE:1: column 3 (amount DECIMAL(7,2)): more than 2 fractional digits: '1.005'",
                csvError(ORDERS, "1,a,1.005\n"));
        assertEquals("FILE:2: column 3 (amount DECIMAL(7,2)): more than 5 integer digits: '-123456.00'",
                csvError(ORDERS, "1,a,1.00\n2,b,-123456.00\n"));
    }

    @Test
    void shouldRejectValuesThatDoNotParseInEachType() throws IOException {
        assertEquals("FILE:1: column 1 (i INT32): not an integer: '1.5'", csvError(ALL_TYPES, "1.5,,,,,\n"));
        assertEquals("FILE:1: column 1 (i INT32): out of range: '2147483648'",
                csvError(ALL_TYPES, "2147483648,,,,,\n"));
        assertEquals("FILE:1: column 2 (l INT64): out of range: '9223372036854775808'",
                csvError(ALL_TYPES, ",9223372036854775808,,,,\n"));
        assertEquals("FILE:1: column 2 (l INT64): not an integer: ' 7'", csvError(ALL_TYPES, ", 7,,,,\n"));
        assertEquals("FILE:1: column 3 (d FLOAT64): not a number: '1.5d'", csvError(ALL_TYPES, ",,1.5d,,,\n"));
        assertEquals("FILE:1: column 4 (day DATE): not a date (yyyy-mm-dd): '2023-02-29'",
                csvError(ALL_TYPES, ",,,2023-02-29,,\n"));
        assertEquals("FILE:1: column 5 (b BOOLEAN): not a boolean: 'yes'", csvError(ALL_TYPES, ",,,,yes,\n"));
        assertEquals("FILE:1: column 1 (i INT32): not an integer: ''", csvError(ALL_TYPES, "\"\",,,,,\n"));
    }

    @Test
    void shouldRejectInvalidUtf8InVarchar() throws IOException {
        Path file = dir.resolve("bad.csv");
        Files.write(file, new byte[] {'1', ',', 'a', (byte) 0xC3, '(', ',', '1', '\n'});
        TroupeException e = assertThrows(TroupeException.class,
                () -> new DelimitedFileLoader(ORDERS, DelimitedFormat.csv()).load(file, "t"));
        assertEquals(file + ":1: column 2 (name VARCHAR): invalid UTF-8: 'a\uFFFD('", e.getMessage());
    }

    @Test
    void shouldRejectNullInANotNullColumn() throws IOException {
        assertEquals("FILE:2: column 1 (id INT32 NOT NULL): NULL in a NOT NULL column: ''",
                csvError(ORDERS, "1,a,1\n,b,2\n"));
        DelimitedFormat nullN = DelimitedFormat.csv().toBuilder().nullString("\\N").build();
        assertEquals("FILE:1: column 1 (id INT32 NOT NULL): NULL in a NOT NULL column: '\\N'",
                error(ORDERS, nullN, "\\N,b,2\n", "n.csv"));
    }

    @Test
    void shouldRejectRecordsWithTooFewOrTooManyFields() throws IOException {
        assertEquals("FILE:2: column 3 (amount DECIMAL(7,2)): missing; expected 3 fields, found 2: '2,b'",
                csvError(ORDERS, "1,a,1\n2,b\n"));
        assertEquals("FILE:2: expected 3 fields, found 4: '2,b,1,extra'", csvError(ORDERS, "1,a,1\n2,b,1,extra\n"));
        assertEquals("FILE:2: expected 3 fields, found 4: '2,b,1,\"extra\"'",
                csvError(ORDERS, "1,a,1\r\n2,b,1,\"extra\"\r\n"));
        assertEquals("FILE:3: column 2 (name VARCHAR): missing; expected 3 fields, found 1: ''",
                csvError(ORDERS, "1,a,1\n2,b,1\n\n"));
    }

    @Test
    void shouldRejectPipeRecordsWithoutTheTrailingDelimiterOrWithExtraFields() throws IOException {
        DelimitedFormat tpc = DelimitedFormat.tpc();
        assertEquals("FILE:2: expected '|' after the last field: '2|b|1.00'",
                error(ORDERS, tpc, "1|a|1.00|\n2|b|1.00\n", "o.tbl"));
        assertEquals("FILE:1: expected 3 fields, found 4: '1|a|1.00|x|'", error(ORDERS, tpc, "1|a|1.00|x|\n", "o.tbl"));
        assertEquals("FILE:1: column 3 (amount DECIMAL(7,2)): missing; expected 3 fields, found 2: '1|a|'",
                error(ORDERS, tpc, "1|a|\n", "o.tbl"));
    }

    @Test
    void shouldRejectAnUnterminatedQuote() throws IOException {
        assertEquals("FILE:2: column 2 (name VARCHAR): unterminated quote: '\"never closed,3\n3,c,4\n'",
                csvError(ORDERS, "1,a,1\n2,\"never closed,3\n3,c,4\n"));
    }

    @Test
    void shouldRejectTextAfterAClosingQuote() throws IOException {
        assertEquals("FILE:1: column 2 (name VARCHAR): text after the closing quote: '\"ab\"c,1'",
                csvError(ORDERS, "1,\"ab\"c,1\n"));
    }

    @Test
    void shouldCountTheHeaderAndQuotedLineBreaksInLineNumbers() throws IOException {
        DelimitedFormat header = DelimitedFormat.csv().toBuilder().header(true).build();
        assertEquals("FILE:4: column 1 (id INT32 NOT NULL): not an integer: 'x'",
                error(ORDERS, header, "id,\"the\nname\",amount\n1,a,1\nx,b,2\n", "h.csv"));
        assertEquals("FILE:5: column 3 (amount DECIMAL(7,2)): not a decimal: 'z'",
                csvError(ORDERS, "1,\"two\nlines\",1\n2,\"x\r\ny\",1\n3,c,z\n"));
    }

    @Test
    void shouldReportTheFirstBadLineWhateverKindOfErrorFollows() throws IOException {
        assertEquals("FILE:2: column 1 (id INT32 NOT NULL): not an integer: 'two'",
                csvError(ORDERS, "1,a,1\ntwo,b,2\n3,c\n"));
        assertEquals("FILE:2: column 3 (amount DECIMAL(7,2)): not a decimal: 'q'",
                csvError(ORDERS, "1,a,1\n2,b,q\n3,\"open\n"));
    }

    @Test
    void shouldFindErrorsPastTheFirstBatchAndChunk() throws IOException {
        int line = DelimitedFileLoader.BATCH_ROWS * 3 + 5;
        String text = "1,a,1\n".repeat(line - 1) + "1,a,1.001\n";
        DelimitedFormat small = DelimitedFormat.csv().toBuilder().chunkRows(1000).build();
        assertEquals("FILE:" + line + ": column 3 (amount DECIMAL(7,2)): more than 2 fractional digits: '1.001'",
                error(ORDERS, small, text, "big.csv"));
    }

    @Test
    void shouldBoundTheRecordAnUnterminatedQuoteCanGrowTo() throws IOException {
        byte[] text = new byte[RecordTokenizer.MAX_RECORD_BYTES + 10];
        java.util.Arrays.fill(text, (byte) 'x');
        text[0] = '1';
        text[1] = ',';
        text[2] = '"';
        TroupeException e = assertThrows(TroupeException.class, () -> new DelimitedFileLoader(ORDERS,
                DelimitedFormat.csv()).load(new ByteArrayInputStream(text), "huge.csv", "t", 1 << 16));
        assertEquals("huge.csv:1: record longer than 67108864 bytes (an unterminated quote?): '1,\"" + "x".repeat(77)
                + "...'", e.getMessage());
    }

    @Test
    void shouldNameAFileThatDoesNotExist() {
        Path missing = dir.resolve("missing.csv");
        TroupeException e = assertThrows(TroupeException.class,
                () -> new DelimitedFileLoader(ORDERS, DelimitedFormat.csv()).load(missing, "t"));
        assertEquals("cannot read " + missing + ": no such file", e.getMessage());
    }

    @Test
    void shouldLeaveTheCatalogAsItWasWhenALoadFails() throws IOException {
        Path bad = dir.resolve("bad.csv");
        Files.writeString(bad, "1,a,1\n".repeat(50_000) + "2,b,oops\n");
        Catalog catalog = new Catalog();
        DelimitedFileLoader loader = new DelimitedFileLoader(ORDERS,
                DelimitedFormat.csv().toBuilder().chunkRows(1000).build());

        assertThrows(TroupeException.class, () -> loader.loadInto(catalog, bad, "orders"));
        assertFalse(catalog.contains("orders"));

        Table before = Tables.fromColumns("orders", ORDERS, new int[] {1}, new String[] {"a"},
                new java.math.BigDecimal[] {java.math.BigDecimal.ONE});
        catalog.register(before);
        assertThrows(TroupeException.class, () -> loader.loadInto(catalog, bad, "orders"));
        assertSame(before, catalog.table("orders"));
    }

    @Test
    void shouldRejectFormatsThatCannotWork() {
        assertEquals("quote and delimiter must differ: ','",
                assertThrows(IllegalArgumentException.class,
                        () -> DelimitedFormat.builder().quote(',').build()).getMessage());
        assertEquals("delimiter must be one ASCII character other than a line break: code=10",
                assertThrows(IllegalArgumentException.class,
                        () -> DelimitedFormat.builder().delimiter('\n').build()).getMessage());
        assertEquals("chunkRows must be positive: 0",
                assertThrows(IllegalArgumentException.class,
                        () -> DelimitedFormat.builder().chunkRows(0).build()).getMessage());
        assertEquals("nullString must not hold the delimiter, the quote or a line break: 'a,b'",
                assertThrows(IllegalArgumentException.class,
                        () -> DelimitedFormat.builder().nullString("a,b").build()).getMessage());
    }
}
