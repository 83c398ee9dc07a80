package io.troupe.actors.api;

import com.typesafe.config.ConfigFactory;
import io.troupe.ChildJvm;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.stream.Stream;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With a real OutOfMemoryError: a service's JVM with a small heap
 * ({@value #HEAP}) runs a GROUP BY over far more distinct keys than fit, on 2 workers. Before the
 * fix Pekko ended that JVM (exit 255, "shutting down JVM since 'pekko.jvm-exit-on-fatal-error' is
 * enabled"); now the query fails with a QueryFailedException that names the worker and the error,
 * the same Troupe then answers a small query right, closes with nothing held, and the JVM exits 0
 * by itself (no thread of Troupe's keeps it alive). The child is bounded in time and killed by its
 * pid if it overstays.
 */
class HostSurvivesOutOfMemoryTest {

    static final String HEAP = "-Xmx160m";
    /** Distinct keys of the GROUP BY: their table needs gigabytes, so it cannot fit in the heap. */
    static final long KEYS = 400_000_000L;
    /** Distinct keys of the GROUP BY that spills: its table needs about twice {@value #HEAP}. */
    static final long SPILLED_KEYS = 6_000_000L;
    static final long SMALL_ROWS = 10_000;
    static final long SMALL_GROUPS = 7;
    private static final Duration CHILD_BOUND = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void shouldFailTheQueryNotTheJvmWhenAWorkerRunsOutOfMemory() throws Exception {
        try (ChildJvm host = ChildJvm.start(Host.class, List.of(HEAP), dir.toString())) {
            int exit = host.awaitExit(CHILD_BOUND);
            String output = host.output();
            assertEquals(0, exit, "the host's exit code; its output:\n" + output);
            String failed = host.awaitLine("FAILED: ", Duration.ZERO);
            assertTrue(failed.startsWith("FAILED: QueryFailedException query 1 failed in aggregate worker "), output);
            assertTrue(failed.contains("java.lang.OutOfMemoryError"), output);
            assertEquals("CAUSE: java.lang.OutOfMemoryError", host.awaitLine("CAUSE: ", Duration.ZERO), output);
            assertEquals("SMALL: " + expectedSmall(), host.awaitLine("SMALL: ", Duration.ZERO), output);
            assertEquals("HELD: 0 queries, 0 workers, 0 channels, 0 bytes", host.awaitLine("HELD: ", Duration.ZERO), output);
            assertEquals("CLOSED", host.awaitLine("CLOSED", Duration.ZERO), output);
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "the driver's directory is gone");
        }
    }

    /**
     * The same host with Troupe's defaults (a budget of half the heap, spilling on): a GROUP BY whose
     * table needs about twice the heap spills its partials and finishes with every group, and leaves
     * nothing behind. (AggregateSpillTest checks spilled aggregates against DuckDB.)
     */
    @Test
    @Timeout(180)
    void aGroupByLargerThanTheHeapSpillsUnderTheDefaultBudget() throws Exception {
        try (ChildJvm host = ChildJvm.start(SpillingHost.class, List.of(HEAP), dir.toString())) {
            int exit = host.awaitExit(CHILD_BOUND);
            String output = host.output();
            assertEquals(0, exit, "the host's exit code; its output:\n" + output);
            assertEquals("GROUPS: " + SPILLED_KEYS + " of " + SPILLED_KEYS + " rows",
                    host.awaitLine("GROUPS: ", Duration.ZERO), output);
            String spilled = host.awaitLine("SPILLED: ", Duration.ZERO);
            assertTrue(Long.parseLong(spilled.substring("SPILLED: ".length())) > 0, output);
            assertEquals("HELD: 0 queries, 0 workers, 0 bytes, 0 spill bytes",
                    host.awaitLine("HELD: ", Duration.ZERO), output);
        }
    }

    /** The small query's rows, computed here: "g=sum" for g in 0..6, by g. */
    private static String expectedSmall() {
        long[] sums = new long[(int) SMALL_GROUPS];
        for (long i = 1; i <= SMALL_ROWS; i++) {
            sums[(int) (i % SMALL_GROUPS)] += i;
        }
        StringJoiner rows = new StringJoiner(" ");
        for (int g = 0; g < SMALL_GROUPS; g++) {
            rows.add(g + "=" + sums[g]);
        }
        return rows.toString();
    }

    /** The host: a Troupe in a JVM of its own; prints what happened, line by line. */
    static final class Host {

        public static void main(String[] args) {
            // A budget far past the heap grants every reservation, so the heap itself runs out: the
            // Error path, which accounting and spilling otherwise keep a GROUP BY from reaching.
            TroupeSettings settings = TroupeSettings.from(ConfigFactory.parseString(
                    "troupe.transport.dir = \"" + args[0] + "\"\ntroupe.memory.budget = 64g"));
            QueryOptions twoWorkers = QueryOptions.defaults().withWorkers(2);
            try (Troupe troupe = Troupe.start(settings)) {
                Plan huge = Plan.series("i", 1, KEYS).aggregate(List.of(col("i")), count().as("n"))
                        .aggregate(List.of(), count().as("groups"));
                try {
                    System.out.println("UNEXPECTED: " + troupe.execute(huge, twoWorkers).rows());
                } catch (QueryFailedException e) {
                    System.out.println("FAILED: " + e.getClass().getSimpleName() + " " + e.getMessage());
                    System.out.println("CAUSE: " + (e.getCause() == null ? null : e.getCause().getClass().getName()));
                }
                Plan small = Plan.series("i", 1, SMALL_ROWS)
                        .aggregate(List.of(col("i").mod(lit(SMALL_GROUPS)).as("g")), sum(col("i")).as("s"))
                        .sort(col("g").asc());
                QueryResult result = troupe.execute(small, twoWorkers);
                List<String> rows = new ArrayList<>();
                for (List<Object> row : result.rows()) {
                    rows.add(row.get(0) + "=" + row.get(1));
                }
                System.out.println("SMALL: " + String.join(" ", rows));
                TroupeStatus status = troupe.status();
                System.out.println("HELD: " + status.runningQueries() + " queries, " + status.liveWorkers() + " workers, "
                        + status.openChannels() + " channels, " + status.memoryInUseBytes() + " bytes");
            }
            System.out.println("CLOSED");
        }
    }

    /** A host on Troupe's default memory settings; prints the big GROUP BY's groups and what spilled. */
    static final class SpillingHost {

        public static void main(String[] args) {
            TroupeSettings settings = TroupeSettings.from(ConfigFactory.parseString(
                    "troupe.transport.dir = \"" + args[0] + "\""));
            try (Troupe troupe = Troupe.start(settings)) {
                Plan big = Plan.series("i", 1, SPILLED_KEYS).aggregate(List.of(col("i")), count().as("n"))
                        .aggregate(List.of(), count().as("groups"), sum(col("n")).as("rows"));
                List<Object> row = troupe.execute(big, QueryOptions.defaults().withWorkers(2)).rows().get(0);
                System.out.println("GROUPS: " + row.get(0) + " of " + row.get(1) + " rows");
                System.out.println("SPILLED: " + troupe.spillSpace().writtenBytes());
                TroupeStatus status = troupe.status();
                System.out.println("HELD: " + status.runningQueries() + " queries, " + status.liveWorkers() + " workers, "
                        + status.memoryInUseBytes() + " bytes, " + status.spillHeldBytes() + " spill bytes");
            }
        }
    }
}
