package io.troupe.formats.csv;

import io.troupe.operators.table.DelimitedFormat;
import io.troupe.operators.table.Table;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Random tables written as CSV files the way publishers write them (a plain header or none, each of the
 * delimiters {@code , | ; TAB}, quoting with {@code "} or {@code '} or none, quoted delimiters, quotes and line
 * breaks, CRLF, blank lines, non-ISO dates and timestamps, NULLs as empty fields, columns whose values mix
 * types), then detected and loaded by Troupe and read by DuckDB's {@code read_csv} with its defaults in the same
 * JVM: the column names, the types (Troupe's mapped to DuckDB's: INT64 is BIGINT, FLOAT64 DOUBLE, DECIMAL(38,0)
 * HUGEINT) and every row must be equal. Each run draws a new run seed; a failure names it and the case's seed;
 * {@code -Dtroupe.csv.seed=S} replays one case.
 *
 * <p>Where DuckDB's strict mode gives up on a file's dialect, DuckDB is told the dialect that Troupe detected,
 * without strict mode, and the rest is compared. A quoted empty field is the empty string, as in PostgreSQL's
 * COPY, where DuckDB reads NULL: DuckDB is told {@code allow_quoted_nulls = false}.
 *
 * <p>Differences from DuckDB that the generator keeps clear of, as docs/files.md states them: values with spaces
 * around them; {@code yes}/{@code no} booleans; integers of 39 digits; a TIMESTAMP_TZ column that mixes values
 * with and without an offset; a one-column file whose text holds a delimiter (DuckDB may take it for one with a
 * trailing delimiter on every line) or a quoted line break (DuckDB detects no dialect, and reads NULLs when told
 * one); and, on these small files, where DuckDB's choice among dialects that fit differs: a delimiter character
 * of any kind in a field that is not quoted (DuckDB may read the lines above it as notes to skip) and a quote
 * character in a field not quoted with it (DuckDB's strict mode rules that quote out).
 */
class CsvSnifferVersusDuckDbTest extends DuckDbCsvTest {

    private static final int CASES = 200;
    /** A quoted empty field is the empty string, as PostgreSQL's COPY reads it; DuckDB reads it as NULL unless told. */
    static final String POSTGRES_NULLS = "allow_quoted_nulls = false";

    private enum Kind { BOOLEAN, BIGINT, HUGEINT, DOUBLE, DATE, TIMESTAMP, TIMESTAMP_TZ, TIME, VARCHAR, MIXED }

    private static final String[] DATE_SPELLINGS = {"yyyy-MM-dd", "MM/dd/yyyy", "dd-MM-yyyy", "dd.MM.yyyy",
            "yyyy/MM/dd"};
    private static final String[] TIMESTAMP_SPELLINGS = {"yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss.SSSSSS",
            "yyyy/MM/dd HH:mm:ss", "MM-dd-yyyy hh:mm:ss a", "dd/MM/yyyy HH:mm:ss"};
    private static final String[] NAMES = {"id", "name", "Total Cost $", "date", "value", "x", "x", "", "a b"};
    private static final String TEXT = "abcxyz XYZ,;|\t\"'\né日";

    @Test
    void shouldDetectAndLoadWhatDuckDbDetectsAndLoads(@TempDir Path dir) throws Exception {
        String replay = System.getProperty("troupe.csv.seed");
        long runSeed = new Random().nextLong();
        Random seeds = new Random(runSeed);
        int cases = replay == null ? CASES : 1;
        for (int i = 0; i < cases; i++) {
            long seed = replay == null ? seeds.nextLong() : Long.decode(replay.trim());
            Path file = dir.resolve("case" + i + ".csv");
            String text = new FileWriter(new Random(seed)).write();
            Files.writeString(file, text, StandardCharsets.UTF_8);
            String context = "run seed " + runSeed + ", case seed " + seed + " (-Dtroupe.csv.seed=" + seed
                    + "), file:\n" + text;
            Table table;
            try {
                table = CsvReader.read(file, "t", CsvOptions.detect());
            } catch (RuntimeException e) {
                throw new AssertionError(context + e.getMessage(), e);
            }
            CsvDetection detected = CsvSniffer.sniff(file, CsvOptions.detect());
            context += "Troupe detected " + detected.format() + "\n";
            String duckOptions = POSTGRES_NULLS;
            if (!sniffs(file)) {
                duckOptions += ", strict_mode = false, new_line = '" + detected.lineEnding().replace("\r", "\\r")
                        .replace("\n", "\\n") + "', " + dialect(detected.format());
                context += "DuckDB cannot detect the dialect; told Troupe's: " + duckOptions + "\n";
            }
            try {
                CsvFiles.assertSameAsDuckDb(duck, file, duckOptions, table, context);
            } catch (SQLException e) {
                throw new AssertionError(context + "DuckDB: " + e.getMessage().lines().limit(3).toList(), e);
            }
        }
    }

    /** Whether DuckDB detects a dialect of {@code file}: in its strict mode it gives up on some that Troupe reads. */
    private static boolean sniffs(Path file) {
        try {
            duck.query("SELECT Delimiter FROM sniff_csv('" + file + "')");
            return true;
        } catch (SQLException e) {
            if (e.getMessage().contains("not possible to automatically detect the CSV parsing dialect")) {
                return false;
            }
            throw new AssertionError(file + ": " + e.getMessage(), e);
        }
    }

    /** DuckDB's read_csv options for {@code format}'s dialect. */
    static String dialect(DelimitedFormat format) {
        String quote = format.quote() == DelimitedFormat.NO_QUOTE ? "" : String.valueOf((char) format.quote());
        return "delim = '" + (char) format.delimiter() + "', quote = '" + quote.replace("'", "''") + "', escape = '"
                + quote.replace("'", "''") + "', header = " + format.header() + ", skip = " + format.skipRows();
    }

    /** One random file's text. Not threadsafe. */
    private static final class FileWriter {

        private final Random rnd;
        private final char delimiter;
        private final int quote;
        private final String newline;
        private final DateTimeFormatter date;
        private final DateTimeFormatter timestamp;
        private int width;

        FileWriter(Random rnd) {
            this.rnd = rnd;
            this.delimiter = ",|;\t".charAt(rnd.nextInt(4));
            int q = rnd.nextInt(5);
            this.quote = q < 3 ? '"' : q == 3 ? '\'' : DelimitedFormat.NO_QUOTE;
            this.newline = rnd.nextInt(4) == 0 ? "\r\n" : "\n";
            this.date = DateTimeFormatter.ofPattern(DATE_SPELLINGS[rnd.nextInt(DATE_SPELLINGS.length)], Locale.ROOT);
            this.timestamp = DateTimeFormatter.ofPattern(TIMESTAMP_SPELLINGS[rnd.nextInt(TIMESTAMP_SPELLINGS.length)],
                    Locale.ROOT);
        }

        String write() {
            width = 1 + rnd.nextInt(6);
            Kind[] kinds = new Kind[width];
            for (int c = 0; c < width; c++) {
                kinds[c] = Kind.values()[rnd.nextInt(Kind.values().length)];
            }
            StringBuilder out = new StringBuilder();
            if (rnd.nextInt(4) != 0) {
                List<String> names = new ArrayList<>();
                for (int c = 0; c < width; c++) {
                    names.add(NAMES[rnd.nextInt(NAMES.length)]);
                }
                if (names.stream().allMatch(String::isEmpty)) {
                    names.set(0, "first");
                }
                line(out, names);
            }
            int rows = 1 + rnd.nextInt(rnd.nextBoolean() ? 5 : 40);
            double nulls = rnd.nextInt(3) * 0.1;
            for (int r = 0; r < rows; r++) {
                List<String> fields = new ArrayList<>();
                for (int c = 0; c < width; c++) {
                    fields.add(width > 1 && rnd.nextDouble() < nulls ? null : value(kinds[c]));
                }
                line(out, fields);
                if (width > 1 && rnd.nextInt(30) == 0) {
                    out.append(newline);
                }
            }
            return out.toString();
        }

        private void line(StringBuilder out, List<String> fields) {
            for (int c = 0; c < fields.size(); c++) {
                if (c > 0) {
                    out.append(delimiter);
                }
                String v = fields.get(c);
                if (v != null) {
                    out.append(field(v));
                }
            }
            out.append(newline);
        }

        /** The field's text: quoted where it must be (or sometimes where it need not be). */
        private String field(String v) {
            boolean must = v.isEmpty() || v.chars().anyMatch(c -> ",|;\t\n\r".indexOf(c) >= 0)
                    || quote != DelimitedFormat.NO_QUOTE && v.indexOf(quote) >= 0;
            if (quote == DelimitedFormat.NO_QUOTE || !must && rnd.nextInt(6) != 0) {
                return v;
            }
            String q = String.valueOf((char) quote);
            return q + v.replace(q, q + q) + q;
        }

        private String value(Kind kind) {
            return switch (kind) {
                case BOOLEAN -> new String[] {"true", "false", "TRUE", "False", "t", "F"}[rnd.nextInt(6)];
                case BIGINT -> Long.toString(rnd.nextInt(3) == 0 ? rnd.nextLong() : rnd.nextInt(2001) - 1000);
                case HUGEINT -> new BigInteger(60 + rnd.nextInt(60), rnd).add(BigInteger.valueOf(Long.MAX_VALUE))
                        .multiply(BigInteger.valueOf(rnd.nextBoolean() ? 1 : -1)).toString();
                case DOUBLE -> Double.toString(rnd.nextInt(3) == 0 ? rnd.nextGaussian() * 1e12
                        : (rnd.nextInt(20001) - 10000) / 100.0);
                case DATE -> date.format(moment());
                case TIMESTAMP -> timestamp.format(moment());
                case TIMESTAMP_TZ -> DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).format(moment())
                        + new String[] {"+02", "-05:30", "+00", "Z"}[rnd.nextInt(4)];
                case TIME -> String.format(Locale.ROOT, "%02d:%02d:%02d", rnd.nextInt(24), rnd.nextInt(60),
                        rnd.nextInt(60)) + (rnd.nextBoolean() ? "" : ".25");
                case VARCHAR -> text();
                case MIXED -> value(new Kind[] {Kind.BIGINT, Kind.DOUBLE, Kind.DATE, Kind.BOOLEAN, Kind.VARCHAR}
                        [rnd.nextInt(5)]);
            };
        }

        private LocalDateTime moment() {
            return LocalDateTime.of(1950 + rnd.nextInt(100), 1 + rnd.nextInt(12), 1 + rnd.nextInt(28),
                    rnd.nextInt(24), rnd.nextInt(60), rnd.nextInt(60), rnd.nextInt(1000) * 1000);
        }

        /** Text that is no number, boolean or date: it starts with a letter that none of those starts with. */
        private String text() {
            StringBuilder sb = new StringBuilder("x");
            int n = rnd.nextInt(8);
            for (int i = 0; i < n; i++) {
                char c = TEXT.charAt(rnd.nextInt(TEXT.length()));
                boolean quoteChar = c == '"' || c == '\'';
                if (quote == DelimitedFormat.NO_QUOTE && (",|;\t\n".indexOf(c) >= 0 || quoteChar)
                        || quoteChar && c != quote || width == 1 && ",|;\t\n".indexOf(c) >= 0) {
                    continue;
                }
                sb.append(c);
            }
            return sb.toString().stripTrailing();
        }
    }
}
