package io.troupe.cli;

import io.troupe.cli.data.Benchmark;
import io.troupe.cli.data.BenchmarkDataGenerator;
import io.troupe.cli.data.BenchmarkDataGenerator.GeneratedData;
import io.troupe.cli.data.GenerationProgress;
import io.troupe.operators.table.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code troupe generate}: makes TPC-DS or TPC-H tables at a scale factor with the generators on
 * Maven Central, in parallel, straight into Troupe's columnar tables; prints a summary (tables,
 * rows, seconds) and, with {@code --out}, writes each table as a '|'-separated file. A progress
 * bar on stderr while it runs (plain lines when stderr is not a terminal); the summary on stdout.
 * Every argument is checked before anything is generated (--out made and proved writable); a bad one
 * exits with 2.
 */
@Command(name = "generate", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Generate TPC-DS or TPC-H tables into Troupe's columnar tables (and '|' files).")
final class GenerateCommand implements Callable<Integer> {

    /** How often the waiting thread redraws the progress bar. */
    private static final long PROGRESS_MILLIS = 250;
    /** More generator threads than this only queue behind each other: a bound that catches a typo. */
    private static final int MAX_THREADS = 1024;

    @Option(names = "--benchmark", required = true, paramLabel = "B", description = "tpcds or tpch")
    String benchmark;

    @Option(names = "--scale", paramLabel = "SF", description = "scale factor (default: ${DEFAULT-VALUE})")
    double scale = 1;

    @Option(names = "--tables", split = ",", paramLabel = "T",
            description = "tables to generate (default: all of the benchmark's)")
    List<String> tables = List.of();

    @Option(names = "--threads", paramLabel = "N",
            description = "generator threads (default: the available processors)")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--out", paramLabel = "DIR",
            description = "also write every table to DIR/<table>.dat (TPC-DS) or .tbl (TPC-H), '|'-separated")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Benchmark chosen;
        try {
            chosen = Benchmark.parse(benchmark);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw bad("--scale must be a positive scale factor, got " + scale);
        }
        if (threads < 1 || threads > MAX_THREADS) {
            throw bad("--threads must be in 1.." + MAX_THREADS + ", got " + threads);
        }
        List<String> known = BenchmarkDataGenerator.tableNames(chosen);
        for (String t : tables) {
            if (!known.contains(t.trim().toLowerCase(Locale.ROOT))) {
                throw bad("no " + chosen.title() + " table '" + t + "'; its tables: " + String.join(", ", known));
            }
        }
        if (out != null) {
            OutDirectory.prepare(spec, out);
        }
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        GeneratedData data = generateWithProgress(chosen, scale, tables, threads, err);
        stdout.printf(Locale.ROOT, "%s, scale factor %s, %d threads: %d tables, %,d rows in %.2f s%n",
                chosen.title(), scale, threads, data.tables().size(), data.rowCount(), data.seconds());
        for (Table t : data.tables()) {
            stdout.printf(Locale.ROOT, "  %-24s %,14d rows  %3d columns%n", t.name(), t.rowCount(), t.schema().size());
        }
        if (out != null) {
            long t0 = System.nanoTime();
            List<Path> files = BenchmarkDataGenerator.writeDelimited(data, out, threads);
            stdout.printf(Locale.ROOT, "wrote %d '|'-separated files to %s in %.2f s%n", files.size(), out,
                    (System.nanoTime() - t0) / 1e9);
        }
        stdout.flush();
        return 0;
    }

    /**
     * Generates {@code tables} of {@code chosen} on a thread of its own while this one draws the
     * progress bar on {@code err} (bench uses it too, for its TPC-DS workload).
     */
    static GeneratedData generateWithProgress(Benchmark chosen, double scale, List<String> tables, int threads,
                                              PrintWriter err) throws InterruptedException {
        GenerationProgress progress = new GenerationProgress();
        ProgressBar bar = new ProgressBar(err, "generate " + chosen.title() + " SF " + scale,
                System.console() != null, progress::fraction, progress::rowsDone);
        ExecutorService driver = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "troupe-generate-driver");
            t.setDaemon(true);
            return t;
        });
        try {
            CompletableFuture<GeneratedData> result = CompletableFuture.supplyAsync(
                    () -> BenchmarkDataGenerator.generate(chosen, scale, tables, threads, progress), driver);
            while (true) {
                try {
                    GeneratedData data = result.get(PROGRESS_MILLIS, TimeUnit.MILLISECONDS);
                    bar.done();
                    return data;
                } catch (TimeoutException e) {
                    bar.update();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                }
            }
        } finally {
            driver.shutdownNow();
        }
    }

    private ParameterException bad(String message) {
        return RoundOptions.bad(spec, message);
    }
}
