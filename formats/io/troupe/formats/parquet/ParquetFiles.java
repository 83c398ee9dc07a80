package io.troupe.formats.parquet;

import io.troupe.operators.TroupeException;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads Parquet files into Troupe tables: {@code ParquetFiles.load(Path.of("flights.parquet"), "flights")}, or
 * with a list of the columns to read (only those are read from the file). The types map as {@link ParquetTypes}
 * says (docs/parquet.md). A file that is missing, truncated, not Parquet, compressed by an unknown codec, or that
 * has a column with no Troupe type among those read, fails naming the file (and the row group and column where
 * it applies), and no table comes back: a load is whole or nothing.
 *
 * <p>Stateless and threadsafe.
 */
public final class ParquetFiles {

    /** The file name suffix of a Parquet file. */
    public static final String SUFFIX = ".parquet";

    private ParquetFiles() {
    }

    /** Every column of {@code file} as table {@code tableName}. */
    public static Table load(Path file, String tableName) {
        return load(file, tableName, null);
    }

    /**
     * The columns {@code columns} names (in that order; null: all) of {@code file} as table {@code tableName}.
     *
     * @throws TroupeException naming the file, and the row group and column where it applies, when it cannot be
     *                         read as such a table
     */
    public static Table load(Path file, String tableName, List<String> columns) {
        if (!Files.isRegularFile(file)) {
            throw failure(file, Files.exists(file) ? "not a regular file" : "no such file", null);
        }
        try (ParquetFile parquet = new ParquetFile(file, columns)) {
            List<Batch> chunks = new ArrayList<>();
            int groups = parquet.rowGroupCount();
            for (int g = 0; g < groups; g++) {
                try {
                    chunks.addAll(parquet.readRowGroup(g, TableBuilder.DEFAULT_CHUNK_ROWS));
                } catch (IOException | RuntimeException e) {
                    throw failure(file, "row group " + (g + 1) + " of " + groups + ": " + message(e), e);
                }
            }
            return new Table(tableName, parquet.schema(), chunks);
        } catch (IOException | RuntimeException e) {
            if (e instanceof TroupeException t) {
                throw t;
            }
            throw failure(file, message(e), e);
        }
    }

    private static String message(Exception e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    private static TroupeException failure(Path file, String what, Exception cause) {
        return new TroupeException(TroupeException.Category.QUERY, file + ": " + what, cause);
    }
}
