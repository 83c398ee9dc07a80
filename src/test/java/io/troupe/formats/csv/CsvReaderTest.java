package io.troupe.formats.csv;

import io.troupe.operators.TroupeException;
import io.troupe.operators.table.DelimitedFormat;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.DataType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CSV files of the shapes that DuckDB's sniffer has rules for (a header over numbers, text over text, a single
 * row, notes above the table, non-ISO and ambiguous dates, AM/PM timestamps, leading zeros, a column of NULLs
 * first, a TIMESTAMP column that meets an offset or a number, duplicate and empty names, eleven columns without a
 * header), each detected and loaded as DuckDB's read_csv does in the same JVM; every option overriding what was
 * detected, against DuckDB given the same option; and the errors: a value that contradicts its detected type
 * (failing with file, line, column and value, or widening), a ragged row, an empty file, a missing one.
 */
class CsvReaderTest extends DuckDbCsvTest {

    private static final Map<String, String> SHAPES = Map.ofEntries(
            Map.entry("mixed", "a,b,c,d,e\n1,1.5,true,2015-01-01,2015/01/01 01:00:00\n2,2.5,false,2015-01-02,"
                    + "2015/01/02 13:00:00\n"),
            Map.entry("us_dates", "f,g\n01/31/2015,x\n02/28/2015,y\n"),
            Map.entry("ambiguous_dates", "f\n01/02/2015\n03/04/2015\n"),
            Map.entry("dotted_dates", "a\n31.01.2015\n28.02.2015\n"),
            Map.entry("am_pm", "a\n01-31-2015 01:02:03 PM\n12-31-2015 11:02:03 AM\n"),
            Map.entry("leading_zeros", "a,b,c\n1,007,x\n0,10,y\n"),
            Map.entry("timestamp_then_date", "a\n2015-01-01 10:00:00\n2015-01-02\n"),
            Map.entry("date_then_timestamp", "a\n2015-01-01\n2015-01-02 10:00:00\n"),
            Map.entry("timestamp_then_number", "a\n2015-01-01 10:00:00\n5\n"),
            Map.entry("timestamp_then_offset", "a\n2015-01-01 10:00:00+00\n2015-01-01 10:00:00+02\n"),
            Map.entry("numbers", "a,b\n1.5,1\n2,99999999999999999999999\n1e3,3\n"),
            Map.entry("text_only", "x,y\nz,w\n"),
            Map.entry("single_row", "1,2\n"),
            Map.entry("nulls_first", "a,b,c\n,1,\n5,2,\n,3,2015-01-01\n7,4,9\n"),
            Map.entry("names", " a ,a,,b\n1,2,3,4\n"),
            Map.entry("no_header", "1,x,2015-01-01\n2,y,2015-01-02\n"),
            Map.entry("notes_above", "Report of 2015\nid;name\n1;x\n2;y\n"),
            Map.entry("booleans", "a,b\nTrue,F\nfalse,T\n"),
            Map.entry("quoted", "a;b\n\"x;1\";\"he said \"\"hi\"\"\"\n\"line\nbreak\";z\n"),
            Map.entry("single_quotes", "a|b\n'x|1'|2\n'y'|3\n"),
            Map.entry("crlf", "a,b\r\n1,2\r\n3,4\r\n"),
            Map.entry("blank_lines", "a,b\n1,x\n\n2,y\n\n\n3,z\n\n"),
            Map.entry("tabs", "a\tb\n1\tx y\n2\tz\n"),
            Map.entry("wide", IntStream.range(0, 11).mapToObj(i -> "" + i).collect(Collectors.joining(",")) + "\n"
                    + IntStream.range(0, 11).mapToObj(i -> "" + i * 7).collect(Collectors.joining(",")) + "\n"));

    @Test
    void shouldDetectTheShapesOfDuckDbsRulesAsDuckDbDoes(@TempDir Path dir) throws Exception {
        for (Map.Entry<String, String> shape : SHAPES.entrySet()) {
            Path file = write(dir, shape.getKey() + ".csv", shape.getValue());
            Table table = CsvReader.read(file, shape.getKey(), CsvOptions.detect());
            CsvFiles.assertSameAsDuckDb(duck, file, CsvSnifferVersusDuckDbTest.POSTGRES_NULLS, table,
                    shape.getKey() + ":\n" + shape.getValue());
        }
    }

    @Test
    void shouldLetEveryOptionOverrideWhatIsDetected(@TempDir Path dir) throws Exception {
        Path semi = write(dir, "semi.csv", "a;b,c\n1;2,3\n4;5,6\n");
        assertOverride(semi, CsvOptions.detect().withDelimiter(';'), "delim = ';'");
        assertOverride(semi, CsvOptions.detect().withDelimiter(',').withHeader(false), "delim = ',', header = false");
        Path quoted = write(dir, "quoted.csv", "a,b\n'x,1',2\n'y',3\n");
        assertOverride(quoted, CsvOptions.detect().withQuote('\''), "quote = ''''");
        assertOverride(quoted, CsvOptions.detect().withQuote(DelimitedFormat.NO_QUOTE).withDelimiter('|'),
                "quote = '', delim = '|'");
        Path typed = write(dir, "typed.csv", "id,zip,day,at\n1,01234,02/01/2015,31.01.2015 13:00\n"
                + "2,99999,03/04/2015,28.02.2015 01:30\n");
        assertOverride(typed, CsvOptions.detect().withType("zip", DataType.VARCHAR).withType("ID", DataType.FLOAT64),
                "types = {'zip': 'VARCHAR', 'id': 'DOUBLE'}");
        assertOverride(typed, CsvOptions.detect().withDateFormat("%d/%m/%Y").withTimestampFormat("%d.%m.%Y %H:%M"),
                "dateformat = '%d/%m/%Y', timestampformat = '%d.%m.%Y %H:%M'");
        Path na = write(dir, "na.csv", "a,b\n1,NA\nNA,2\n3,\n");
        assertOverride(na, CsvOptions.detect().withNullString("NA"), "nullstr = 'NA'");
        assertOverride(na, CsvOptions.detect().withHeader(true), "header = true");
    }

    @Test
    void shouldFailAtAValueThatContradictsItsTypeOrWidenTheColumn(@TempDir Path dir) throws Exception {
        String rows = IntStream.range(0, 100).mapToObj(i -> i + "," + i).collect(Collectors.joining("\n"));
        Path late = write(dir, "late.csv", "a,b\n" + rows + "\n7,oops\n8,2.5\n");
        TroupeException failed = assertThrows(TroupeException.class,
                () -> CsvReader.read(late, "late", CsvOptions.detect().withSampleRows(50)));
        assertEquals(late + ":102: column 2 (b INT64): not an integer: 'oops'", failed.getMessage());

        Table widened = CsvReader.read(late, "late", CsvOptions.detect().withSampleRows(50)
                .withOnBadValue(CsvOptions.OnBadValue.WIDEN));
        assertEquals(List.of("a BIGINT", "b VARCHAR"), CsvFiles.columns(widened));
        CsvFiles.assertSameAsDuckDb(duck, late, "sample_size = -1", widened, "widened");

        Path decimal = write(dir, "decimal.csv", "a\n" + IntStream.range(0, 100).mapToObj(Integer::toString)
                .collect(Collectors.joining("\n")) + "\n2.5\n");
        Table doubled = CsvReader.read(decimal, "decimal", CsvOptions.detect().withSampleRows(10)
                .withOnBadValue(CsvOptions.OnBadValue.WIDEN));
        assertEquals(List.of("a DOUBLE"), CsvFiles.columns(doubled));
        CsvFiles.assertSameAsDuckDb(duck, decimal, "sample_size = -1", doubled, "widened to DOUBLE");

        TroupeException fixed = assertThrows(TroupeException.class, () -> CsvReader.read(late, "late",
                CsvOptions.detect().withType("b", DataType.INT64).withOnBadValue(CsvOptions.OnBadValue.WIDEN)));
        assertTrue(fixed.getMessage().startsWith(late + ":102: column 2 (b INT64)"), fixed.getMessage());
    }

    @Test
    void shouldNameTheFileAndLineOfABadFile(@TempDir Path dir) throws Exception {
        Path ragged = write(dir, "ragged.csv", "a,b\n1,2\n3\n4,5\n");
        TroupeException shortRow = assertThrows(TroupeException.class,
                () -> CsvReader.read(ragged, "r", CsvOptions.detect().withDelimiter(',')));
        assertEquals(ragged + ":3: expected 2 fields (delimiter ','), found 1", shortRow.getMessage());
        Path late = write(dir, "late.csv", "a,b\n" + "1,2\n".repeat(100) + "3,4,5\n");
        TroupeException longRow = assertThrows(TroupeException.class,
                () -> CsvReader.read(late, "r", CsvOptions.detect().withSampleRows(10)));
        assertEquals(late + ":102: expected 2 fields, found 3: '3,4,5'", longRow.getMessage());
        Path unclosed = write(dir, "unclosed.csv", "a,b\n1,\"x\n");
        TroupeException quote = assertThrows(TroupeException.class,
                () -> CsvReader.read(unclosed, "u", CsvOptions.detect().withDelimiter(',').withQuote('"')));
        assertTrue(quote.getMessage().startsWith(unclosed.toString()), quote.getMessage());

        Path empty = write(dir, "empty.csv", "");
        assertEquals(empty + ": empty file: no columns to detect", assertThrows(TroupeException.class,
                () -> CsvReader.read(empty, "e", CsvOptions.detect())).getMessage());
        Path missing = dir.resolve("missing.csv");
        assertEquals("cannot read " + missing + ": no such file", assertThrows(TroupeException.class,
                () -> CsvReader.read(missing, "m", CsvOptions.detect())).getMessage());

        Path ok = write(dir, "ok.csv", "a,b\n1,2\n");
        IllegalArgumentException column = assertThrows(IllegalArgumentException.class,
                () -> CsvReader.read(ok, "ok", CsvOptions.detect().withType("c", DataType.INT64)));
        assertEquals(ok + ": a type is set for column 'c', which the file does not have (its columns: a, b)",
                column.getMessage());
        IllegalArgumentException format = assertThrows(IllegalArgumentException.class,
                () -> CsvReader.read(ok, "ok", CsvOptions.detect().withDateFormat("%Q")));
        assertTrue(format.getMessage().startsWith("date format '%Q': "), format.getMessage());
    }

    private static void assertOverride(Path file, CsvOptions options, String duckOptions) throws Exception {
        Table table = CsvReader.read(file, "t", options);
        CsvFiles.assertSameAsDuckDb(duck, file, CsvSnifferVersusDuckDbTest.POSTGRES_NULLS + ", " + duckOptions, table,
                file + " with " + duckOptions);
    }

    private static Path write(Path dir, String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }
}
