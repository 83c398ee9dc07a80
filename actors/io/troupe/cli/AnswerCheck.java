package io.troupe.cli;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The first answer each workload gave in a bench, which every later run of it (warm-ups too, any
 * engine, setting or worker count) must repeat in rows and checksum: a run that computes a wrong
 * answer makes every timing of the bench meaningless. Used by {@code troupe bench}, its ablation and
 * {@code troupe loadtest} alike, so that all fail with the same message.
 *
 * <p>Not threadsafe: a bench checks its runs on its one thread.
 */
public final class AnswerCheck {

    /** The first answer seen for a workload, and who gave it. */
    private record Reference(String engine, int workers, long rows, BigDecimal checksum) {
    }

    private final Map<String, Reference> references = new HashMap<>();

    /**
     * Checks {@code outcome} of workload {@code workload} against the workload's first answer, or
     * makes it the first answer.
     *
     * @param engine  who ran it, as the message should name it (troupe, duckdb, "s1 always-write")
     * @throws BenchMismatchException naming both runs when rows or checksum differ
     */
    public void check(String workload, String engine, int workers, BenchOutcome outcome) {
        Reference first = references.get(workload);
        if (first == null) {
            references.put(workload, new Reference(engine, workers, outcome.rows(), outcome.checksum()));
            return;
        }
        if (first.rows() != outcome.rows() || first.checksum().compareTo(outcome.checksum()) != 0) {
            throw new BenchMismatchException(String.format(Locale.ROOT,
                    "%s: results disagree: %s with %s returned %d rows, checksum %s, but %s with %s returned %d rows, "
                            + "checksum %s",
                    workload, engine, workers(workers), outcome.rows(), outcome.checksum().toPlainString(),
                    first.engine(), workers(first.workers()), first.rows(), first.checksum().toPlainString()));
        }
    }

    private static String workers(int count) {
        return count == 1 ? "1 worker" : count + " workers";
    }
}
