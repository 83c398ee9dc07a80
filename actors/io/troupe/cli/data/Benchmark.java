package io.troupe.cli.data;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The benchmarks whose data {@link BenchmarkDataGenerator} makes, and how their '|'-separated
 * files are named (dsdgen writes {@code .dat}, dbgen {@code .tbl}). Immutable.
 */
public enum Benchmark {
    TPCDS("TPC-DS", ".dat"),
    TPCH("TPC-H", ".tbl");

    private final String title;
    private final String fileSuffix;

    Benchmark(String title, String fileSuffix) {
        this.title = title;
        this.fileSuffix = fileSuffix;
    }

    /** The benchmark's name as printed ("TPC-DS"). */
    public String title() {
        return title;
    }

    /** The suffix of a table's '|'-separated file. */
    public String fileSuffix() {
        return fileSuffix;
    }

    /** "tpcds" or "tpch" (any case, with or without the dash) to a benchmark. */
    public static Benchmark parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT).replace("-", "");
        if (t.equals("tpcds")) {
            return TPCDS;
        }
        if (t.equals("tpch")) {
            return TPCH;
        }
        throw new IllegalArgumentException("unknown benchmark '" + text + "'; known: tpcds, tpch");
    }

    /**
     * The names of the benchmark's tables that {@code sqls} name, as words of their text, in the generator's order:
     * what to generate for only some of its queries (a word that is also a column's name would add its table).
     */
    public List<String> tablesNamedIn(Collection<String> sqls) {
        List<String> names = new ArrayList<>();
        for (BenchmarkTable table : tables(1)) {
            Pattern word = Pattern.compile("(?i)\\b" + Pattern.quote(table.name()) + "\\b");
            if (sqls.stream().anyMatch(sql -> word.matcher(sql).find())) {
                names.add(table.name());
            }
        }
        return names;
    }

    /** Every table of the benchmark at {@code scale}, in the generator's order. */
    List<BenchmarkTable> tables(double scale) {
        return this == TPCDS ? TpcdsBenchmarkTable.all(scale) : TpchBenchmarkTable.all(scale);
    }
}
