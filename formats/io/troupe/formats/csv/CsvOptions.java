package io.troupe.formats.csv;

import io.troupe.operators.table.DelimitedFormat;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a caller fixes about a CSV file; everything left null is detected ({@link CsvSniffer}). Start from
 * {@link #detect()} and change what you know:
 *
 * <pre>{@code
 * CsvOptions o = CsvOptions.detect().withDelimiter(';').withHeader(true).withType("zip", DataType.VARCHAR);
 * }</pre>
 *
 * <p>Immutable and threadsafe.
 *
 * @param delimiter       the byte between fields, or null to detect ({@code , | ; \t})
 * @param quote           the quote byte, {@link DelimitedFormat#NO_QUOTE} for none, or null to detect ({@code " '})
 * @param header          whether the first record names the columns, or null to detect
 * @param types           column types by column name (after naming), replacing what was detected
 * @param dateFormat      how DATE columns are spelled ({@code %d.%m.%Y}), or null to detect
 * @param timestampFormat how TIMESTAMP columns are spelled ({@code %Y/%m/%d %H:%M:%S}), or null to detect
 * @param nullString      the unquoted text that means NULL; {@code ""} (the default) makes an empty field NULL
 * @param sampleRows      records read to detect, 20,480 as DuckDB reads; -1 reads the whole file
 * @param onBadValue      what a value that contradicts a detected type does later in the file
 * @param chunkRows       rows per table chunk (a scan's morsel)
 */
public record CsvOptions(Character delimiter, Integer quote, Boolean header, Map<String, DataType> types,
                         String dateFormat, String timestampFormat, String nullString, int sampleRows,
                         OnBadValue onBadValue, int chunkRows) {

    /** DuckDB's sample: 10 chunks of 2,048 rows. */
    public static final int DEFAULT_SAMPLE_ROWS = 20_480;
    /** The {@link #sampleRows()} that reads the whole file. */
    public static final int WHOLE_FILE = -1;

    /** What a value that contradicts its column's detected type does. */
    public enum OnBadValue {
        /** The load fails naming the file, line, column and value, as DuckDB's read_csv does by default. */
        FAIL,
        /**
         * The column widens: the types are detected again over the whole file (to DOUBLE, DECIMAL(38,0) or
         * VARCHAR, as the values need) and the file loads again. Types the caller set never widen.
         */
        WIDEN
    }

    public CsvOptions {
        types = Map.copyOf(types);
        if (nullString == null) {
            throw new IllegalArgumentException("nullString must not be null (use \"\" for empty fields)");
        }
        if (sampleRows < 1 && sampleRows != WHOLE_FILE) {
            throw new IllegalArgumentException("sampleRows must be positive or -1 (the whole file): " + sampleRows);
        }
        if (onBadValue == null) {
            throw new IllegalArgumentException("onBadValue must not be null");
        }
        if (chunkRows < 1) {
            throw new IllegalArgumentException("chunkRows must be positive: " + chunkRows);
        }
    }

    /** Everything detected, an empty field NULL, DuckDB's sample, FAIL on a contradicting value. */
    public static CsvOptions detect() {
        return new CsvOptions(null, null, null, Map.of(), null, null, "", DEFAULT_SAMPLE_ROWS, OnBadValue.FAIL,
                TableBuilder.DEFAULT_CHUNK_ROWS);
    }

    public CsvOptions withDelimiter(char value) {
        return new CsvOptions(value, quote, header, types, dateFormat, timestampFormat, nullString, sampleRows,
                onBadValue, chunkRows);
    }

    /** The quote character, or {@link DelimitedFormat#NO_QUOTE} for none. */
    public CsvOptions withQuote(int value) {
        return new CsvOptions(delimiter, value, header, types, dateFormat, timestampFormat, nullString, sampleRows,
                onBadValue, chunkRows);
    }

    public CsvOptions withHeader(boolean value) {
        return new CsvOptions(delimiter, quote, value, types, dateFormat, timestampFormat, nullString, sampleRows,
                onBadValue, chunkRows);
    }

    /** Column {@code column} (by its name, as detected or in the header) as {@code type}. */
    public CsvOptions withType(String column, DataType type) {
        Map<String, DataType> more = new LinkedHashMap<>(types);
        more.put(column, type);
        return new CsvOptions(delimiter, quote, header, more, dateFormat, timestampFormat, nullString, sampleRows,
                onBadValue, chunkRows);
    }

    public CsvOptions withDateFormat(String value) {
        return new CsvOptions(delimiter, quote, header, types, value, timestampFormat, nullString, sampleRows,
                onBadValue, chunkRows);
    }

    public CsvOptions withTimestampFormat(String value) {
        return new CsvOptions(delimiter, quote, header, types, dateFormat, value, nullString, sampleRows,
                onBadValue, chunkRows);
    }

    public CsvOptions withNullString(String value) {
        return new CsvOptions(delimiter, quote, header, types, dateFormat, timestampFormat, value, sampleRows,
                onBadValue, chunkRows);
    }

    public CsvOptions withSampleRows(int value) {
        return new CsvOptions(delimiter, quote, header, types, dateFormat, timestampFormat, nullString, value,
                onBadValue, chunkRows);
    }

    public CsvOptions withOnBadValue(OnBadValue value) {
        return new CsvOptions(delimiter, quote, header, types, dateFormat, timestampFormat, nullString, sampleRows,
                value, chunkRows);
    }

    public CsvOptions withChunkRows(int value) {
        return new CsvOptions(delimiter, quote, header, types, dateFormat, timestampFormat, nullString, sampleRows,
                onBadValue, value);
    }
}
