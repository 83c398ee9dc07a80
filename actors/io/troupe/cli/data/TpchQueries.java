package io.troupe.cli.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The 22 TPC-H queries (spec 2.18, section 2.4) with the validation run's substitution parameters, as SQL text
 * that Troupe and DuckDB both read: {@code tpch/qNN.sql} beside this class. Where a query's ORDER BY leaves ties
 * and a LIMIT cuts among them (q3, q10, q18) or the rows are compared in order (q11), a key was appended to the
 * ORDER BY so that every engine returns the same rows in the same order; q15's view is a WITH; q11's column
 * alias {@code value}, a reserved word of standard SQL, is quoted. Immutable.
 */
public final class TpchQueries {

    /** A query: its name ({@code q1}..{@code q22}), its text, and whether its ORDER BY orders every row. */
    public record Query(String name, String sql, boolean ordered) {
    }

    /** q6, q14, q17 and q19 return one row; every other query orders its rows totally. */
    private static final List<Integer> UNORDERED = List.of(6, 14, 17, 19);

    private static final List<Query> ALL = load();

    private TpchQueries() {
    }

    public static List<Query> all() {
        return ALL;
    }

    private static List<Query> load() {
        List<Query> queries = new ArrayList<>(22);
        for (int n = 1; n <= 22; n++) {
            String file = String.format(Locale.ROOT, "tpch/q%02d.sql", n);
            try (InputStream in = TpchQueries.class.getResourceAsStream(file)) {
                if (in == null) {
                    throw new IllegalStateException("TPC-H query " + file + " is missing beside " + TpchQueries.class);
                }
                queries.add(new Query("q" + n, new String(in.readAllBytes(), StandardCharsets.UTF_8).strip(),
                        !UNORDERED.contains(n)));
            } catch (IOException e) {
                throw new UncheckedIOException("reading TPC-H query " + file, e);
            }
        }
        return List.copyOf(queries);
    }
}
