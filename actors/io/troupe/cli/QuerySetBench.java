package io.troupe.cli;

import io.troupe.actors.api.Troupe;
import io.troupe.cli.data.Benchmark;
import io.troupe.cli.data.TpcdsQueries;
import io.troupe.cli.data.TpchQueries;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.sql.SqlException;
import io.troupe.operators.table.Table;

import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code troupe bench --workload tpch} and {@code --workload tpcds}: a benchmark's queries ({@link TpchQueries},
 * {@link TpcdsQueries}) from their SQL text, on Troupe and on DuckDB in the same rounds, over the same tables
 * generated at the scale factor. A query that Troupe does not plan (what its SQL does not run yet, a
 * {@link SqlException}), or that an engine fails on the data (a division by zero at a small scale), is skipped, and
 * the table says why; it does not stop the bench. A disagreement does. Each Troupe run plans the
 * statement afresh ({@link Troupe#planSql}) and times planning and execution apart; DuckDB's time is its whole
 * statement, as a client sees it (its planning is inside and takes a millisecond or two). After loading, Troupe
 * reads every table's statistics ({@link Troupe#analyze}), untimed, as a user would.
 *
 * <p>Every run of a query must return the same number of rows as DuckDB's first, and a checksum (the sum of every
 * numeric value) within a relative 1e-9 of it: the engines agree on exact decimals, but an AVG is a DOUBLE in
 * DuckDB and rounds in its last digits. Writes DIR/ID.csv (one line per run) and prints, per query and worker
 * count, the medians and Troupe/DuckDB, and the geometric mean of those ratios.
 *
 * <p>Not threadsafe; owns its Troupe and its DuckDB connection and closes them.
 */
final class QuerySetBench {

    /** A query of a set: its name ({@code q1}) and its SQL text. */
    record Query(String name, String sql) {
    }

    /**
     * A workload: its id ({@code tpch}, the CSV's name), the benchmark whose tables it reads (those its queries
     * name are generated), and its queries.
     */
    record QuerySet(String id, Benchmark benchmark, List<Query> queries) {

        /** The ids of {@link #named}. */
        static final List<String> IDS = List.of("tpch", "tpcds");

        /** The set called {@code id} (any case), or null. */
        static QuerySet named(String id) {
            return switch (id.toLowerCase(Locale.ROOT)) {
                case "tpch" -> new QuerySet("tpch", Benchmark.TPCH,
                        TpchQueries.all().stream().map(q -> new Query(q.name(), q.sql())).toList());
                case "tpcds" -> new QuerySet("tpcds", Benchmark.TPCDS,
                        TpcdsQueries.all().stream().map(q -> new Query(q.name(), q.sql())).toList());
                default -> null;
            };
        }

        /** This set with only the queries {@code names}, in the set's order; all if none is named. */
        QuerySet only(List<String> names) {
            List<String> known = queries.stream().map(Query::name).toList();
            for (String name : names) {
                if (!known.contains(name)) {
                    throw new IllegalArgumentException("unknown query '" + name + "' in --queries (" + id
                            + " has " + String.join(", ", known) + ")");
                }
            }
            return names.isEmpty() ? this : new QuerySet(id, benchmark,
                    queries.stream().filter(q -> names.contains(q.name())).toList());
        }
    }

    /** The CSV's header; one line per timed run. */
    static final String HEADER = "query,engine,workers,run,plan_seconds,seconds,rows,checksum";

    /** How far two engines' checksums of a query may be apart, relatively (DuckDB's AVGs are DOUBLEs). */
    private static final double RELATIVE = 1e-9;

    private record Run(String query, String engine, int workers, int round, double planSeconds, double seconds,
                       long rows, BigDecimal checksum) {
    }

    private final QuerySet set;
    private final double scale;
    private final List<Integer> workerCounts;
    private final int warmups;
    private final int runs;
    private final String duckDbUrl;
    private final PrintWriter err;
    private final List<Run> timed = new ArrayList<>();
    /** The queries skipped, and why. */
    private final Map<String, String> skipped = new LinkedHashMap<>();

    QuerySetBench(QuerySet set, double scale, List<Integer> workerCounts, int warmups, int runs, String duckDbUrl,
                  PrintWriter err) {
        this.set = set;
        this.scale = scale;
        this.workerCounts = List.copyOf(workerCounts);
        this.warmups = warmups;
        this.runs = runs;
        this.duckDbUrl = duckDbUrl;
        this.err = err;
    }

    /** Runs the rounds; writes {@code out}/ID.csv and prints the table to {@code stdout}. */
    void run(Path out, PrintWriter stdout) throws Exception {
        long t0 = System.nanoTime();
        List<String> names = set.benchmark().tablesNamedIn(set.queries().stream().map(Query::sql).toList());
        List<Table> tables = GenerateCommand.generateWithProgress(set.benchmark(), scale, names,
                Runtime.getRuntime().availableProcessors(), err).tables();
        Rounds.progress(err, "bench", "%s: SF %s generated in %.2f s", set.id(), scaleText(), Rounds.seconds(t0));
        try (Troupe troupe = Troupe.start(); Connection duck = DuckDbBenchEngine.connect(duckDbUrl)) {
            long t1 = System.nanoTime();
            for (Table table : tables) {
                troupe.register(table);
                troupe.analyze(table.name());
            }
            Rounds.progress(err, "bench", "%s: troupe: loaded and analysed in %.2f s", set.id(), Rounds.seconds(t1));
            long t2 = System.nanoTime();
            DuckDbBenchEngine.loadTables(duck, tables);
            try (Statement s = duck.createStatement()) {
                // Troupe's / of two integers truncates, as standard SQL's; DuckDB's is a DOUBLE unless told so.
                s.execute("SET integer_division = true");
            }
            Rounds.progress(err, "bench", "%s: duckdb: loaded in %.2f s", set.id(), Rounds.seconds(t2));
            for (Query query : set.queries()) {
                if (plans(query, troupe)) {
                    runQuery(query, troupe, duck);
                }
            }
        }
        Path csv = out.resolve(set.id() + ".csv");
        writeCsv(csv);
        stdout.printf(Locale.ROOT, "troupe bench: %s SF %s; %d timed runs after %d warm-up(s), engines alternating, "
                + "%d processors; troupe's seconds are execution only, its planning apart (plan); duckdb's the whole "
                + "statement%n", set.id(), scaleText(), runs, warmups, Runtime.getRuntime().availableProcessors());
        stdout.print(table());
        stdout.printf("wrote %s%n", csv);
        stdout.flush();
    }

    /** Whether Troupe plans {@code query}; if not, it is skipped, with Troupe's reason. */
    private boolean plans(Query query, Troupe troupe) {
        try {
            troupe.planSql(query.sql());
            return true;
        } catch (SqlException e) {
            skip(query, e.getMessage().lines().findFirst().orElse(""));
            return false;
        }
    }

    private void skip(Query query, String why) {
        skipped.put(query.name(), why);
        Rounds.progress(err, "bench", "%s %s: skipped: %s", set.id(), query.name(), why);
    }

    private void runQuery(Query query, Troupe troupe, Connection duck) throws Exception {
        BenchOutcome[] reference = new BenchOutcome[1];
        List<Rounds.Slot> slots = new ArrayList<>();
        for (int k : workerCounts) {
            if (k >= 1) {
                slots.add(slot(query, "duckdb", k, reference, () -> duckDb(duck, query.sql(), k), null));
            }
        }
        for (int k : workerCounts) {
            double[] planSeconds = new double[1];
            slots.add(slot(query, "troupe", k, reference, () -> {
                long p0 = System.nanoTime();
                Plan plan = troupe.planSql(query.sql());
                planSeconds[0] = Rounds.seconds(p0);
                return TroupeBenchEngine.time(troupe, plan, k);
            }, planSeconds));
        }
        try {
            Rounds.run(slots, warmups, runs, "bench", set.id() + " " + query.name(), err);
        } catch (SQLException | QueryFailedException e) {
            // An engine refused the data, as both do a division by zero: the query is skipped, not the bench.
            String engine = e instanceof SQLException ? "duckdb" : "troupe";
            skip(query, engine + " failed: " + e.getMessage().lines().findFirst().orElse(""));
            timed.removeIf(r -> r.query().equals(query.name()));
        }
    }

    /** A run of one engine at {@code k}, checked against the query's first answer and kept when timed. */
    private Rounds.Slot slot(Query query, String engine, int k, BenchOutcome[] reference,
                             Timed timedRun, double[] planSeconds) {
        return new Rounds.Slot() {
            @Override
            public String name() {
                return engine + "/" + k;
            }

            @Override
            public BenchOutcome run() throws Exception {
                BenchOutcome outcome = timedRun.run();
                if (reference[0] == null) {
                    reference[0] = outcome;
                } else if (!agree(reference[0], outcome)) {
                    throw new BenchMismatchException(String.format(Locale.ROOT, "%s %s: %s with %d workers returned "
                            + "%d rows, checksum %s, but the first run returned %d rows, checksum %s", set.id(),
                            query.name(), engine, k, outcome.rows(), outcome.checksum().toPlainString(),
                            reference[0].rows(), reference[0].checksum().toPlainString()));
                }
                return outcome;
            }

            @Override
            public void record(int round, BenchOutcome outcome) {
                timed.add(new Run(query.name(), engine, k, round, planSeconds == null ? 0 : planSeconds[0],
                        outcome.seconds(), outcome.rows(), outcome.checksum()));
            }
        };
    }

    private interface Timed {
        BenchOutcome run() throws Exception;
    }

    static boolean agree(BenchOutcome a, BenchOutcome b) {
        if (a.rows() != b.rows()) {
            return false;
        }
        BigDecimal diff = a.checksum().subtract(b.checksum()).abs();
        BigDecimal scaleOf = a.checksum().abs().max(b.checksum().abs());
        return diff.compareTo(scaleOf.multiply(BigDecimal.valueOf(RELATIVE), MathContext.DECIMAL64)) <= 0;
    }

    private static BenchOutcome duckDb(Connection duck, String sql, int threads) throws SQLException {
        try (Statement s = duck.createStatement()) {
            s.execute("SET threads = " + threads);
            long t0 = System.nanoTime();
            try (ResultSet rs = s.executeQuery(sql)) {
                return DuckDbBenchEngine.readAll(rs, t0);
            }
        }
    }

    private void writeCsv(Path csv) throws IOException {
        List<String> lines = new ArrayList<>(List.of(HEADER));
        for (Run r : timed) {
            lines.add(String.format(Locale.ROOT, "%s,%s,%d,%d,%.6f,%.6f,%d,%s", r.query(), r.engine(), r.workers(),
                    r.round(), r.planSeconds(), r.seconds(), r.rows(), r.checksum().toPlainString()));
        }
        Files.write(csv, lines);
    }

    /**
     * Per query and worker count: medians, Troupe/DuckDB, or why the query was skipped; then the geometric mean of the
     * ratios per worker count.
     */
    String table() {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-5s %7s %10s %10s %10s %14s%n", "query",
                "workers", "plan", "troupe", "duckdb", "troupe/duckdb"));
        Map<Integer, List<Double>> ratios = new LinkedHashMap<>();
        for (Query q : set.queries()) {
            if (skipped.containsKey(q.name())) {
                sb.append(String.format(Locale.ROOT, "%-5s skipped: %s%n", q.name(), skipped.get(q.name())));
                continue;
            }
            for (int k : workerCounts) {
                double troupe = median(q.name(), "troupe", k, false);
                double plan = median(q.name(), "troupe", k, true);
                double duck = median(q.name(), "duckdb", k, false);
                if (Double.isNaN(troupe)) {
                    continue;
                }
                String ratio = "";
                if (!Double.isNaN(duck)) {
                    ratios.computeIfAbsent(k, x -> new ArrayList<>()).add(troupe / duck);
                    ratio = String.format(Locale.ROOT, "%.2fx", troupe / duck);
                }
                sb.append(String.format(Locale.ROOT, "%-5s %7d %10.3f %10.3f %10s %14s%n", q.name(), k, plan, troupe,
                        Double.isNaN(duck) ? "" : String.format(Locale.ROOT, "%.3f", duck), ratio));
            }
        }
        ratios.forEach((k, list) -> sb.append(String.format(Locale.ROOT, "geometric mean of troupe/duckdb at %d "
                + "workers over %d queries: %.2fx%n", k, list.size(), geometricMean(list))));
        if (!skipped.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "%d of %d queries skipped%n", skipped.size(),
                    set.queries().size()));
        }
        return sb.toString();
    }

    private double median(String query, String engine, int workers, boolean plan) {
        double[] xs = timed.stream().filter(r -> r.query().equals(query) && r.engine().equals(engine)
                && r.workers() == workers).mapToDouble(r -> plan ? r.planSeconds() : r.seconds()).sorted().toArray();
        if (xs.length == 0) {
            return Double.NaN;
        }
        return xs.length % 2 == 1 ? xs[xs.length / 2] : (xs[xs.length / 2 - 1] + xs[xs.length / 2]) / 2;
    }

    static double geometricMean(List<Double> values) {
        return Math.exp(values.stream().mapToDouble(Math::log).average().orElse(Double.NaN));
    }

    private String scaleText() {
        return BigDecimal.valueOf(scale).stripTrailingZeros().toPlainString();
    }
}
