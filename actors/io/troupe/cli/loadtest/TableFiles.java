package io.troupe.cli.loadtest;

import io.troupe.formats.csv.CsvOptions;
import io.troupe.formats.csv.CsvReader;
import io.troupe.formats.csv.CsvSniffer;
import io.troupe.operators.TroupeException;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.ScanShare;
import io.troupe.operators.table.DelimitedFileLoader;
import io.troupe.operators.table.DelimitedFormat;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.Blobs;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the {@code --tables DIR} of loadtest and of a node ({@code bin/troupe node}, {@code cluster start}):
 * every {@code DIR/NAME.csv} becomes table NAME, and so does every directory {@code DIR/NAME/} of such
 * files (its files one after the other; nodes that share the table deal them by file). A file's first
 * line may declare the columns as {@link Schema#parse} reads them
 * ({@code id INT64 NOT NULL,amount DECIMAL(7,2),day DATE,note VARCHAR}; {@link #declaresColumns}); the other
 * lines are then CSV (RFC 4180, an empty field is NULL), loaded by {@link DelimitedFileLoader}. A file whose
 * first line does not (a plain header, or none) has its dialect, header and types detected ({@link CsvReader};
 * the files of a directory must then detect the same columns).
 * {@link #write} writes a table so: every value of every type reads back the same (text quoted, so an
 * empty string stays one). Stateless.
 */
public final class TableFiles {

    public static final String CSV = ".csv";
    /** A name, then a type that starts with a capital: the first column of a declaring header. */
    private static final Pattern DECLARED_COLUMN = Pattern.compile("\\s*\\S+\\s+[A-Z].*");

    private TableFiles() {
    }

    /** The tables of {@code dir}, sorted by name, in chunks of {@link TableBuilder#DEFAULT_CHUNK_ROWS}. */
    public static List<Table> read(Path dir) {
        return read(dir, TableBuilder.DEFAULT_CHUNK_ROWS);
    }

    /**
     * The tables of {@code dir}, sorted by name, in chunks of {@code chunkRows} rows (a scan's morsel).
     *
     * @throws IllegalArgumentException with a one-line message naming the file, line and column of a bad
     *                                  header or value
     */
    public static List<Table> read(Path dir, int chunkRows) {
        List<Table> tables = new ArrayList<>();
        for (String name : names(dir)) {
            tables.add(read(dir, name, ScanShare.WHOLE, chunkRows));
        }
        return tables;
    }

    /**
     * The names of the tables of {@code dir}, sorted.
     *
     * @throws IllegalArgumentException when it is not a directory, or holds no table
     */
    public static List<String> names(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--tables " + dir + ": not a directory");
        }
        List<String> names = new ArrayList<>();
        for (Path entry : list(dir, "--tables " + dir)) {
            String fileName = entry.getFileName().toString();
            if (fileName.endsWith(CSV) && Files.isRegularFile(entry)) {
                names.add(fileName.substring(0, fileName.length() - CSV.length()));
            } else if (Files.isDirectory(entry) && !csvFiles(entry).isEmpty()) {
                names.add(fileName);
            }
        }
        if (names.isEmpty()) {
            throw new IllegalArgumentException("--tables " + dir + ": no " + CSV + " files in the directory");
        }
        names.sort(null);
        return names;
    }

    /**
     * Table {@code name} of {@code dir}: the file {@code dir/NAME.csv}, or the files {@code dir/NAME/*.csv}
     * (each with the same header) one after the other in name order; of those, only the files of
     * {@code share} (files {@code index}, {@code index + count}, ...: a node's share, dealt by file), in
     * chunks of {@code chunkRows} rows (a scan's morsel).
     *
     * @throws IllegalArgumentException with a one-line message naming the file (missing), or the file, line
     *                                  and column of a bad header or value
     */
    public static Table read(Path dir, String name, ScanShare share, int chunkRows) {
        Path file = dir.resolve(name + CSV);
        List<Path> files;
        if (Files.isRegularFile(file)) {
            files = List.of(file);
        } else if (Files.isDirectory(dir.resolve(name))) {
            files = csvFiles(dir.resolve(name));
            if (files.isEmpty()) {
                throw new IllegalArgumentException(dir.resolve(name) + ": no " + CSV + " files in the directory");
            }
        } else {
            throw new IllegalArgumentException(file + ": no such file");
        }
        if (!declaresColumns(files.get(0))) {
            return detected(files, name, share, chunkRows);
        }
        Schema schema = schema(files.get(0));
        List<Batch> chunks = new ArrayList<>();
        DelimitedFormat format = DelimitedFormat.csv().toBuilder().header(true).chunkRows(chunkRows).build();
        for (int i = share.index(); i < files.size(); i += share.count()) {
            Schema declared = schema(files.get(i));
            if (!declared.equals(schema)) {
                throw new IllegalArgumentException(files.get(i) + ":1: its columns (" + declared.describe()
                        + ") are not those of " + files.get(0) + " (" + schema.describe() + ")");
            }
            try {
                chunks.addAll(new DelimitedFileLoader(schema, format).load(files.get(i), name).chunks());
            } catch (TroupeException e) {
                throw new IllegalArgumentException(e.getMessage());
            }
        }
        return new Table(name, schema, chunks);
    }

    /** Table {@code name} of the files of {@code share}, each with its layout and columns detected. */
    private static Table detected(List<Path> files, String name, ScanShare share, int chunkRows) {
        CsvOptions options = CsvOptions.detect().withChunkRows(chunkRows);
        try {
            Schema schema = CsvSniffer.sniff(files.get(0), options).schema();
            List<Batch> chunks = new ArrayList<>();
            for (int i = share.index(); i < files.size(); i += share.count()) {
                Table part = CsvReader.read(files.get(i), name, options);
                if (!part.schema().equals(schema)) {
                    throw new IllegalArgumentException(files.get(i) + ": its columns (" + part.schema().describe()
                            + ") are not those of " + files.get(0) + " (" + schema.describe() + ")");
                }
                chunks.addAll(part.chunks());
            }
            return new Table(name, schema, chunks);
        } catch (TroupeException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    /**
     * Whether {@code file}'s first line declares its columns rather than naming them: its first item is a name
     * and a type written in capitals ({@code id INT64 NOT NULL}), as {@link #write} writes it. A plain header
     * ({@code iata,name}, {@code order date,amount}) does not.
     */
    public static boolean declaresColumns(Path file) {
        String first;
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            first = reader.readLine();
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
        if (first == null) {
            return false;
        }
        int depth = 0;
        int end = first.length();
        for (int i = 0; i < first.length() && end == first.length(); i++) {
            char c = first.charAt(i);
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (c == ',' && depth == 0) {
                end = i;
            }
        }
        String item = first.substring(0, end);
        if (!DECLARED_COLUMN.matcher(item).matches()) {
            return false;
        }
        try {
            Schema.parse(item);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Whether table {@code name} of {@code dir} is a directory of files (which nodes share by file). */
    public static boolean isSplitByFile(Path dir, String name) {
        return !Files.isRegularFile(dir.resolve(name + CSV)) && Files.isDirectory(dir.resolve(name));
    }

    private static List<Path> csvFiles(Path dir) {
        return list(dir, dir.toString()).stream()
                .filter(p -> p.getFileName().toString().endsWith(CSV) && Files.isRegularFile(p)).toList();
    }

    private static List<Path> list(Path dir, String what) {
        try (Stream<Path> list = Files.list(dir)) {
            return list.sorted().toList();
        } catch (IOException | UncheckedIOException e) {
            throw new IllegalArgumentException(what + ": cannot list the directory: " + e);
        }
    }

    /**
     * Writes {@code table} as {@code dir/NAME.csv}, replacing it, for {@link #read} (and a node's
     * {@code --tables}) to load: the header of its columns, then one line per row.
     *
     * @return the file written
     */
    public static Path write(Table table, Path dir) throws IOException {
        Path file = dir.resolve(table.name() + CSV);
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            List<String> header = new ArrayList<>();
            for (Field field : table.schema().fields()) {
                header.add(field.name() + " " + field.type() + (field.nullable() ? "" : " NOT NULL"));
            }
            out.write(String.join(",", header));
            out.write('\n');
            int columns = table.schema().size();
            for (Batch chunk : table.chunks()) {
                for (int i = 0; i < chunk.size(); i++) {
                    int row = chunk.row(i);
                    for (int c = 0; c < columns; c++) {
                        if (c > 0) {
                            out.write(',');
                        }
                        out.write(field(chunk.column(c), row));
                    }
                    out.write('\n');
                }
            }
        }
        return file;
    }

    /**
     * One value as CSV: NULL empty, text quoted (its quotes doubled), decimals plain, dates yyyy-mm-dd, a BLOB in
     * PostgreSQL's hex form.
     */
    private static String field(ColumnVector column, int row) {
        Object value = column.getObject(row);
        if (value == null) {
            return "";
        }
        if (value instanceof String text) {
            return '"' + text.replace("\"", "\"\"") + '"';
        }
        if (value instanceof byte[] bytes) {
            return Blobs.text(bytes);
        }
        return value instanceof BigDecimal decimal ? decimal.toPlainString() : value.toString();
    }

    /** The columns that {@code file}'s first line declares ({@link Schema#parse}). */
    static Schema schema(Path file) {
        String header;
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            header = reader.readLine();
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read: " + e);
        }
        if (header == null || header.isBlank()) {
            throw new IllegalArgumentException(file + ":1: expected a header of columns 'name TYPE [NOT NULL], ...'");
        }
        try {
            return Schema.parse(header);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ":1: " + e.getMessage());
        }
    }
}
