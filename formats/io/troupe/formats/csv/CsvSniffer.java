package io.troupe.formats.csv;

import io.troupe.operators.TroupeException;
import io.troupe.operators.expr.Strptime;
import io.troupe.operators.table.DelimitedFormat;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Detects how a CSV file is laid out and what its columns are, as DuckDB's sniffer does (the package's steps):
 * reads the first {@link CsvOptions#sampleRows()} records, picks the dialect, the column types and whether the
 * first record is a header, names the columns, and applies what the caller fixed.
 *
 * <pre>{@code
 * CsvDetection d = CsvSniffer.sniff(Path.of("airports.csv"), CsvOptions.detect());
 * Table airports = d.loader().load(Path.of("airports.csv"), "airports");
 * }</pre>
 *
 * <p>Stateless and threadsafe.
 */
public final class CsvSniffer {

    private static final char[] DELIMITERS = {',', '|', ';', '\t'};
    private static final int[] QUOTES = {DelimitedFormat.NO_QUOTE, '"', '\''};
    private static final byte[] UTF8_BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    private static final int READ_BYTES = 1 << 16;

    private CsvSniffer() {
    }

    /**
     * The layout and columns of {@code file}.
     *
     * @throws TroupeException (QUERY) naming the file when it cannot be read, is empty, or no dialect cuts it
     * @throws IllegalArgumentException naming the option that is wrong (a type for a column the file lacks, a
     *                                  date format with an unknown specifier)
     */
    public static CsvDetection sniff(Path file, CsvOptions options) {
        Sample sample = read(file, options.sampleRows());
        if (sample.text.isBlank()) {
            throw new TroupeException(TroupeException.Category.QUERY, file + ": empty file: no columns to detect");
        }
        Strptime userDate = options.dateFormat() == null ? null : Strptime.of(options.dateFormat());
        Strptime userTimestamp = options.timestampFormat() == null ? null
                : Strptime.of(options.timestampFormat());
        Typed best = null;
        for (Dialect candidate : dialects(file, sample.text, options)) {
            Typed typed = new Typed(candidate, new TypeSniffer(userDate, userTimestamp), options.header());
            if (best == null || typed.varcharColumns() < best.varcharColumns()) {
                best = typed;
            }
        }
        Dialect dialect = best.dialect;
        List<String[]> rows = best.rows;
        SniffedType[] types = best.types;
        TypeSniffer sniffer = best.sniffer;
        int width = dialect.width;
        boolean header;
        if (options.header() != null) {
            header = options.header();
        } else if (rows.size() == 1) {
            header = allText(types) || Arrays.stream(rows.get(0)).allMatch(Objects::isNull);
        } else {
            header = allText(types) || isHeader(rows.get(0), types, sniffer);
        }
        List<String> names = names(header ? rows.get(0) : null, width);
        DataType[] loadTypes = new DataType[width];
        boolean dates = false;
        boolean timestamps = false;
        for (int c = 0; c < width; c++) {
            loadTypes[c] = types[c].loadsAs();
            dates |= types[c] == SniffedType.DATE;
            timestamps |= types[c] == SniffedType.TIMESTAMP;
        }
        override(file, names, loadTypes, options.types());
        Field[] fields = new Field[width];
        for (int c = 0; c < width; c++) {
            fields[c] = Field.of(names.get(c), loadTypes[c]);
        }
        DelimitedFormat format = DelimitedFormat.builder().delimiter(dialect.delimiter).quote(dialect.quote)
                .skipRows(dialect.skip).header(header).nullString(options.nullString()).skipBlankLines(true)
                .dateFormat(userDate != null ? userDate : dates ? sniffer.dateFormat() : null)
                .timestampFormat(userTimestamp != null ? userTimestamp : timestamps ? sniffer.timestampFormat() : null)
                .chunkRows(options.chunkRows()).build();
        int newline = sample.text.indexOf('\n');
        String lineEnding = newline > 0 && sample.text.charAt(newline - 1) == '\r' ? "\r\n" : "\n";
        return new CsvDetection(format, Schema.of(fields), lineEnding, sample.wholeFile);
    }

    /** The first {@code sampleRows} records and the header (or the whole file) as text, without a byte order mark. */
    private static Sample read(Path file, int sampleRows) {
        long lines = sampleRows == CsvOptions.WHOLE_FILE ? Long.MAX_VALUE : sampleRows + 1L;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean wholeFile = true;
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buf = new byte[READ_BYTES];
            long seen = 0;
            int n = 0;
            int keep = -1;
            while (keep < 0 && (n = in.read(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n' && ++seen == lines) {
                        keep = i + 1;
                        break;
                    }
                }
                out.write(buf, 0, keep < 0 ? n : keep);
            }
            wholeFile = keep < 0 || keep == n && in.read() < 0;
        } catch (NoSuchFileException e) {
            throw new TroupeException(TroupeException.Category.QUERY, "cannot read " + file + ": no such file", e);
        } catch (IOException e) {
            throw new TroupeException(TroupeException.Category.QUERY, "cannot read " + file + ": " + e, e);
        }
        byte[] bytes = out.toByteArray();
        int from = bytes.length >= 3 && bytes[0] == UTF8_BOM[0] && bytes[1] == UTF8_BOM[1] && bytes[2] == UTF8_BOM[2]
                ? 3 : 0;
        return new Sample(new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8), wholeFile);
    }

    private record Sample(String text, boolean wholeFile) {
    }

    /**
     * A candidate dialect's records (after the notes it skips) and their column types, detected from row 1 on
     * unless the header option says there is none or there is one record.
     */
    private static final class Typed {

        final Dialect dialect;
        final TypeSniffer sniffer;
        final List<String[]> rows;
        final SniffedType[] types;

        Typed(Dialect dialect, TypeSniffer sniffer, Boolean header) {
            this.dialect = dialect;
            this.sniffer = sniffer;
            List<String[]> all = dialect.split.rows();
            this.rows = all.subList(dialect.skip, all.size());
            int from = rows.size() > 1 && !Boolean.FALSE.equals(header) ? 1 : 0;
            this.types = sniffer.sniff(rows, from, dialect.width);
        }

        long varcharColumns() {
            return Arrays.stream(types).filter(t -> t == SniffedType.VARCHAR).count();
        }
    }

    /**
     * A candidate dialect: how it cut the sample, into how many fields, after how many records of fewer fields
     * (notes above the table, which the load skips).
     */
    private record Dialect(char delimiter, int quote, SampleSplit split, int width, int skip) {

        boolean quoted() {
            return split.sawQuote() && quote != DelimitedFormat.NO_QUOTE;
        }
    }

    /**
     * DuckDB's choice over the candidates, in its order (quote none, {@code "}, {@code '}; by delimiter {@code , | ;
     * TAB}). A candidate must cut every record after its first widest run into as many fields (records of fewer
     * fields above it are notes to skip, below it make it fail). It takes over from the best so far when the best
     * had one column and it has more, when it cuts more records with at least as many columns or as many with more
     * columns, or when it saw quotes; but a candidate that saw no quotes (or no doubled quotes) never takes over
     * from one that did, and one as good that also saw quotes only joins it; a candidate as good as the best on
     * every count joins it too. The candidates come back in order: the caller keeps the one whose columns detect
     * as VARCHAR least often (the first on a tie), as DuckDB does.
     */
    private static List<Dialect> dialects(Path file, String text, CsvOptions options) {
        List<Dialect> successful = new ArrayList<>();
        int bestConsistent = 0;
        int maxColumns = 0;
        for (int quote : options.quote() == null ? QUOTES : new int[] {options.quote()}) {
            for (char delimiter : options.delimiter() == null ? DELIMITERS : new char[] {options.delimiter()}) {
                if (quote == delimiter) {
                    continue;
                }
                SampleSplit split = SampleSplit.of(text, delimiter, quote, options.nullString());
                if (split.malformed()) {
                    continue;
                }
                List<String[]> rows = split.rows();
                int width = rows.isEmpty() ? 1 : rows.get(0).length;
                int consistent = 0;
                int padding = 0;
                int skip = 0;
                boolean firstValid = false;
                for (int r = 0; r < rows.size(); r++) {
                    int count = rows.get(r).length;
                    if (width < count) {
                        firstValid = true;
                        padding = 0;
                        width = count;
                        skip = r;
                        consistent = 1;
                    } else if (count == width) {
                        if (!firstValid) {
                            firstValid = true;
                            skip = r;
                        }
                        consistent++;
                    } else {
                        padding++;
                    }
                }
                if (padding > 0 || consistent + skip != rows.size()) {
                    continue;
                }
                Dialect candidate = new Dialect(delimiter, quote, split, width, skip);
                boolean moreValues = consistent > bestConsistent && width >= maxColumns;
                boolean moreColumns = consistent == bestConsistent && width > maxColumns;
                boolean singleColumnBefore = maxColumns < 2 && width > maxColumns * successful.size();
                if (singleColumnBefore || moreValues || moreColumns || candidate.quoted()) {
                    if (!successful.isEmpty() && successful.get(0).quoted()) {
                        if (!candidate.quoted() || successful.get(0).split.sawEscape() && !split.sawEscape()) {
                            continue;
                        }
                        if (bestConsistent == consistent && width >= maxColumns) {
                            successful.add(candidate);
                            maxColumns = width;
                            continue;
                        }
                    }
                    if (candidate.quoted() && width < maxColumns
                            && successful.stream().anyMatch(Dialect::quoted)) {
                        continue;
                    }
                    bestConsistent = consistent;
                    maxColumns = width;
                    successful.clear();
                    successful.add(candidate);
                } else if (!successful.isEmpty() && consistent > 1 && width > 1 && skip <= successful.get(0).skip && width == maxColumns) {
                    successful.add(candidate);
                }
            }
        }
        if (successful.isEmpty() && options.delimiter() != null) {
            SampleSplit split = SampleSplit.of(text, options.delimiter(),
                    options.quote() == null ? '"' : options.quote(), options.nullString());
            int width = split.rows().get(0).length;
            for (int r = 1; r < split.rows().size(); r++) {
                if (split.rows().get(r).length != width) {
                    throw new TroupeException(TroupeException.Category.QUERY, file + ":" + split.lines().get(r)
                            + ": expected " + width + " fields (delimiter '" + options.delimiter() + "'), found "
                            + split.rows().get(r).length);
                }
            }
        }
        if (successful.isEmpty()) {
            throw new TroupeException(TroupeException.Category.QUERY, file + ": cannot detect the dialect: no "
                    + "delimiter (, | ; TAB) and quote (\" ' none) cuts every record of the sample into as many "
                    + "fields; a record has too many or too few (set the delimiter to see which)");
        }
        return successful;
    }

    private static boolean allText(SniffedType[] types) {
        for (SniffedType t : types) {
            if (t != SniffedType.VARCHAR) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether row 0 is all NULL, or holds a value that its column's type does not take (a name over numbers, or any
     * value over a column of NULLs).
     */
    private static boolean isHeader(String[] row0, SniffedType[] types, TypeSniffer sniffer) {
        if (row0.length != types.length) {
            return true;
        }
        boolean allNull = true;
        for (int c = 0; c < types.length; c++) {
            String v = row0[c];
            if (v == null) {
                continue;
            }
            allNull = false;
            SniffedType t = types[c];
            if (t != SniffedType.VARCHAR && !sniffer.casts(t, v)) {
                return true;
            }
        }
        return allNull;
    }

    /**
     * The column names: the header's, without spaces at their ends, or DuckDB's {@code column0, column1, ...} (zero-padded to the
     * widest number) where there is none or a name is empty; a repeated name gets {@code _1}, {@code _2}, ...
     */
    static List<String> names(String[] header, int width) {
        int digits = Integer.toString(Math.max(0, width - 1)).length();
        List<String> names = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        for (int c = 0; c < width; c++) {
            String name = header != null && c < header.length && header[c] != null ? trimSpaces(header[c]) : "";
            if (name.isEmpty()) {
                String number = Integer.toString(c);
                name = "column" + "0".repeat(digits - number.length()) + number;
            }
            String unique = name;
            for (int k = 1; !taken.add(unique.toLowerCase(Locale.ROOT)); k++) {
                unique = name + "_" + k;
            }
            names.add(unique);
        }
        return names;
    }

    /** {@code text} without the space separators (Unicode Zs) at its ends, as DuckDB trims a header's names. */
    private static String trimSpaces(String text) {
        int from = 0;
        int to = text.length();
        while (from < to && Character.getType(text.charAt(from)) == Character.SPACE_SEPARATOR) {
            from++;
        }
        while (to > from && Character.getType(text.charAt(to - 1)) == Character.SPACE_SEPARATOR) {
            to--;
        }
        return text.substring(from, to);
    }

    private static void override(Path file, List<String> names, DataType[] types, Map<String, DataType> fixed) {
        for (Map.Entry<String, DataType> e : fixed.entrySet()) {
            int c = names.indexOf(e.getKey());
            for (int i = 0; c < 0 && i < names.size(); i++) {
                if (names.get(i).equalsIgnoreCase(e.getKey())) {
                    c = i;
                }
            }
            if (c < 0) {
                throw new IllegalArgumentException(file + ": a type is set for column '" + e.getKey()
                        + "', which the file does not have (its columns: " + String.join(", ", names) + ")");
            }
            types[c] = e.getValue();
        }
    }
}
