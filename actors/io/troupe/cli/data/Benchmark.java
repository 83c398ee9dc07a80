package io.troupe.cli.data;

import java.util.List;
import java.util.Locale;

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

    /** Every table of the benchmark at {@code scale}, in the generator's order. */
    List<BenchmarkTable> tables(double scale) {
        return this == TPCDS ? TpcdsBenchmarkTable.all(scale) : TpchBenchmarkTable.all(scale);
    }
}
