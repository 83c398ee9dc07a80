package io.troupe.cli.data;

import io.troupe.operators.TroupeException;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.ScanShare;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.DelimitedFileWriter;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Generates TPC-DS or TPC-H tables at a scale factor straight into Troupe's columnar
 * {@link Table}s, in parallel: every table is cut into parts ({@link BenchmarkTable#parts}), the
 * parts run on a pool of threads (largest first, so that the long ones start early), each part
 * parses its generator's values into column vectors, and a table is its parts' batches in part
 * order: the same rows, in the same order, as one sequential run of the generator. A TPC-DS sales
 * table chosen with its returns table makes both in one pass (dsdgen's way; the returns are
 * made from the sales' orders, so alone they cost a second run of the sales generator). With
 * {@link #writeDelimited}, the tables are also written as the generators' '|'-separated files.
 *
 * <pre>{@code
 * GeneratedData data = BenchmarkDataGenerator.generate(Benchmark.TPCDS, 1, List.of("date_dim"), 4,
 *         new GenerationProgress());
 * data.registerInto(catalog);
 * }</pre>
 *
 * <p>Stateless and threadsafe; each call owns its pool and shuts it down before it returns, also
 * when a part fails (the first failure is rethrown, naming the table and part).
 */
public final class BenchmarkDataGenerator {

    /** Rows a part is planned to hold: big enough to amortise a generator's start, small enough to balance. */
    static final long ROWS_PER_PART = 250_000;
    /** The parts per share, at least, of a table generated in shares: a node's part is not one big part or none. */
    static final int PARTS_PER_SHARE = 4;

    /** The tables made by one {@link #generate} call, in the benchmark's order. Immutable. */
    public record GeneratedData(Benchmark benchmark, double scale, List<Table> tables, double seconds) {

        public GeneratedData {
            tables = List.copyOf(tables);
        }

        /** The table called {@code name} (any case). */
        public Table table(String name) {
            for (Table t : tables) {
                if (t.name().equalsIgnoreCase(name)) {
                    return t;
                }
            }
            throw new IllegalArgumentException("no table '" + name + "' was generated; generated: " + tableNames());
        }

        public List<String> tableNames() {
            return tables.stream().map(Table::name).toList();
        }

        public long rowCount() {
            return tables.stream().mapToLong(Table::rowCount).sum();
        }

        /** Registers every table in {@code catalog} under its name. */
        public void registerInto(Catalog catalog) {
            tables.forEach(catalog::register);
        }
    }

    private BenchmarkDataGenerator() {
    }

    /** The names of the benchmark's tables, in its order. */
    public static List<String> tableNames(Benchmark benchmark) {
        return benchmark.tables(1).stream().map(BenchmarkTable::name).toList();
    }

    /** The benchmark's tables, empty: their names and schemas, to check names and columns against. */
    public static List<Table> emptyTables(Benchmark benchmark) {
        return benchmark.tables(1).stream().map(t -> new Table(t.name(), t.schema(), List.of())).toList();
    }

    /**
     * Generates {@code tables} (every table of the benchmark when empty) of {@code benchmark} at
     * scale factor {@code scale} on {@code threads} threads, reporting rows to {@code progress}.
     *
     * @throws IllegalArgumentException for an unknown table name or a scale factor that is not positive
     * @throws TroupeException (QUERY) when the generator fails, naming the table and part
     */
    public static GeneratedData generate(Benchmark benchmark, double scale, List<String> tables, int threads,
                                         GenerationProgress progress) {
        return generate(benchmark, scale, tables, threads, progress, Map.of());
    }

    /**
     * Generates as {@link #generate(Benchmark, double, List, int, GenerationProgress)} does, but of each table
     * in {@code shares} only that share of its generator's parts ({@link ScanShare#index()},
     * {@code index + count}, ...): node {@code index} of {@code count} nodes makes its part of the table,
     * and the nodes' parts together are the whole table once. A table shared this way is cut into at least
     * {@link #PARTS_PER_SHARE} parts per share where it can be split (a table that cannot, or of 25 rows or
     * fewer, is one part: the first share holds it all). A TPC-DS returns table in shares is made by its own
     * parts, not in its sales table's pass.
     */
    public static GeneratedData generate(Benchmark benchmark, double scale, List<String> tables, int threads,
                                         GenerationProgress progress, Map<String, ScanShare> shares) {
        if (!(scale > 0)) {
            throw new IllegalArgumentException("scale factor must be positive: " + scale);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive: " + threads);
        }
        long start = System.nanoTime();
        List<BenchmarkTable> chosen = choose(benchmark, scale, tables);
        record Task(BenchmarkTable table, BenchmarkTable.Part part, boolean withCompanion) {
        }
        List<Task> tasks = new ArrayList<>();
        long expected = 0;
        // A sales table makes its returns in the same pass, unless either is made in shares: each share of
        // a table is then cut from its own parts, the same however the table is made (re-made alone later).
        Function<BenchmarkTable, ScanShare> shareOf = t -> shares.getOrDefault(t.name(), ScanShare.WHOLE);
        Predicate<BenchmarkTable> paired = t -> t.companion() != null && chosen.contains(t.companion())
                && shareOf.apply(t).equals(ScanShare.WHOLE) && shareOf.apply(t.companion()).equals(ScanShare.WHOLE);
        for (BenchmarkTable t : chosen) {
            ScanShare share = shareOf.apply(t);
            expected += t.estimatedRows() / share.count();
            if (chosen.stream().anyMatch(other -> other.companion() == t && paired.test(other))) {
                continue; // its rows come with its sales table's
            }
            boolean withCompanion = paired.test(t);
            long rowsPerPart = share.count() == 1 ? ROWS_PER_PART : Math.max(1, Math.min(ROWS_PER_PART,
                    t.estimatedRows() / ((long) PARTS_PER_SHARE * share.count())));
            List<BenchmarkTable.Part> parts = t.parts(rowsPerPart);
            for (int i = share.index(); i < parts.size(); i += share.count()) {
                tasks.add(new Task(t, parts.get(i), withCompanion));
            }
        }
        progress.expect(expected);
        tasks.sort(Comparator.comparingLong((Task t) -> t.part().estimatedRows()).reversed());
        ExecutorService pool = newPool(threads, "troupe-generate");
        try {
            Map<Task, Future<List<List<Batch>>>> running = new LinkedHashMap<>();
            for (Task t : tasks) {
                running.put(t, pool.submit(() -> t.table().generate(t.part(), TableBuilder.DEFAULT_CHUNK_ROWS,
                        progress.rows, t.withCompanion())));
            }
            // each table's batches by part index: the parts in order are one sequential run
            Map<BenchmarkTable, SortedMap<Integer, List<Batch>>> parts = new HashMap<>();
            for (Map.Entry<Task, Future<List<List<Batch>>>> e : running.entrySet()) {
                Task t = e.getKey();
                List<List<Batch>> made = await(benchmark, t.table().name(), t.part(), e.getValue());
                parts.computeIfAbsent(t.table(), k -> new TreeMap<>()).put(t.part().index(), made.get(0));
                if (t.withCompanion()) {
                    parts.computeIfAbsent(t.table().companion(), k -> new TreeMap<>()).put(t.part().index(), made.get(1));
                }
            }
            List<Table> built = new ArrayList<>();
            for (BenchmarkTable t : chosen) {
                List<Batch> batches = new ArrayList<>();
                parts.getOrDefault(t, new TreeMap<>()).values().forEach(batches::addAll);
                built.add(new Table(t.name(), t.schema(), batches));
            }
            return new GeneratedData(benchmark, scale, built, (System.nanoTime() - start) / 1e9);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Writes every table of {@code data} to {@code dir}/{@code name}{@link Benchmark#fileSuffix()}
     * in the generators' '|'-separated format (loadable with
     * {@link io.troupe.operators.table.DelimitedFormat#tpc()}), one table per thread.
     *
     * @return the files written, in the tables' order
     */
    public static List<Path> writeDelimited(GeneratedData data, Path dir, int threads) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new TroupeException(TroupeException.Category.QUERY, "cannot create directory " + dir + ": " + e, e);
        }
        ExecutorService pool = newPool(threads, "troupe-write");
        try {
            List<Path> files = new ArrayList<>();
            List<Future<?>> writes = new ArrayList<>();
            for (Table t : data.tables()) {
                Path file = dir.resolve(t.name() + data.benchmark().fileSuffix());
                files.add(file);
                writes.add(pool.submit(() -> DelimitedFileWriter.write(t, file)));
            }
            for (int i = 0; i < writes.size(); i++) {
                try {
                    writes.get(i).get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof RuntimeException r ? r
                            : new TroupeException(TroupeException.Category.QUERY, "writing " + files.get(i)
                            + " failed: " + e.getCause(), e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TroupeException(TroupeException.Category.QUERY, "interrupted writing " + files.get(i), e);
                }
            }
            return files;
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<BenchmarkTable> choose(Benchmark benchmark, double scale, List<String> names) {
        List<BenchmarkTable> all = benchmark.tables(scale);
        if (names.isEmpty()) {
            return all;
        }
        List<BenchmarkTable> chosen = new ArrayList<>();
        for (String name : names) {
            String wanted = name.trim().toLowerCase(Locale.ROOT);
            BenchmarkTable found = all.stream().filter(t -> t.name().equals(wanted)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no " + benchmark.title() + " table '" + name
                            + "'; its tables: " + all.stream().map(BenchmarkTable::name).toList()));
            if (!chosen.contains(found)) {
                chosen.add(found);
            }
        }
        return chosen;
    }

    private static <T> T await(Benchmark benchmark, String table, BenchmarkTable.Part part, Future<T> result) {
        try {
            return result.get();
        } catch (ExecutionException e) {
            throw new TroupeException(TroupeException.Category.QUERY, benchmark.title() + " " + table + ", part "
                    + (part.index() + 1) + " of " + part.count() + ": generation failed: " + e.getCause().getMessage(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TroupeException(TroupeException.Category.QUERY, "interrupted generating " + benchmark.title()
                    + " " + table, e);
        }
    }

    /** Daemon threads, so that a generation abandoned by an interrupt never holds the JVM up. */
    private static ExecutorService newPool(int threads, String name) {
        AtomicInteger next = new AtomicInteger();
        return Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, name + "-" + next.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }
}
