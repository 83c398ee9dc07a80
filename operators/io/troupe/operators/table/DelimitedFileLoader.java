package io.troupe.operators.table;

import io.troupe.operators.TroupeException;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.ByteChars;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Int128;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Schema;
import io.troupe.operators.types.TypeId;
import io.troupe.operators.types.Uuids;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads a delimited text file (CSV, or the '|' files of the TPC generators; see
 * {@link DelimitedFormat}) into a {@link Table} of a declared {@link Schema}.
 *
 * <pre>{@code
 * Schema schema = Schema.of(Field.of("id", DataType.INT32).withNullable(false),
 *         Field.of("amount", DataType.decimal(7, 2)), Field.of("day", DataType.DATE));
 * Table orders = new DelimitedFileLoader(schema, DelimitedFormat.csv()).load(Path.of("orders.csv"), "orders");
 * }</pre>
 *
 * <h2>How it reads</h2>
 * One pass over the file, UTF-8, in large blocks. A {@link RecordTokenizer} cuts up to
 * {@value #BATCH_ROWS} records at a time into field byte ranges; then each column of that batch is
 * parsed in one tight loop of its type straight from the bytes (no String per numeric field) and
 * appended to the current chunk. Chunks hold {@link DelimitedFormat#chunkRows()} rows.
 *
 * <h2>Values</h2>
 * INT32 and INT64: optional sign and digits; out of range is an error. FLOAT64: decimal or
 * exponent notation, inf, infinity, nan. DECIMAL(p,s): exact; at most p - s integer digits, and
 * fractional digits past s only if they are zeros (nothing is ever rounded). DATE: yyyy-mm-dd. TIMESTAMP:
 * yyyy-mm-dd hh:mm:ss[.f] (a date alone is its midnight); TIMESTAMP_TZ: the same with an offset ({@code +02},
 * {@code Z}), UTC without one; TIME: hh:mm:ss[.f]; INTERVAL: as PostgreSQL reads it ({@code 1 day 02:00:00}).
 * BOOLEAN: true/false, t/f, 1/0 in any case. VARCHAR: the text, which must be valid UTF-8. Spaces
 * are data: {@code " 1"} is not an integer. A NULL is an unquoted field equal to the null string.
 *
 * <h2>Errors</h2>
 * The first malformed line fails the load with a {@link TroupeException} of category QUERY that
 * names the file, the 1-based line (the header counts; a record with quoted line breaks is named
 * by its first line), the column and the offending text:
 * {@code orders.csv:17: column 3 (amount DECIMAL(7,2)): not a decimal: '12.3x'}. Nothing is
 * half-loaded: a table exists only when the whole file loaded.
 *
 * <p>Immutable and threadsafe: each load runs on the calling thread with state of its own.
 */
public final class DelimitedFileLoader {

    /**
     * Records tokenized before their columns are converted: enough that each column's loop runs
     * long, few enough that the batch's bytes (about 100 KiB at 100 bytes a line) stay in cache.
     */
    static final int BATCH_ROWS = 1024;
    /** Longest excerpt of offending text in a message, in characters. */
    private static final int EXCERPT_CHARS = 80;

    private final Schema schema;
    private final DelimitedFormat format;

    public DelimitedFileLoader(Schema schema, DelimitedFormat format) {
        if (schema.size() == 0) {
            throw new IllegalArgumentException("a loaded table needs at least one column");
        }
        this.schema = schema;
        this.format = format;
    }

    public Schema schema() {
        return schema;
    }

    public DelimitedFormat format() {
        return format;
    }

    /**
     * Loads {@code file} as table {@code tableName}.
     *
     * @throws TroupeException (QUERY) naming the file, line and column of the first malformed
     *                         value or record, or when the file cannot be read
     */
    public Table load(Path file, String tableName) {
        try (InputStream in = Files.newInputStream(file)) {
            return load(in, file.toString(), tableName, RecordTokenizer.INITIAL_BUFFER_BYTES);
        } catch (NoSuchFileException e) {
            throw new TroupeException(TroupeException.Category.QUERY, "cannot read " + file + ": no such file", e);
        } catch (IOException e) {
            throw new TroupeException(TroupeException.Category.QUERY, "cannot read " + file + ": " + e, e);
        }
    }

    /**
     * Loads {@code file} as table {@code tableName} and registers it in {@code catalog}, replacing
     * a table of that name, only once the whole file has loaded: a failed load leaves the catalog
     * as it was.
     */
    public Table loadInto(Catalog catalog, Path file, String tableName) {
        Table table = load(file, tableName);
        catalog.register(table);
        return table;
    }

    // visible for testing: any stream, named as a file in messages, with a chosen buffer size
    Table load(InputStream in, String source, String tableName, int bufferBytes) throws IOException {
        int width = schema.size();
        int chunkRows = format.chunkRows();
        RecordTokenizer tokenizer = new RecordTokenizer(in, format, width, BATCH_ROWS, bufferBytes);
        ColumnChunkBuilder[] columns = new ColumnChunkBuilder[width];
        for (int c = 0; c < width; c++) {
            columns[c] = new ColumnChunkBuilder(schema.type(c), chunkRows);
        }
        List<Batch> chunks = new ArrayList<>();
        if (format.header()) {
            tokenizer.skipRecord();
        }
        while (true) {
            int rows = tokenizer.nextBatch(Math.min(BATCH_ROWS, chunkRows - columns[0].size()));
            if (rows == 0) {
                break;
            }
            for (int c = 0; c < width; c++) {
                convertColumn(tokenizer, rows, c, columns[c], source);
            }
            if (columns[0].isFull()) {
                chunks.add(flush(columns));
            }
        }
        RecordTokenizer.Malformed failure = tokenizer.failure();
        if (failure != null) {
            throw recordError(failure, source);
        }
        if (columns[0].size() > 0) {
            chunks.add(flush(columns));
        }
        return new Table(tableName, schema, chunks);
    }

    private static Batch flush(ColumnChunkBuilder[] columns) {
        int rows = columns[0].size();
        ColumnVector[] vectors = new ColumnVector[columns.length];
        for (int c = 0; c < columns.length; c++) {
            vectors[c] = columns[c].finish();
        }
        return Batch.of(rows, vectors);
    }

    /** Parses column {@code c} of the batch's {@code rows} records into {@code out}: one loop per type. */
    private void convertColumn(RecordTokenizer tokenizer, int rows, int c, ColumnChunkBuilder out, String source) {
        final byte[] b = tokenizer.buffer();
        final int[] starts = tokenizer.starts();
        final int[] ends = tokenizer.ends();
        final int width = schema.size();
        final boolean nullable = schema.field(c).nullable();
        final DataType type = schema.type(c);
        int r = 0;
        int slot = c;
        try {
            switch (type.id()) {
                case INT32 -> {
                    for (; r < rows; r++, slot += width) {
                        int end = ends[slot];
                        if (end == RecordTokenizer.NULL) {
                            appendNull(out, nullable);
                        } else {
                            out.appendInt(FieldParsers.parseInt(b, starts[slot], end));
                        }
                    }
                }
                case INT16, INT8 -> {
                    int min = type.id() == TypeId.INT16 ? Short.MIN_VALUE : Byte.MIN_VALUE;
                    int max = type.id() == TypeId.INT16 ? Short.MAX_VALUE : Byte.MAX_VALUE;
                    for (; r < rows; r++, slot += width) {
                        int end = ends[slot];
                        if (end == RecordTokenizer.NULL) {
                            appendNull(out, nullable);
                        } else {
                            out.appendInt(FieldParsers.parseInt(b, starts[slot], end, min, max));
                        }
                    }
                }
                case FLOAT32 -> {
                    for (; r < rows; r++, slot += width) {
                        int end = ends[slot];
                        if (end == RecordTokenizer.NULL) {
                            appendNull(out, nullable);
                        } else {
                            out.appendDouble(FieldParsers.parseFloat(b, starts[slot], end));
                        }
                    }
                }
                case INT64 -> {
                    for (; r < rows; r++, slot += width) {
                        int end = ends[slot];
                        if (end == RecordTokenizer.NULL) {
                            appendNull(out, nullable);
                        } else {
                            out.appendLong(FieldParsers.parseLong(b, starts[slot], end));
                        }
                    }
                }
                case FLOAT64 -> {
                    for (; r < rows; r++, slot += width) {
                        int end = ends[slot];
                        if (end == RecordTokenizer.NULL) {
                            appendNull(out, nullable);
                        } else {
                            out.appendDouble(FieldParsers.parseDouble(b, starts[slot], end));
                        }
                    }
                }
                case DECIMAL -> {
                    boolean wide = type.isWideDecimal();
                    for (; r < rows; r++, slot += width) {
                        int end = ends[slot];
                        if (end == RecordTokenizer.NULL) {
                            appendNull(out, nullable);
                        } else if (wide) {
                            BigInteger unscaled = FieldParsers.parseWideDecimal(b, starts[slot], end, type);
                            out.appendInt128(Int128.high(unscaled), unscaled.longValue());
                        } else {
                            out.appendLong(FieldParsers.parseDecimal(b, starts[slot], end, type));
                        }
                    }
                }
                case DATE -> {
                    for (; r < rows; r++, slot += width) {
                        int end = ends[slot];
                        if (end == RecordTokenizer.NULL) {
                            appendNull(out, nullable);
                        } else {
                            out.appendInt(FieldParsers.parseDate(b, starts[slot], end));
                        }
                    }
                }
                case BOOLEAN -> {
                    for (; r < rows; r++, slot += width) {
                        int end = ends[slot];
                        if (end == RecordTokenizer.NULL) {
                            appendNull(out, nullable);
                        } else {
                            out.appendBoolean(FieldParsers.parseBoolean(b, starts[slot], end));
                        }
                    }
                }
                case INTERVAL -> {
                    ByteChars view = new ByteChars();
                    for (; r < rows; r++, slot += width) {
                        int end = ends[slot];
                        if (end == RecordTokenizer.NULL) {
                            appendNull(out, nullable);
                        } else {
                            Interval v = FieldParsers.parseInterval(b, starts[slot], end, view);
                            out.appendInt128(v.high(), v.micros());
                        }
                    }
                }
                case UUID -> {
                    ByteChars view = new ByteChars();
                    for (; r < rows; r++, slot += width) {
                        int end = ends[slot];
                        if (end == RecordTokenizer.NULL) {
                            appendNull(out, nullable);
                        } else {
                            java.util.UUID v = FieldParsers.parseUuid(b, starts[slot], end, view);
                            out.appendInt128(Uuids.high(v), Uuids.low(v));
                        }
                    }
                }
                case BLOB -> {
                    ByteChars view = new ByteChars();
                    for (; r < rows; r++, slot += width) {
                        int end = ends[slot];
                        if (end == RecordTokenizer.NULL) {
                            appendNull(out, nullable);
                        } else {
                            byte[] v = FieldParsers.parseBlob(b, starts[slot], end, view);
                            out.appendBytes(v, 0, v.length);
                        }
                    }
                }
                case TIMESTAMP, TIMESTAMP_TZ, TIME -> {
                    ByteChars view = new ByteChars();
                    for (; r < rows; r++, slot += width) {
                        int end = ends[slot];
                        if (end == RecordTokenizer.NULL) {
                            appendNull(out, nullable);
                        } else {
                            out.appendLong(FieldParsers.parseTemporal(b, starts[slot], end, type.id(), view));
                        }
                    }
                }
                case VARCHAR -> {
                    for (; r < rows; r++, slot += width) {
                        int end = ends[slot];
                        if (end == RecordTokenizer.NULL) {
                            appendNull(out, nullable);
                        } else {
                            int start = starts[slot];
                            FieldParsers.checkUtf8(b, start, end);
                            out.appendBytes(b, start, end - start);
                        }
                    }
                }
            }
        } catch (FieldParsers.FieldParseException e) {
            long line = tokenizer.lines()[r];
            int end = ends[slot];
            String text = end == RecordTokenizer.NULL ? format.nullString() : excerpt(b, starts[slot], end);
            throw new TroupeException(TroupeException.Category.QUERY,
                    source + ":" + line + ": " + describeColumn(c) + ": " + e.getMessage() + ": '" + text + "'");
        }
    }

    private static void appendNull(ColumnChunkBuilder out, boolean nullable) {
        if (!nullable) {
            throw new FieldParsers.FieldParseException("NULL in a NOT NULL column");
        }
        out.appendNull();
    }

    private TroupeException recordError(RecordTokenizer.Malformed m, String source) {
        String at = source + ":" + m.line() + ": ";
        String text = ": '" + m.text() + "'";
        String message = switch (m.failure()) {
            case FIELD_COUNT -> m.column() >= 0
                    ? at + describeColumn(m.column()) + ": missing; expected " + schema.size() + " fields, found "
                            + m.fieldsFound() + text
                    : at + "expected " + schema.size() + " fields, found " + m.fieldsFound() + text;
            case NO_TRAILING_DELIMITER -> at + "expected '" + (char) format.delimiter() + "' after the last field" + text;
            case UNTERMINATED_QUOTE -> at + describeColumn(m.column()) + ": unterminated quote" + text;
            case TEXT_AFTER_QUOTE -> at + describeColumn(m.column()) + ": text after the closing quote" + text;
            case RECORD_TOO_LONG -> at + "record longer than " + RecordTokenizer.MAX_RECORD_BYTES
                    + " bytes (an unterminated quote?)" + text;
        };
        return new TroupeException(TroupeException.Category.QUERY, message);
    }

    /** "column 3 (amount DECIMAL(7,2))": 1-based, with the declared type; "field 5" past the schema (a header). */
    private String describeColumn(int c) {
        if (c >= schema.size()) {
            return "field " + (c + 1);
        }
        Field f = schema.field(c);
        return "column " + (c + 1) + " (" + f.name() + " " + f.type() + (f.nullable() ? "" : " NOT NULL") + ")";
    }

    /** The text of {@code b[from .. to)} for a message, cut to {@value #EXCERPT_CHARS} characters. */
    static String excerpt(byte[] b, int from, int to) {
        // 4 bytes a character at most: enough bytes for the excerpt, never a whole long field
        int end = Math.min(to, from + 4 * EXCERPT_CHARS);
        String s = new String(b, from, Math.max(0, end - from), StandardCharsets.UTF_8);
        return s.length() <= EXCERPT_CHARS && end == to ? s : s.substring(0, Math.min(s.length(), EXCERPT_CHARS)) + "...";
    }
}
