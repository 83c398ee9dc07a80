package io.troupe.formats.csv;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.DataType;
import io.troupe.oracle.DuckDbOracle;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the CSV tests compare: the names, types and rows that Troupe detects and loads from a file, and what
 * DuckDB's {@code read_csv} makes of the same file in the same JVM. Not threadsafe: one test owns it.
 */
final class CsvFiles {

    private CsvFiles() {
    }

    /** DuckDB's name of the type a detected Troupe type stands for. */
    static String duckType(DataType type) {
        return switch (type.id()) {
            case INT64 -> "BIGINT";
            case FLOAT64 -> "DOUBLE";
            case DECIMAL -> type.equals(DataType.decimal(38, 0)) ? "HUGEINT" : type.sqlName();
            case TIMESTAMP_TZ -> "TIMESTAMP WITH TIME ZONE";
            default -> type.sqlName();
        };
    }

    /** Column "name TYPE" pairs and rows of {@code table}, as DuckDB would name its types. */
    static List<String> columns(Table table) {
        List<String> columns = new ArrayList<>();
        for (int c = 0; c < table.schema().size(); c++) {
            columns.add(table.schema().field(c).name() + " " + duckType(table.schema().type(c)));
        }
        return columns;
    }

    static List<List<Object>> rows(Table table) {
        List<List<Object>> rows = new ArrayList<>();
        for (Batch chunk : table.chunks()) {
            for (int i = 0; i < chunk.size(); i++) {
                Object[] row = new Object[chunk.columnCount()];
                for (int c = 0; c < row.length; c++) {
                    row[c] = chunk.column(c).getObject(chunk.row(i));
                }
                rows.add(Arrays.asList(row));
            }
        }
        return same(DuckDbOracle.normalise(rows));
    }

    /** What DuckDB's read_csv with {@code options} (its own spelling, may be empty) makes of {@code file}. */
    static List<String> duckColumns(DuckDbOracle duck, Path file, String options) throws SQLException {
        List<String> columns = new ArrayList<>();
        for (List<Object> row : duck.query("DESCRIBE SELECT * FROM " + readCsv(file, options)).rows()) {
            columns.add(row.get(0) + " " + row.get(1));
        }
        return columns;
    }

    static List<List<Object>> duckRows(DuckDbOracle duck, Path file, String options) throws SQLException {
        return same(duck.query("SELECT * FROM " + readCsv(file, options)).rows());
    }

    /** Asserts that Troupe's table of {@code file} has DuckDB's columns and rows, in file order. */
    static void assertSameAsDuckDb(DuckDbOracle duck, Path file, String duckOptions, Table table, String context)
            throws SQLException {
        assertEquals(duckColumns(duck, file, duckOptions), columns(table), context + ": columns");
        assertEquals(duckRows(duck, file, duckOptions), rows(table), context + ": rows");
    }

    private static String readCsv(Path file, String options) {
        return "read_csv('" + file + "'" + (options.isEmpty() ? "" : ", " + options) + ")";
    }

    /** Integral decimals (a HUGEINT, a DECIMAL(38,0)) as Long or BigInteger, whatever their scale. */
    private static List<List<Object>> same(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            Object[] values = row.toArray();
            for (int c = 0; c < values.length; c++) {
                if (values[c] instanceof BigDecimal d && d.stripTrailingZeros().scale() <= 0) {
                    BigInteger b = d.toBigIntegerExact();
                    values[c] = b.bitLength() < 64 ? (Object) b.longValue() : b;
                }
            }
            out.add(Arrays.asList(values));
        }
        return out;
    }
}
