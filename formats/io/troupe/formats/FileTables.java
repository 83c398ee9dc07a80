package io.troupe.formats;

import io.troupe.formats.csv.CsvOptions;
import io.troupe.formats.csv.CsvReader;
import io.troupe.formats.parquet.ParquetFiles;
import io.troupe.operators.table.Table;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Reads a data file as a table, the reader picked by the file's name: {@code .csv}, {@code .tsv} and {@code .txt}
 * are delimited text with everything detected ({@link CsvReader}), {@code .parquet} a Parquet file with its columns
 * and types in it ({@link ParquetFiles}). Stateless and threadsafe.
 */
public final class FileTables {

    /** The endings of the files this reads, lower case. */
    public static final List<String> SUFFIXES = List.of(".csv", ".tsv", ".txt", ParquetFiles.SUFFIX);

    private FileTables() {
    }

    /** Whether {@code file}'s name ends as a file this reads does (in any case). */
    public static boolean isTableFile(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return SUFFIXES.stream().anyMatch(name::endsWith);
    }

    /**
     * Table {@code name} of {@code file}, its layout and columns detected.
     *
     * @throws IllegalArgumentException when the file's name ends in no known suffix
     * @throws io.troupe.operators.TroupeException (QUERY) naming the file (and line, column and value) of what
     *                                             did not load
     */
    public static Table read(Path file, String name) {
        if (!isTableFile(file)) {
            throw new IllegalArgumentException(file + ": unknown file format (known: " + String.join(", ", SUFFIXES)
                    + ")");
        }
        return file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(ParquetFiles.SUFFIX)
                ? ParquetFiles.load(file, name) : CsvReader.read(file, name, CsvOptions.detect());
    }
}
