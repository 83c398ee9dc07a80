package io.troupe.formats.csv;

import io.troupe.operators.table.DelimitedFileLoader;
import io.troupe.operators.table.DelimitedFormat;
import io.troupe.operators.types.Schema;

/**
 * What {@link CsvSniffer} found in a file: the layout and the columns under which
 * {@link DelimitedFileLoader} loads it. Immutable and threadsafe.
 *
 * @param format     delimiter, quote, header, null string, and the date and timestamp spellings
 * @param schema     the columns' names and types, all nullable
 * @param lineEnding {@code "\n"} or {@code "\r\n"}, as the first line ends (the loader reads either)
 * @param wholeFile  whether the sample was the whole file
 */
public record CsvDetection(DelimitedFormat format, Schema schema, String lineEnding, boolean wholeFile) {

    /** A loader of files laid out so. */
    public DelimitedFileLoader loader() {
        return new DelimitedFileLoader(schema, format);
    }
}
