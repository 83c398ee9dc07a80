package io.troupe.operators.table;

import io.troupe.config.TroupeSettings;
import io.troupe.actors.api.Troupe;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.troupe.operators.plan.Expr.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Round trips through files in both dialects, checked value by value against what was written and,
 * as multisets of rows, against DuckDB's own reader of the same file.
 */
class DelimitedFileLoaderTest {

    static final Schema SCHEMA = Schema.of(
            Field.of("id", DataType.INT32).withNullable(false),
            Field.of("big", DataType.INT64),
            Field.of("price", DataType.decimal(7, 2)),
            Field.of("ratio", DataType.FLOAT64),
            Field.of("day", DataType.DATE),
            Field.of("flag", DataType.BOOLEAN),
            Field.of("name", DataType.VARCHAR));

    private static final String DUCKDB_COLUMNS = "{'id': 'INTEGER', 'big': 'BIGINT', 'price': 'DECIMAL(7,2)', "
            + "'ratio': 'DOUBLE', 'day': 'DATE', 'flag': 'BOOLEAN', 'name': 'VARCHAR'}";

    /** Strings a CSV must quote, or that test UTF-8 and spaces. */
    private static final String[] TRICKY = {
        "a,b", "say \"hi\"", "two\nlines", "crlf\r\ninside", "\"", ",", "", " padded ", "é日本\uD83D\uDE00",
        "tab\there", "x\"\"y", "\"quoted start", "ends with quote\"",
    };

    @TempDir
    Path dir;

    // ------------------------------------------------------------------------------------------
    // Generated data

    /** Random rows of {@link #SCHEMA}; VARCHARs without the characters '|' files cannot carry when {@code csv} is false. */
    static List<List<Object>> randomRows(int count, long seed, boolean csv) {
        Random random = new Random(seed);
        List<List<Object>> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Object big = switch (random.nextInt(5)) {
                case 0 -> Long.MAX_VALUE;
                case 1 -> Long.MIN_VALUE;
                default -> random.nextLong() >> random.nextInt(63);
            };
            BigDecimal price = BigDecimal.valueOf(random.nextInt(19_999_999) - 9_999_999, 2);
            double ratio = switch (random.nextInt(3)) {
                case 0 -> random.nextDouble() * 1000;
                case 1 -> random.nextGaussian() * 1e-9;
                default -> Math.round(random.nextGaussian() * 1e6) / 100.0;
            };
            LocalDate day = LocalDate.ofEpochDay(random.nextInt(700_000) - 350_000);
            String name;
            if (csv && random.nextInt(3) == 0) {
                name = TRICKY[random.nextInt(TRICKY.length)];
            } else {
                name = "name-" + random.nextInt(1000) + (random.nextBoolean() ? " é" : "");
            }
            List<Object> row = Arrays.asList(i, big, price, ratio == 0.0 ? 1.0 : ratio, day, random.nextBoolean(), name);
            for (int c = 1; c < row.size(); c++) {
                if (random.nextInt(10) == 0) {
                    row.set(c, null);
                }
            }
            rows.add(row);
        }
        return rows;
    }

    /**
     * The rows as CSV: NULL is an empty field, strings are quoted when they must be (the empty one
     * too) and sometimes when they need not. {@code lineEnd} null mixes \n and \r\n (which DuckDB's
     * strict mode rejects, so the files it reads get one kind).
     */
    static String toCsv(List<List<Object>> rows, boolean header, Random spelling, String lineEnd) {
        StringBuilder sb = new StringBuilder();
        if (header) {
            sb.append("id,big,price,ratio,day,flag,\"the, name\"\n");
        }
        for (List<Object> row : rows) {
            for (int c = 0; c < row.size(); c++) {
                if (c > 0) {
                    sb.append(',');
                }
                Object v = row.get(c);
                if (v instanceof String s) {
                    boolean quote = s.isEmpty() || s.contains(",") || s.contains("\"") || s.contains("\n")
                            || s.contains("\r") || spelling.nextInt(4) == 0;
                    sb.append(quote ? "\"" + s.replace("\"", "\"\"") + "\"" : s);
                } else if (v != null) {
                    sb.append(render(v, spelling));
                }
            }
            sb.append(lineEnd != null ? lineEnd : spelling.nextInt(5) == 0 ? "\r\n" : "\n");
        }
        return sb.toString();
    }

    /** The rows as dbgen writes them: '|' after every field, NULL as nothing. */
    static String toPipe(List<List<Object>> rows, Random spelling) {
        StringBuilder sb = new StringBuilder();
        for (List<Object> row : rows) {
            for (Object v : row) {
                if (v != null) {
                    sb.append(v instanceof String s ? s : render(v, spelling));
                }
                sb.append('|');
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** A value's text, in one of the spellings both readers accept. */
    private static String render(Object v, Random spelling) {
        if (v instanceof Boolean b) {
            String[] spellings = b ? new String[] {"true", "TRUE", "t", "1"} : new String[] {"false", "False", "f", "0"};
            return spellings[spelling.nextInt(spellings.length)];
        }
        if (v instanceof BigDecimal d) {
            return spelling.nextBoolean() ? d.toPlainString() : d.stripTrailingZeros().toPlainString();
        }
        return v.toString();
    }

    // ------------------------------------------------------------------------------------------
    // Reading back

    static List<List<Object>> rowsOf(Table table) {
        List<List<Object>> rows = new ArrayList<>();
        for (Batch b : table.chunks()) {
            for (int i = 0; i < b.size(); i++) {
                rows.add(Arrays.asList(b.rowObjects(i)));
            }
        }
        return rows;
    }

    /** The file as DuckDB's read_csv reads it, with our schema's Java types. */
    static List<List<Object>> duckdbRows(String readCsv) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Connection conn = DriverManager.getConnection("jdbc:duckdb:");
             Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT * FROM " + readCsv)) {
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                row.add(rs.getInt(1));
                long big = rs.getLong(2);
                row.add(rs.wasNull() ? null : big);
                BigDecimal price = rs.getBigDecimal(3);
                row.add(price == null ? null : price.setScale(2));
                double ratio = rs.getDouble(4);
                row.add(rs.wasNull() ? null : ratio);
                row.add(rs.getObject(5, LocalDate.class));
                boolean flag = rs.getBoolean(6);
                row.add(rs.wasNull() ? null : flag);
                row.add(rs.getString(7));
                rows.add(row);
            }
        }
        return rows;
    }

    static Map<List<Object>, Integer> multiset(List<List<Object>> rows) {
        Map<List<Object>, Integer> counts = new HashMap<>();
        for (List<Object> row : rows) {
            counts.merge(row, 1, Integer::sum);
        }
        return counts;
    }

    private Path write(String fileName, String text) throws IOException {
        Path file = dir.resolve(fileName);
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    // ------------------------------------------------------------------------------------------
    // Tests

    @Test
    void shouldRoundTripCsvAndAgreeWithDuckDb() throws Exception {
        List<List<Object>> expected = randomRows(5_000, 1, true);
        Path file = write("rows.csv", toCsv(expected, false, new Random(2), "\r\n"));

        Table table = new DelimitedFileLoader(SCHEMA, DelimitedFormat.csv()).load(file, "rows");

        assertEquals("rows", table.name());
        assertEquals(expected, rowsOf(table));
        List<List<Object>> duck = duckdbRows("read_csv('" + file + "', delim=',', quote='\"', escape='\"', "
                + "header=false, allow_quoted_nulls=false, auto_detect=false, columns=" + DUCKDB_COLUMNS + ")");
        assertEquals(multiset(duck), multiset(rowsOf(table)));
    }

    @Test
    void shouldRoundTripCsvWithHeader() throws Exception {
        List<List<Object>> expected = randomRows(700, 3, true);
        Path file = write("rows.csv", toCsv(expected, true, new Random(4), "\n"));
        DelimitedFormat format = DelimitedFormat.csv().toBuilder().header(true).build();

        Table table = new DelimitedFileLoader(SCHEMA, format).load(file, "rows");

        assertEquals(expected, rowsOf(table));
        List<List<Object>> duck = duckdbRows("read_csv('" + file + "', delim=',', quote='\"', escape='\"', "
                + "header=true, allow_quoted_nulls=false, auto_detect=false, columns=" + DUCKDB_COLUMNS + ")");
        assertEquals(multiset(duck), multiset(rowsOf(table)));
    }

    @Test
    void shouldRoundTripTpcPipeFilesAndAgreeWithDuckDb() throws Exception {
        List<List<Object>> expected = randomRows(5_000, 5, false);
        Path file = write("rows.tbl", toPipe(expected, new Random(6)));

        Table table = new DelimitedFileLoader(SCHEMA, DelimitedFormat.tpc()).load(file, "rows");

        assertEquals(expected, rowsOf(table));
        List<List<Object>> duck = duckdbRows("read_csv('" + file + "', delim='|', quote='', escape='', "
                + "header=false, auto_detect=false, columns=" + DUCKDB_COLUMNS + ")");
        assertEquals(multiset(duck), multiset(rowsOf(table)));
    }

    @Test
    void shouldReadTheSameTableWhateverTheBufferSize() throws Exception {
        List<List<Object>> expected = randomRows(300, 7, true);
        byte[] csv = toCsv(expected, true, new Random(8), null).getBytes(StandardCharsets.UTF_8);
        DelimitedFileLoader loader = new DelimitedFileLoader(SCHEMA,
                DelimitedFormat.csv().toBuilder().header(true).chunkRows(64).build());
        List<List<Object>> plain = randomRows(300, 9, false);
        byte[] pipe = toPipe(plain, new Random(10)).getBytes(StandardCharsets.UTF_8);
        DelimitedFileLoader tpc = new DelimitedFileLoader(SCHEMA, DelimitedFormat.tpc().toBuilder().chunkRows(64).build());
        for (int bufferBytes : new int[] {1, 2, 3, 7, 16, 61, 256, 4096}) {
            Table table = loader.load(new ByteArrayInputStream(csv), "mem.csv", "t", bufferBytes);
            assertEquals(expected, rowsOf(table), "bufferBytes=" + bufferBytes);
            assertEquals(plain, rowsOf(tpc.load(new ByteArrayInputStream(pipe), "mem.tbl", "t", bufferBytes)),
                    "bufferBytes=" + bufferBytes);
        }
    }

    @Test
    void shouldCutTheTableIntoChunksOfTheAskedSize() throws Exception {
        Schema schema = Schema.of(Field.of("i", DataType.INT32));
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 2_500; i++) {
            text.append(i).append('\n');
        }
        Path file = write("ints.csv", text.toString());

        Table table = new DelimitedFileLoader(schema, DelimitedFormat.csv().toBuilder().chunkRows(1_000).build())
                .load(file, "ints");

        assertEquals(List.of(1_000, 1_000, 500), table.chunks().stream().map(Batch::size).toList());
        assertEquals(2_500L, table.rowCount());
        assertEquals(2_499, rowsOf(table).get(2_499).get(0));
    }

    @Test
    void shouldReadQuotedDelimitersQuotesAndLineBreaks() throws Exception {
        Schema schema = Schema.of(Field.of("a", DataType.VARCHAR), Field.of("b", DataType.INT32));
        Path file = write("q.csv", "\"x,y\",1\n\"say \"\"hi\"\"\",2\n\"two\nlines\",3\r\n\"\",4\n,5\n\"\"\"\",\"6\"\n"
                + "mid\"quote,7\n\"crlf\r\nin\",8");

        Table table = new DelimitedFileLoader(schema, DelimitedFormat.csv()).load(file, "q");

        assertEquals(List.of(List.of("x,y", 1), List.of("say \"hi\"", 2), List.of("two\nlines", 3), List.of("", 4),
                Arrays.asList(null, 5), List.of("\"", 6), List.of("mid\"quote", 7), List.of("crlf\r\nin", 8)),
                rowsOf(table));
    }

    @Test
    void shouldLoadAnEmptyFileAndAHeaderOnlyFileAsEmptyTables() throws Exception {
        Path empty = write("empty.csv", "");
        Path headerOnly = write("header.csv", "id,big,price,ratio,day,flag,name\n");
        Path headerNoNewline = write("header2.csv", "id,big,price,ratio,day,flag,name");

        Table e = new DelimitedFileLoader(SCHEMA, DelimitedFormat.csv()).load(empty, "e");
        DelimitedFileLoader withHeader = new DelimitedFileLoader(SCHEMA,
                DelimitedFormat.csv().toBuilder().header(true).build());

        assertEquals(0, e.rowCount());
        assertEquals(List.of(), e.chunks());
        assertEquals(SCHEMA, e.schema());
        assertEquals(0, withHeader.load(empty, "h").rowCount());
        assertEquals(0, withHeader.load(headerOnly, "h").rowCount());
        assertEquals(0, withHeader.load(headerNoNewline, "h").rowCount());
        assertEquals(0, new DelimitedFileLoader(SCHEMA, DelimitedFormat.tpc()).load(empty, "p").rowCount());
    }

    @Test
    void shouldReadNullsInEveryType() throws Exception {
        Path pipe = write("nulls.tbl", "1|||||| |\n2|3|4.5|0.25|2024-02-29|t|x|\n");
        Path csv = write("nulls.csv", "1,,,,,,\n");

        List<List<Object>> rows = rowsOf(new DelimitedFileLoader(SCHEMA, DelimitedFormat.tpc()).load(pipe, "p"));
        List<List<Object>> csvRows = rowsOf(new DelimitedFileLoader(SCHEMA, DelimitedFormat.csv()).load(csv, "c"));

        // the trailing '|' ends line 1, whose last field is the text " " (only the empty text is NULL)
        assertEquals(Arrays.asList(1, null, null, null, null, null, " "), rows.get(0));
        assertEquals(List.of(2, 3L, new BigDecimal("4.50"), 0.25, LocalDate.of(2024, 2, 29), true, "x"), rows.get(1));
        assertEquals(Arrays.asList(1, null, null, null, null, null, null), csvRows.get(0));
    }

    @Test
    void shouldTakeAChosenNullStringAndKeepEmptyTextThen() throws Exception {
        Schema schema = Schema.of(Field.of("s", DataType.VARCHAR), Field.of("i", DataType.INT64));
        Path file = write("n.csv", "\\N,\\N\n,1\n\"\\N\",2\n");
        DelimitedFormat format = DelimitedFormat.csv().toBuilder().nullString("\\N").build();

        List<List<Object>> rows = rowsOf(new DelimitedFileLoader(schema, format).load(file, "n"));

        assertEquals(List.of(Arrays.asList(null, null), List.of("", 1L), List.of("\\N", 2L)), rows);
    }

    @Test
    void shouldTakeOtherDelimitersAndNoTrailingDelimiter() throws Exception {
        Schema schema = Schema.of(Field.of("a", DataType.INT32), Field.of("b", DataType.VARCHAR));
        Path file = write("t.tsv", "1\tx y\n2\t'q'\n");
        DelimitedFormat tsv = DelimitedFormat.builder().delimiter('\t').quote('\'').build();

        assertEquals(List.of(List.of(1, "x y"), List.of(2, "q")),
                rowsOf(new DelimitedFileLoader(schema, tsv).load(file, "t")));
    }

    @Test
    void shouldServeALoadedFileToQueries() throws Exception {
        List<List<Object>> rows = randomRows(2_000, 9, false);
        Path file = write("q.tbl", toPipe(rows, new Random(10)));
        List<List<Object>> expected = new ArrayList<>();
        for (List<Object> row : rows.subList(100, 1_600)) {
            expected.add(Arrays.asList(row.get(6), row.get(4), row.get(2), row.get(0)));
        }

        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0))) {
            new DelimitedFileLoader(SCHEMA, DelimitedFormat.tpc().toBuilder().chunkRows(500).build())
                    .loadInto(troupe.catalog(), file, "q");
            QueryResult r = troupe.execute(Plan.scan("q").project(col("name"), col("day"), col("price"), col("q.id"))
                    .limit(1_500, 100));

            assertEquals(expected, r.rows());
        }
    }

    @Test
    void shouldSkipAByteOrderMarkAndTakeALastCarriageReturn() throws Exception {
        Schema schema = Schema.of(Field.of("a", DataType.INT32), Field.of("b", DataType.VARCHAR));
        Path file = dir.resolve("bom.csv");
        Files.write(file, "\uFEFF1,\"x\"\r\n2,\"y\"\r".getBytes(StandardCharsets.UTF_8));

        List<List<Object>> rows = rowsOf(new DelimitedFileLoader(schema, DelimitedFormat.csv()).load(file, "b"));

        assertEquals(List.of(List.of(1, "x"), List.of(2, "y")), rows);
    }

    @Test
    void shouldRegisterInTheCatalogOnlyAfterLoading() throws Exception {
        Path file = write("ok.csv", "1,2,3.00,4.5,2020-01-01,true,x\n");
        Catalog catalog = new Catalog();

        Table t = new DelimitedFileLoader(SCHEMA, DelimitedFormat.csv()).loadInto(catalog, file, "Orders");

        assertTrue(catalog.contains("orders"));
        assertEquals(t, catalog.table("ORDERS"));
    }
}
