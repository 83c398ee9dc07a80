package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The options that {@code troupe bench} and {@code troupe ablation} share (a picocli mixin): the
 * size of the data, the worker counts, the rounds ({@link Rounds}) and where the results go, with
 * their checks. Each command makes its own with its defaults. The checks run before any work (a bad
 * argument is a {@link ParameterException}: one line, exit 2); {@link #checkRows}
 * and {@link #checkWorkers} serve the other commands too.
 *
 * <p>Not threadsafe: picocli fills it and the command reads it, on one thread.
 */
final class RoundOptions {

    @Option(names = "--rows", paramLabel = "N",
            description = "rows N of w1's and w2's generated table; w3 and star ignore it (default: ${DEFAULT-VALUE})")
    long rows;

    @Option(names = "--scale", paramLabel = "SF",
            description = "TPC-DS scale factor of w3's and star's tables, > 0; w1 and w2 ignore it (default: ${DEFAULT-VALUE})")
    double scale = 1;

    @Option(names = "--workers", split = ",", paramLabel = "K",
            description = "worker counts; 0 is Troupe's leader alone (not in an ablation), peers run each K >= 1 as "
                    + "threads (default: ${DEFAULT-VALUE})")
    List<Integer> workers;

    @Option(names = "--runs", paramLabel = "R",
            description = "timed runs of each engine or setting and worker count (default: ${DEFAULT-VALUE})")
    int runs = 5;

    @Option(names = "--warmups", paramLabel = "R", description = "untimed runs before (default: ${DEFAULT-VALUE})")
    int warmups = 1;

    @Option(names = "--out", paramLabel = "DIR", description = "directory for the results (default: ${DEFAULT-VALUE})")
    Path out = Path.of("bench-results");

    /** Options whose --rows and --workers default to {@code rows} and {@code workers}. */
    RoundOptions(long rows, List<Integer> workers) {
        this.rows = rows;
        this.workers = new ArrayList<>(workers);
    }

    /**
     * These options where the command line ({@code parsed}) gave them, {@code defaults}' elsewhere:
     * {@code bench --ablation} runs with the ablation's defaults but for what its caller gave.
     */
    RoundOptions givenOr(ParseResult parsed, RoundOptions defaults) {
        RoundOptions chosen = new RoundOptions(parsed.hasMatchedOption("--rows") ? rows : defaults.rows,
                parsed.hasMatchedOption("--workers") ? workers : defaults.workers);
        chosen.scale = parsed.hasMatchedOption("--scale") ? scale : defaults.scale;
        chosen.runs = parsed.hasMatchedOption("--runs") ? runs : defaults.runs;
        chosen.warmups = parsed.hasMatchedOption("--warmups") ? warmups : defaults.warmups;
        chosen.out = parsed.hasMatchedOption("--out") ? out : defaults.out;
        return chosen;
    }

    /** The size of the generated data these options ask for. */
    BenchSize size() {
        return new BenchSize(rows, scale);
    }

    /**
     * Checks every option (the worker counts against {@code minWorkers}, and {@code whyMin} says why
     * when it is above 0) and returns the worker counts, ascending, without repeats.
     *
     * @throws ParameterException naming the option and its bad value
     */
    List<Integer> check(CommandSpec spec, int minWorkers, String whyMin) {
        List<Integer> counts = checkWorkers(spec, workers, minWorkers, whyMin);
        checkRows(spec, rows);
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw bad(spec, "--scale must be a positive scale factor, got " + scale);
        }
        if (runs < 1) {
            throw bad(spec, "--runs must be at least 1, got " + runs);
        }
        if (warmups < 0) {
            throw bad(spec, "--warmups must be 0 or more, got " + warmups);
        }
        return counts;
    }

    /** @throws ParameterException unless {@code rows} fits a generated INT32 column */
    static long checkRows(CommandSpec spec, long rows) {
        if (rows < 1 || rows > Integer.MAX_VALUE) {
            throw bad(spec, "--rows must be in 1.." + Integer.MAX_VALUE + " (an INT32 column), got " + rows);
        }
        return rows;
    }

    /**
     * {@code counts} ascending without repeats.
     *
     * @param whyMin why counts below {@code min} are refused, named in the error; "" when min is 0
     * @throws ParameterException unless every count is in min..{@link QueryOptions#MAX_WORKERS}
     */
    static List<Integer> checkWorkers(CommandSpec spec, List<Integer> counts, int min, String whyMin) {
        if (counts.isEmpty()) {
            throw bad(spec, "--workers needs at least one worker count");
        }
        for (int k : counts) {
            if (k < min || k > QueryOptions.MAX_WORKERS) {
                throw bad(spec, "--workers must be in " + min + ".." + QueryOptions.MAX_WORKERS + whyMin
                        + ", got " + k);
            }
        }
        return List.copyOf(new TreeSet<>(counts));
    }

    static ParameterException bad(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
