package io.troupe.cli.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The TPC-DS queries (spec 3.2) as SQL text that Troupe and DuckDB both read. The texts are the TPC-DS kit's
 * templates with the qualification parameters substituted, as Apache Spark's tests carry them: the build unpacks
 * {@code tpcds/q*.sql} of {@code spark-sql_2.13}'s test jar beside this class (pom.xml; they are not ours to
 * commit). Queries 14, 23, 24 and 39 come in two parts, {@code q14a} and {@code q14b}. The star joins q3, q7,
 * q19, q42, q52, q55 and q96 are kept apart (docs/tpcds.md), so they are not here: 96 texts.
 *
 * <p>Spark's dialect differs from the standard SQL that Calcite and DuckDB read in three spellings, translated
 * here and nowhere else: an interval {@code INTERVAL 30 days} is {@code INTERVAL '30' DAY}; an identifier quoted in
 * backticks ({@code `order count`}) is quoted in double quotes; and the names {@code returns}, {@code year} (of
 * columns) and {@code at} (of a subquery), which Spark lets stand bare but standard SQL (returns, year) or DuckDB
 * (at) reserve, are quoted. And q30 reads customer's {@code c_last_review_date}, the name of a column that the
 * spec's table calls {@code c_last_review_date_sk} (later kits' q30 spells it so): it reads the latter.
 *
 * <p>Spark's {@code /} of two integers is a DOUBLE, as DuckDB's; Troupe's is standard SQL's, an integer that
 * truncates (q21's and q34's ratios). Whoever compares the two engines sets DuckDB's {@code integer_division}.
 * Immutable.
 */
public final class TpcdsQueries {

    /**
     * A query: its name ({@code q1}..{@code q99}, {@code q14a}..), its text in standard SQL, and whether it has an
     * ORDER BY of its own (twelve return their rows in no order, most of them one row).
     */
    public record Query(String name, String sql, boolean ordered) {
    }

    /** The queries kept apart (docs/tpcds.md). */
    private static final Set<Integer> KEPT_APART = Set.of(3, 7, 19, 42, 52, 55, 96);
    /** The queries in two parts, a and b. */
    private static final Set<Integer> TWO_PARTS = Set.of(14, 23, 24, 39);

    private static final Pattern INTERVAL = Pattern.compile("(?i)\\binterval\\s+(\\d+)\\s+days?\\b");
    private static final Pattern BACKTICKS = Pattern.compile("`([^`]*)`");
    private static final Pattern RESERVED = Pattern.compile("(?i)\\b(returns|year|at)\\b");
    private static final Pattern REVIEW_DATE = Pattern.compile("\\bc_last_review_date\\b");

    private static final List<Query> ALL = load();

    private TpcdsQueries() {
    }

    public static List<Query> all() {
        return ALL;
    }

    /** The query called {@code name} ({@code q1}, {@code q14a}). */
    public static Query named(String name) {
        return ALL.stream().filter(q -> q.name().equals(name)).findFirst().orElseThrow(
                () -> new IllegalArgumentException("no TPC-DS query '" + name + "'"));
    }

    /** Spark's spelling of {@code sql} in standard SQL: intervals, quoted identifiers, reserved words as names. */
    static String standard(String sql) {
        String text = INTERVAL.matcher(sql).replaceAll("INTERVAL '$1' DAY");
        text = RESERVED.matcher(text).replaceAll(m -> "\"" + m.group(1).toLowerCase(Locale.ROOT) + "\"");
        text = REVIEW_DATE.matcher(text).replaceAll("c_last_review_date_sk");
        return BACKTICKS.matcher(text).replaceAll(m -> Matcher.quoteReplacement("\"" + m.group(1) + "\""));
    }

    private static List<Query> load() {
        List<Query> queries = new ArrayList<>();
        for (int n = 1; n <= 99; n++) {
            if (KEPT_APART.contains(n)) {
                continue;
            }
            for (String part : TWO_PARTS.contains(n) ? List.of("a", "b") : List.of("")) {
                String name = "q" + n + part;
                String sql = standard(read("tpcds/" + name + ".sql"));
                queries.add(new Query(name, sql, ordersAtTop(sql)));
            }
        }
        return List.copyOf(queries);
    }

    /** Whether {@code sql} has an ORDER BY outside every parenthesis and string literal. */
    static boolean ordersAtTop(String sql) {
        String text = sql.toUpperCase(Locale.ROOT);
        int depth = 0;
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')') {
                depth--;
            } else if (!quoted && depth == 0 && text.startsWith("ORDER BY", i)) {
                return true;
            }
        }
        return false;
    }

    private static String read(String file) {
        try (InputStream in = TpcdsQueries.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("TPC-DS query " + file + " is missing beside " + TpcdsQueries.class
                        + ": the build unpacks it from Spark's test jar (pom.xml, execution tpcds-queries)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("reading TPC-DS query " + file, e);
        }
    }
}
