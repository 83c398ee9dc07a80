package io.troupe.formats.parquet;

import io.troupe.operators.TroupeException;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Parquet files that DuckDB writes, loaded by {@link ParquetFiles}, against what DuckDB reads back from the same
 * file in the same JVM: a random table of every mapped type (NULLs, each type's extremes, dictionary-friendly
 * columns, several row groups) under each codec and in data pages v2 (DELTA and BYTE_STREAM_SPLIT encodings), with
 * Hadoop not loadable; a projection; and the errors (a truncated file, one that is not Parquet, a missing path, a
 * corrupt page, a BROTLI page, a column with no Troupe type), each naming the file and the column or row
 * group.
 *
 * <p>Where the types differ, DuckDB's side is cast to what Troupe reads: an unsigned BIGINT to DECIMAL(20,0),
 * TIMESTAMP_MS and TIMESTAMP_NS to TIMESTAMP (Troupe keeps microseconds), ENUM and JSON to VARCHAR.
 */
class ParquetFilesTest {

    /** Each column: DuckDB's expression for row {@code i} (random, with NULLs and extremes), and Troupe's type. */
    private static final Map<String, Column> COLUMNS = new LinkedHashMap<>();

    private record Column(String duckExpression, DataType troupe, String duckReadBack) {
    }

    private static void column(String name, String randomValue, String min, String max, DataType troupe) {
        column(name, randomValue, min, max, troupe, name);
    }

    private static void column(String name, String randomValue, String min, String max, DataType troupe,
                               String readBack) {
        String expression = "CASE WHEN random() < 0.1 THEN NULL WHEN i % 53 = 1 THEN " + min
                + " WHEN i % 53 = 2 THEN " + max + " ELSE " + randomValue + " END";
        COLUMNS.put(name, new Column(expression, troupe, readBack));
    }

    static {
        column("t8", "floor(random() * 256 - 128)::TINYINT", "(-128)::TINYINT", "127::TINYINT", DataType.INT8);
        column("s16", "floor(random() * 65536 - 32768)::SMALLINT", "(-32768)::SMALLINT", "32767::SMALLINT", DataType.INT16);
        column("i32", "floor(random() * 4294967296 - 2147483648)::INTEGER", "(-2147483648)::INTEGER", "2147483647::INTEGER",
                DataType.INT32);
        column("i64", "(random() * 1.8e19 - 9e18)::BIGINT", "(-9223372036854775808)::BIGINT",
                "9223372036854775807::BIGINT", DataType.INT64);
        column("u8", "floor(random() * 256)::UTINYINT", "0::UTINYINT", "255::UTINYINT", DataType.INT16);
        column("u16", "floor(random() * 65536)::USMALLINT", "0::USMALLINT", "65535::USMALLINT", DataType.INT32);
        column("u32", "floor(random() * 4294967296)::UINTEGER", "0::UINTEGER", "4294967295::UINTEGER", DataType.INT64);
        column("u64", "(random() * 1.8e19)::UBIGINT", "0::UBIGINT", "18446744073709551615::UBIGINT",
                DataType.decimal(20, 0), "u64::DECIMAL(20,0)");
        column("b", "random() < 0.5", "false", "true", DataType.BOOLEAN);
        column("f", "(random() * 2e6 - 1e6)::REAL", "'-inf'::REAL", "3.4028235e38::REAL", DataType.FLOAT32);
        column("d", "random() * 2e12 - 1e12", "'-inf'::DOUBLE", "'nan'::DOUBLE", DataType.FLOAT64);
        column("dec4", "(random() * 199.98 - 99.99)::DECIMAL(4,2)", "(-99.99)::DECIMAL(4,2)", "99.99::DECIMAL(4,2)", DataType.decimal(4, 2));
        column("dec18", "(random() * 2e11 - 1e11)::DECIMAL(18,6)", "(-999999999999.999999)::DECIMAL(18,6)", "999999999999.999999::DECIMAL(18,6)",
                DataType.decimal(18, 6));
        column("dec25", "((random() * 2e24 - 1e24)::HUGEINT)::DECIMAL(25,0)", "(-9999999999999999999999999)::DECIMAL(25,0)",
                "9999999999999999999999999::DECIMAL(25,0)", DataType.decimal(25, 0));
        column("dec38", "(random() * 2e27 - 1e27)::DECIMAL(38,10)",
                "-9999999999999999999999999999.9999999999", "9999999999999999999999999999.9999999999",
                DataType.decimal(38, 10));
        column("s", "repeat(chr(32 + (random() * 1000)::INTEGER), (random() * 12)::INTEGER) || 'é漢'",
                "''", "'🦆 duck'", DataType.VARCHAR);
        column("dict", "['red', 'green', 'blue', 'yellow'][1 + floor(random() * 4)::INTEGER]", "'red'", "'blue'",
                DataType.VARCHAR);
        column("dictnum", "(random() * 5)::INTEGER * 1000", "0", "5000", DataType.INT32);
        column("dt", "DATE '2000-01-01' + (random() * 20000 - 10000)::INTEGER", "DATE '0001-01-01'",
                "DATE '9999-12-31'", DataType.DATE);
        column("tm", "TIME '00:00:00' + to_microseconds((random() * 86399999999)::BIGINT)", "TIME '00:00:00'",
                "TIME '23:59:59.999999'", DataType.TIME, "tm::TIME");
        column("ts", "TIMESTAMP '2000-01-01' + to_microseconds((random() * 2e15 - 1e15)::BIGINT)",
                "TIMESTAMP '0001-01-01 00:00:00'", "TIMESTAMP '9999-12-31 23:59:59.999999'", DataType.TIMESTAMP);
        column("tstz", "TIMESTAMPTZ '2000-01-01 00:00:00+00' + to_microseconds((random() * 2e15 - 1e15)::BIGINT)",
                "TIMESTAMPTZ '0001-01-01 00:00:00+00'", "TIMESTAMPTZ '9999-12-31 23:59:59.999999+00'",
                DataType.TIMESTAMP_TZ);
        column("tsms", "(TIMESTAMP '2000-01-01' + to_microseconds((random() * 2e15 - 1e15)::BIGINT))::TIMESTAMP_MS",
                "TIMESTAMP_MS '1000-01-01 00:00:00'", "TIMESTAMP_MS '9999-12-31 23:59:59.999'", DataType.TIMESTAMP,
                "tsms::TIMESTAMP");
        column("tsns", "(TIMESTAMP '2000-01-01' + to_microseconds((random() * 2e15 - 1e15)::BIGINT))::TIMESTAMP_NS",
                "TIMESTAMP_NS '1700-01-01 00:00:00.000000001'", "TIMESTAMP_NS '2200-12-31 23:59:59.999999999'",
                DataType.TIMESTAMP, "tsns::TIMESTAMP");
        column("iv", "to_months(floor(random() * 1200)::INTEGER) + to_days(floor(random() * 400)::INTEGER)"
                + " + to_milliseconds(floor(random() * 86400000)::BIGINT)", "INTERVAL '0 seconds'",
                "INTERVAL '2147483647 months 2147483647 days 23:59:59.999'",
                DataType.INTERVAL);
        column("e", "(['x', 'y', 'z'][1 + floor(random() * 3)::INTEGER])::ENUM('x', 'y', 'z')",
                "'x'::ENUM('x', 'y', 'z')", "'z'::ENUM('x', 'y', 'z')", DataType.VARCHAR, "e::VARCHAR");
        column("j", "json_object('k', i)", "'[]'::JSON", "'{\"a\": [1, 2]}'::JSON", DataType.VARCHAR, "j::VARCHAR");
        column("blob", "encode('b' || i)", "''::BLOB", "'\\xFF\\x00\\xFE'::BLOB", DataType.BLOB);
        column("id", "uuid()", "'00000000-0000-0000-0000-000000000000'::UUID",
                "'ffffffff-ffff-ffff-ffff-ffffffffffff'::UUID", DataType.UUID);
    }

    private static DuckDbOracle duck;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        duck.execute("SELECT setseed(0.27)");
    }

    @AfterAll
    static void close() throws Exception {
        duck.close();
    }

    /** Writes a random table of {@code rows} rows of every column to {@code file}. */
    private static void write(Path file, int rows, String codec, int rowGroupRows) throws Exception {
        StringBuilder select = new StringBuilder("SELECT i");
        COLUMNS.forEach((name, c) -> select.append(", ").append(c.duckExpression).append(" AS ").append(name));
        select.append(" FROM range(").append(rows).append(") AS r(i)");
        duck.execute("COPY (" + select + ") TO '" + file + "' (FORMAT parquet, COMPRESSION " + codec
                + ", ROW_GROUP_SIZE " + rowGroupRows + ")");
    }

    private static List<List<Object>> rows(Table table) {
        List<List<Object>> rows = new ArrayList<>();
        for (Batch chunk : table.chunks()) {
            for (int r = 0; r < chunk.size(); r++) {
                rows.add(Arrays.asList(chunk.rowObjects(r)));
            }
        }
        return DuckDbOracle.normalise(rows);
    }

    private static List<List<Object>> duckRows(Path file, List<String> columns) throws Exception {
        List<String> readBack = columns.stream().map(c -> c.equals("i") ? "i" : COLUMNS.get(c).duckReadBack).toList();
        return duck.query("SELECT " + String.join(", ", readBack) + " FROM '" + file + "'").rows();
    }

    private static List<String> allColumns() {
        List<String> all = new ArrayList<>(List.of("i"));
        all.addAll(COLUMNS.keySet());
        return all;
    }

    @ParameterizedTest
    @ValueSource(strings = {"uncompressed", "snappy", "gzip", "zstd", "lz4", "zstd, PARQUET_VERSION v2"})
    void shouldReadEveryMappedTypeUnderEachCodecAsDuckDbDoesWithoutHadoop(String codec, @TempDir Path dir)
            throws Exception {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("org.apache.hadoop.conf.Configuration"));
        Path file = dir.resolve("every_type.parquet");
        write(file, 10_000, codec, 2048);
        long groups = (Long) duck.query("SELECT count(DISTINCT row_group_id) FROM parquet_metadata('" + file + "')")
                .rows().get(0).get(0);
        assertTrue(groups >= 4, "row groups: " + groups);
        Table table = ParquetFiles.load(file, "every_type");
        assertEquals("every_type", table.name());
        assertEquals(10_000, table.rowCount());
        List<DataType> expectedTypes = new ArrayList<>(List.of(DataType.INT64));
        COLUMNS.values().forEach(c -> expectedTypes.add(c.troupe));
        assertEquals(expectedTypes, table.schema().fields().stream().map(Field::type).toList());
        assertEquals(allColumns(), table.schema().fields().stream().map(Field::name).toList());
        assertNull(ResultComparator.compare(duckRows(file, allColumns()), rows(table), true));
    }

    @Test
    void shouldCutARowGroupLargerThanAChunkIntoChunks(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("big.parquet");
        write(file, 40_000, "snappy", 40_000);
        Table table = ParquetFiles.load(file, "big", List.of("i", "dec38", "s", "dict"));
        assertTrue(table.chunks().size() >= 3, "chunks: " + table.chunks().size());
        assertNull(ResultComparator.compare(duckRows(file, List.of("i", "dec38", "s", "dict")), rows(table), true));
    }

    @Test
    void shouldReadOnlyTheSelectedColumnsInTheirOrderAndLeaveOutNestedOnes(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("nested.parquet");
        duck.execute("COPY (SELECT i, [i, i + 1] AS tags, {'a': i} AS point, MAP {'k': i} AS props,"
                + " uuid() AS id, i::VARCHAR AS name FROM range(100) AS r(i)) TO '" + file + "' (FORMAT parquet)");
        Table table = ParquetFiles.load(file, "nested", List.of("name", "I"));
        assertEquals(List.of("name", "i"), table.schema().fields().stream().map(Field::name).toList());
        assertNull(ResultComparator.compare(duck.query("SELECT name, i FROM '" + file + "'").rows(), rows(table), true));
        Table noColumns = ParquetFiles.load(file, "rows_only", List.of());
        assertEquals(100, noColumns.rowCount());
        assertEquals(0, noColumns.schema().size());
        assertRefused(file, List.of("i", "tags"), "column tags: LIST is not supported yet");
        assertRefused(file, List.of("point"), "column point: STRUCT is not supported yet");
        assertRefused(file, List.of("props"), "column props: MAP is not supported yet");
        assertRefused(file, null, "column tags: LIST is not supported yet");
        assertRefused(file, List.of("nope"), "no column nope; the file's columns: i, tags, point, props, id, name");
    }

    private static void assertRefused(Path file, List<String> columns, String message) {
        TroupeException e = assertThrows(TroupeException.class, () -> ParquetFiles.load(file, "t", columns));
        assertEquals(file + ": " + message, e.getMessage());
    }

    @Test
    void shouldNameTheFileAndRowGroupOfBadInput(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("good.parquet");
        write(file, 10_000, "snappy", 2048);
        byte[] bytes = Files.readAllBytes(file);

        Path truncated = dir.resolve("truncated.parquet");
        Files.write(truncated, Arrays.copyOf(bytes, bytes.length / 2));
        TroupeException cut = assertThrows(TroupeException.class, () -> ParquetFiles.load(truncated, "t"));
        assertEquals(truncated + ": not a Parquet file: it does not begin and end with PAR1 (another format, or"
                + " truncated), " + bytes.length / 2 + " bytes", cut.getMessage());

        Path text = dir.resolve("text.parquet");
        Files.writeString(text, "id,name\n1,one\n");
        TroupeException notParquet = assertThrows(TroupeException.class, () -> ParquetFiles.load(text, "t"));
        assertTrue(notParquet.getMessage().startsWith(text + ": not a Parquet file: "), notParquet.getMessage());

        Path brotli = dir.resolve("brotli.parquet");
        duck.execute("COPY (SELECT i FROM range(100) AS r(i)) TO '" + brotli + "' (FORMAT parquet, COMPRESSION brotli)");
        TroupeException codec = assertThrows(TroupeException.class, () -> ParquetFiles.load(brotli, "t"));
        assertTrue(codec.getMessage().startsWith(brotli + ": row group 1 of 1: the BROTLI codec is not supported"),
                codec.getMessage());

        Path missing = dir.resolve("missing.parquet");
        assertRefused(missing, null, "no such file");

        Path corrupt = dir.resolve("corrupt.parquet");
        byte[] damaged = bytes.clone();
        for (int at = 4; at < bytes.length / 3; at++) {
            damaged[at] = (byte) (at * 31);
        }
        Files.write(corrupt, damaged);
        TroupeException bad = assertThrows(TroupeException.class, () -> ParquetFiles.load(corrupt, "t"));
        assertTrue(bad.getMessage().startsWith(corrupt + ": row group 1 of "), bad.getMessage());
    }
}
