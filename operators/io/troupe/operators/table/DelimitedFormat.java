package io.troupe.operators.table;

import io.troupe.operators.expr.Strptime;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * How a delimited text file is laid out: the options of {@link DelimitedFileLoader}. Immutable
 * and threadsafe; build one with {@link #builder()}, or start from a dialect and change it:
 *
 * <pre>{@code
 * DelimitedFormat csv = DelimitedFormat.csv().toBuilder().header(true).build();
 * DelimitedFormat tbl = DelimitedFormat.tpc();   // a dbgen .dat / .tbl file
 * }</pre>
 *
 * <ul>
 *   <li><b>delimiter</b>: the byte between fields (one ASCII character).</li>
 *   <li><b>quote</b>: the byte that opens and closes a quoted field, or {@link #NO_QUOTE}. A
 *       quote is special only at the start of a field; inside a quoted field two quotes stand for
 *       one, and delimiters and line breaks are data (RFC 4180). A quoted field is never NULL, so
 *       {@code ""} is the empty string.</li>
 *   <li><b>skipRows</b>: records before the header (or the first row) that the load skips, such as a title
 *       line above the table.</li>
 *   <li><b>header</b>: whether the first record names the columns (it is skipped, not checked).</li>
 *   <li><b>nullString</b>: the text of an unquoted field that means NULL; the default {@code ""}
 *       makes an empty field NULL.</li>
 *   <li><b>skipBlankLines</b>: whether an empty line between records is skipped (as DuckDB skips them) rather
 *       than read as a record of one empty field; only where a record has more than one field.</li>
 *   <li><b>trailingDelimiter</b>: whether every record ends with a delimiter after its last field,
 *       as dbgen writes {@code 1|foo|2024-01-31|}.</li>
 *   <li><b>dateFormat</b>, <b>timestampFormat</b>: how DATE and TIMESTAMP columns are spelled, as a
 *       {@link Strptime} ({@code %m/%d/%Y}); null (the default) reads ISO 8601.</li>
 *   <li><b>chunkRows</b>: rows per table chunk (a scan's morsel).</li>
 * </ul>
 *
 * <p>Lines end with {@code \n} or {@code \r\n}.
 */
public final class DelimitedFormat {

    /** The {@link #quote()} of a format without quoting. */
    public static final int NO_QUOTE = -1;

    private final byte delimiter;
    private final int quote;
    private final int skipRows;
    private final boolean header;
    private final String nullString;
    private final byte[] nullBytes;
    private final boolean trailingDelimiter;
    private final boolean skipBlankLines;
    private final Strptime dateFormat;
    private final Strptime timestampFormat;
    private final int chunkRows;

    private DelimitedFormat(Builder b) {
        this.delimiter = (byte) b.delimiter;
        this.quote = b.quote;
        this.skipRows = b.skipRows;
        this.header = b.header;
        this.nullString = b.nullString;
        this.nullBytes = b.nullString.getBytes(StandardCharsets.UTF_8);
        this.trailingDelimiter = b.trailingDelimiter;
        this.skipBlankLines = b.skipBlankLines;
        this.dateFormat = b.dateFormat;
        this.timestampFormat = b.timestampFormat;
        this.chunkRows = b.chunkRows;
    }

    /** RFC 4180: ',' between fields, '"' quotes, no header, an empty unquoted field is NULL. */
    public static DelimitedFormat csv() {
        return builder().build();
    }

    /**
     * The '|'-separated files of the TPC-H and TPC-DS generators: every record ends with '|', an
     * empty field is NULL, nothing is quoted.
     */
    public static DelimitedFormat tpc() {
        return builder().delimiter('|').quote(NO_QUOTE).trailingDelimiter(true).build();
    }

    /** A builder starting from the CSV defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this format. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.delimiter = (char) delimiter;
        b.quote = quote;
        b.skipRows = skipRows;
        b.header = header;
        b.nullString = nullString;
        b.trailingDelimiter = trailingDelimiter;
        b.skipBlankLines = skipBlankLines;
        b.dateFormat = dateFormat;
        b.timestampFormat = timestampFormat;
        b.chunkRows = chunkRows;
        return b;
    }

    public byte delimiter() {
        return delimiter;
    }

    /** The quote byte, or {@link #NO_QUOTE}. */
    public int quote() {
        return quote;
    }

    /** Records before the header (or the first row) that the load skips. */
    public int skipRows() {
        return skipRows;
    }

    public boolean header() {
        return header;
    }

    public String nullString() {
        return nullString;
    }

    /** The null string as UTF-8 (a copy). */
    byte[] nullBytes() {
        return nullBytes.clone();
    }

    public boolean trailingDelimiter() {
        return trailingDelimiter;
    }

    /** Whether an empty line between records is skipped (where a record has more than one field). */
    public boolean skipBlankLines() {
        return skipBlankLines;
    }

    /** How DATE columns are spelled, or null for ISO 8601. */
    public Strptime dateFormat() {
        return dateFormat;
    }

    /** How TIMESTAMP columns are spelled, or null for ISO 8601. */
    public Strptime timestampFormat() {
        return timestampFormat;
    }

    public int chunkRows() {
        return chunkRows;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DelimitedFormat f && f.delimiter == delimiter && f.quote == quote && f.skipRows == skipRows
                && f.header == header
                && f.nullString.equals(nullString) && f.trailingDelimiter == trailingDelimiter
                && f.skipBlankLines == skipBlankLines
                && Objects.equals(f.dateFormat, dateFormat) && Objects.equals(f.timestampFormat, timestampFormat)
                && f.chunkRows == chunkRows;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(new Object[] {delimiter, quote, skipRows, header, nullString, trailingDelimiter,
                skipBlankLines, dateFormat, timestampFormat, chunkRows});
    }

    @Override
    public String toString() {
        return "DelimitedFormat[delimiter='" + (char) delimiter + "', quote="
                + (quote == NO_QUOTE ? "none" : "'" + (char) quote + "'") + (skipRows == 0 ? "" : ", skipRows=" + skipRows)
                + ", header=" + header
                + ", nullString='" + nullString + "', trailingDelimiter=" + trailingDelimiter
                + (skipBlankLines ? ", skipBlankLines=true" : "")
                + (dateFormat == null ? "" : ", dateFormat='" + dateFormat + "'")
                + (timestampFormat == null ? "" : ", timestampFormat='" + timestampFormat + "'")
                + ", chunkRows=" + chunkRows + "]";
    }

    /** Collects the options of a {@link DelimitedFormat}; {@link #build()} checks them. Not threadsafe. */
    public static final class Builder {

        private char delimiter = ',';
        private int quote = '"';
        private int skipRows;
        private boolean header;
        private String nullString = "";
        private boolean trailingDelimiter;
        private boolean skipBlankLines;
        private Strptime dateFormat;
        private Strptime timestampFormat;
        private int chunkRows = TableBuilder.DEFAULT_CHUNK_ROWS;

        private Builder() {
        }

        public Builder delimiter(char value) {
            this.delimiter = value;
            return this;
        }

        /** The quote character, or {@link #NO_QUOTE} for none. */
        public Builder quote(int value) {
            this.quote = value;
            return this;
        }

        /** Records before the header (or the first row) that the load skips. */
        public Builder skipRows(int value) {
            this.skipRows = value;
            return this;
        }

        public Builder header(boolean value) {
            this.header = value;
            return this;
        }

        public Builder nullString(String value) {
            this.nullString = value;
            return this;
        }

        public Builder trailingDelimiter(boolean value) {
            this.trailingDelimiter = value;
            return this;
        }

        /** Whether an empty line between records is skipped (where a record has more than one field). */
        public Builder skipBlankLines(boolean value) {
            this.skipBlankLines = value;
            return this;
        }

        /** How DATE columns are spelled, or null for ISO 8601. */
        public Builder dateFormat(Strptime value) {
            this.dateFormat = value;
            return this;
        }

        /** How TIMESTAMP columns are spelled, or null for ISO 8601. */
        public Builder timestampFormat(Strptime value) {
            this.timestampFormat = value;
            return this;
        }

        public Builder chunkRows(int value) {
            this.chunkRows = value;
            return this;
        }

        /** @throws IllegalArgumentException naming the option that is out of range or clashes */
        public DelimitedFormat build() {
            checkSpecial("delimiter", delimiter);
            if (quote != NO_QUOTE) {
                checkSpecial("quote", quote);
                if (quote == delimiter) {
                    throw new IllegalArgumentException("quote and delimiter must differ: '" + delimiter + "'");
                }
            }
            if (nullString == null) {
                throw new IllegalArgumentException("nullString must not be null (use \"\" for empty fields)");
            }
            if (nullString.indexOf(delimiter) >= 0 || nullString.indexOf('\n') >= 0
                    || (quote != NO_QUOTE && nullString.indexOf(quote) >= 0)) {
                throw new IllegalArgumentException("nullString must not hold the delimiter, the quote or a line break: '"
                        + nullString + "'");
            }
            if (skipRows < 0) {
                throw new IllegalArgumentException("skipRows must not be negative: " + skipRows);
            }
            if (chunkRows < 1) {
                throw new IllegalArgumentException("chunkRows must be positive: " + chunkRows);
            }
            return new DelimitedFormat(this);
        }

        private static void checkSpecial(String option, int c) {
            if (c <= 0 || c >= 0x80 || c == '\n' || c == '\r') {
                throw new IllegalArgumentException(option + " must be one ASCII character other than a line break: "
                        + "code=" + c);
            }
        }
    }
}
