package io.troupe.formats.parquet;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.apache.parquet.VersionParser;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReaderImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An open Parquet file, read a row group at a time: {@link #readRowGroup} turns one row group's selected columns
 * into dense batches of at most {@code chunkRows} rows. A row group is the unit of work, so that workers can each
 * read their own (each with its own ParquetFile: the underlying reader holds one file position). Opening reads
 * the footer and maps the selected columns' types ({@link ParquetTypes}) before any data is read.
 *
 * <p>Not threadsafe.
 */
final class ParquetFile implements AutoCloseable {

    /** Hands no value anywhere: the reader takes values from the column readers directly. */
    private static final PrimitiveConverter NO_CONVERTER = new PrimitiveConverter() {
    };

    /** What a Parquet file begins and ends with (an encrypted footer's PARE is not read). */
    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

    private final ParquetFileReader reader;
    private final List<ParquetColumn> columns;
    private final Schema schema;
    private final VersionParser.ParsedVersion writer;

    /**
     * Opens {@code file} and maps the columns {@code selection} names (null: all of them).
     *
     * @throws IOException              when the file cannot be read or is not Parquet
     * @throws IllegalArgumentException naming a column that has no Troupe type or is not in the file
     */
    ParquetFile(Path file, List<String> selection) throws IOException {
        checkMagic(file);
        this.reader = new ParquetFileReader(new LocalInputFile(file), ReadOptions.hadoopFree());
        try {
            MessageType fileSchema = reader.getFileMetaData().getSchema();
            this.columns = ParquetTypes.columns(fileSchema, selection);
            List<Field> fields = new ArrayList<>(columns.size());
            for (ParquetColumn c : columns) {
                fields.add(c.field());
            }
            this.schema = new Schema(fields);
            this.writer = writerVersion(reader.getFileMetaData().getCreatedBy());
            reader.setRequestedSchema(columns.stream().map(ParquetColumn::descriptor).toList());
        } catch (RuntimeException e) {
            reader.close();
            throw e;
        }
    }

    /** Refuses a file that does not begin and end with Parquet's magic bytes: another format, or cut short. */
    private static void checkMagic(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            ByteBuffer head = ByteBuffer.allocate(MAGIC.length);
            ByteBuffer tail = ByteBuffer.allocate(MAGIC.length);
            if (size < 3L * MAGIC.length || channel.read(head, 0) != MAGIC.length
                    || channel.read(tail, size - MAGIC.length) != MAGIC.length
                    || !Arrays.equals(head.array(), MAGIC) || !Arrays.equals(tail.array(), MAGIC)) {
                throw new IOException("not a Parquet file: it does not begin and end with PAR1 (another format, or"
                        + " truncated), " + size + " bytes");
            }
        }
    }

    private static VersionParser.ParsedVersion writerVersion(String createdBy) {
        try {
            return createdBy == null ? null : VersionParser.parse(createdBy);
        } catch (VersionParser.VersionParseException | RuntimeException e) {
            // An unknown writer: the decoders then apply no writer-specific workaround.
            return null;
        }
    }

    Schema schema() {
        return schema;
    }

    int rowGroupCount() {
        return reader.getRowGroups().size();
    }

    /**
     * The selected columns of row group {@code index} as batches of at most {@code chunkRows} rows.
     *
     * @throws IOException              when its pages cannot be read or decompressed
     * @throws IllegalArgumentException naming the column whose value has no Troupe value
     */
    List<Batch> readRowGroup(int index, int chunkRows) throws IOException {
        long rows = reader.getRowGroups().get(index).getRowCount();
        PageReadStore pages = columns.isEmpty() ? null : reader.readRowGroup(index);
        ColumnReader[] readers = new ColumnReader[columns.size()];
        VectorBuilder[] builders = new VectorBuilder[columns.size()];
        for (int c = 0; c < readers.length; c++) {
            ParquetColumn column = columns.get(c);
            readers[c] = new ColumnReaderImpl(column.descriptor(), pages.getPageReader(column.descriptor()),
                    NO_CONVERTER, writer);
            builders[c] = new VectorBuilder(column.field().type(), (int) Math.min(chunkRows, rows));
        }
        List<Batch> batches = new ArrayList<>();
        for (long start = 0; start < rows; start += chunkRows) {
            int n = (int) Math.min(chunkRows, rows - start);
            ColumnVector[] vectors = new ColumnVector[readers.length];
            for (int c = 0; c < readers.length; c++) {
                vectors[c] = read(columns.get(c), readers[c], n, builders[c]);
            }
            batches.add(Batch.of(n, vectors));
        }
        return batches;
    }

    /** The next {@code n} values of {@code values}, built in {@code out} (which starts afresh after). */
    private static ColumnVector read(ParquetColumn column, ColumnReader values, int n, VectorBuilder out) {
        int defined = column.descriptor().getMaxDefinitionLevel();
        ColumnDecoder decoder = column.decoder();
        try {
            for (int i = 0; i < n; i++) {
                if (values.getCurrentDefinitionLevel() == defined) {
                    decoder.append(values, out);
                } else {
                    out.appendNull();
                }
                values.consume();
            }
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IllegalArgumentException("column " + column.field().name() + ": " + e.getMessage(), e);
        }
        return out.build();
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
