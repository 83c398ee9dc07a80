package io.troupe.formats.csv;

import io.troupe.operators.TroupeException;
import io.troupe.operators.table.Table;

import java.nio.file.Path;

/**
 * Loads a CSV or TSV file as its publisher wrote it: {@link CsvSniffer} detects the layout and the columns, then
 * {@link io.troupe.operators.table.DelimitedFileLoader} loads the whole file in one pass. A value that contradicts
 * a detected type fails the load naming the file, line, column and value, or, under
 * {@link CsvOptions.OnBadValue#WIDEN}, the types are detected again over the whole file and it loads again.
 * Nothing is half-loaded: a table comes back only when the whole file loaded.
 *
 * <p>Stateless and threadsafe.
 */
public final class CsvReader {

    private CsvReader() {
    }

    /**
     * Table {@code name} of {@code file}.
     *
     * @throws TroupeException (QUERY) naming the file (and the line, column and value) of what did not load
     * @throws IllegalArgumentException naming an option that is wrong
     */
    public static Table read(Path file, String name, CsvOptions options) {
        CsvDetection detected = CsvSniffer.sniff(file, options);
        try {
            return detected.loader().load(file, name);
        } catch (TroupeException e) {
            if (options.onBadValue() != CsvOptions.OnBadValue.WIDEN || detected.wholeFile()) {
                throw e;
            }
            CsvDetection whole = CsvSniffer.sniff(file, options.withSampleRows(CsvOptions.WHOLE_FILE));
            if (whole.schema().equals(detected.schema()) && whole.format().equals(detected.format())) {
                throw e;
            }
            return whole.loader().load(file, name);
        }
    }
}
