package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The actor executor against the leader alone: the same plans with 1, 2 and 4 workers give the same
 * rows (as multisets; in order where the plan sorts at the top). Failure, cancel and timeout stop
 * every worker and leave no channel open, and the next query is correct.
 */
class ParallelExecutionTest {

    private Troupe troupe;

    @BeforeEach
    void start() {
        troupe = Troupe.start(TroupeSettings.load().withBatchSize(64));
        // Chunks of 100 rows: a chunk is a morsel, so every worker gets some.
        TableBuilder facts = new TableBuilder("facts", Schema.of(Field.of("id", DataType.INT64),
                Field.of("k", DataType.INT32), Field.of("v", DataType.FLOAT64), Field.of("s", DataType.VARCHAR)), 100);
        for (int i = 0; i < 5000; i++) {
            facts.addRow((long) i, i % 37 == 0 ? null : i % 50, i * 0.5, "s" + (i % 13));
        }
        TableBuilder dims = new TableBuilder("dims", Schema.of(Field.of("k", DataType.INT32),
                Field.of("name", DataType.VARCHAR)), 7);
        for (int k = 0; k < 60; k += 2) {
            dims.addRow(k, "d" + k);
        }
        troupe.register(facts.build()).register(dims.build());
    }

    @AfterEach
    void close() {
        troupe.close();
    }

    static List<Plan> plans() {
        List<Plan> plans = new ArrayList<>();
        plans.add(Plan.scan("facts").filter(col("k").gt(lit(10))).project(col("id"), col("v").times(lit(2.0)).as("w")));
        plans.add(Plan.scan("facts").aggregate(List.of(col("k")), Expr.count(), Expr.sum(col("v")), Expr.min(col("s"))));
        for (JoinType type : JoinType.values()) {
            plans.add(Plan.scan("facts").join(Plan.scan("dims"), type, col("facts.k").eq(col("dims.k"))));
        }
        plans.add(Plan.scan("facts").unionAll(Plan.scan("facts").filter(col("k").lt(lit(5)))));
        plans.add(Plan.scan("facts").limit(100).aggregate(List.of(), Expr.count()));
        plans.add(Plan.scan("facts").project(col("s")).distinct());
        return plans;
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {1, 2, 4})
    @Timeout(60)
    void sameRowsAsTheLeaderAlone(int workers) {
        for (Plan plan : plans()) {
            List<List<Object>> expected = sorted(troupe.execute(plan, QueryOptions.defaults().withWorkers(0)));
            List<List<Object>> actual = sorted(troupe.execute(plan, QueryOptions.defaults().withWorkers(workers)));
            assertEquals(expected, actual, () -> "workers " + workers + ": " + troupe.explain(plan));
        }
        assertEquals(0, troupe.openChannels());
        assertEquals(0, troupe.liveWorkers());
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {1, 2, 4})
    @Timeout(60)
    void sortAtTheTopKeepsItsOrder(int workers) {
        Plan plan = Plan.scan("facts").sort(col("v").desc()).limit(700);
        assertEquals(troupe.execute(plan, QueryOptions.defaults().withWorkers(0)).rows(),
                troupe.execute(plan, QueryOptions.defaults().withWorkers(workers)).rows());
    }

    @Test
    @Timeout(60)
    void divisionByZeroFailsTheQueryWithItsMessage() {
        Plan plan = Plan.scan("facts").project(col("id").div(col("k").minus(col("k"))).as("q"));
        QueryFailedException leader = assertThrows(QueryFailedException.class,
                () -> troupe.execute(plan, QueryOptions.defaults().withWorkers(0)));
        QueryFailedException parallel = assertThrows(QueryFailedException.class,
                () -> troupe.execute(plan, QueryOptions.defaults().withWorkers(2)));
        assertEquals(leader.getMessage(), parallel.getMessage());
        assertTrue(parallel.getMessage().contains("division by zero"), parallel.getMessage());
        assertEquals(0, troupe.openChannels());
        assertEquals(0, troupe.liveWorkers());
        assertEquals(5000, troupe.execute(Plan.scan("facts"), QueryOptions.defaults().withWorkers(2)).rows().size());
    }

    @Test
    @Timeout(60)
    void cancelStopsEveryWorkerAndClosesEveryChannel() {
        // Far more batches than run before the cancel comes.
        Plan plan = Plan.series("x", 1, 1_000_000_000L).aggregate(List.of(), Expr.sum(col("x")));
        RunningQuery running = troupe.submit(plan, QueryOptions.defaults().withWorkers(2));
        running.cancel("test");
        QueryCancelledException e = assertThrows(QueryCancelledException.class, running::await);
        assertTrue(e.getMessage().contains("cancelled: test"), e.getMessage());
        assertEquals(0, troupe.openChannels());
        assertEquals(0, troupe.liveWorkers());
        assertEquals(5000, troupe.execute(Plan.scan("facts"), QueryOptions.defaults().withWorkers(2)).rows().size());
    }

    @Test
    @Timeout(60)
    void timeoutCancelsTheQuery() {
        Plan plan = Plan.series("x", 1, 1_000_000_000L).aggregate(List.of(), Expr.sum(col("x")));
        QueryCancelledException e = assertThrows(QueryCancelledException.class,
                () -> troupe.execute(plan, QueryOptions.defaults().withWorkers(2).withTimeout(Duration.ofMillis(50))));
        assertTrue(e.getMessage().contains("timed out after 50 ms"), e.getMessage());
        assertEquals(0, troupe.openChannels());
        assertEquals(0, troupe.liveWorkers());
    }

    @Test
    @Timeout(60)
    void closeLeavesNoThreadBehind() throws InterruptedException {
        assertEquals(5000, troupe.execute(Plan.scan("facts"), QueryOptions.defaults().withWorkers(2)).rows().size());
        String prefix = troupe.actorSystemName();
        assertTrue(prefix != null && threads(prefix).size() > 0, "the actor system runs");
        troupe.close();
        for (Thread t : threads(prefix)) {
            t.join(10_000);
        }
        assertEquals(List.of(), threads(prefix).stream().map(Thread::getName).toList());
    }

    private static List<Thread> threads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(prefix + "-")).toList();
    }

    private static List<List<Object>> sorted(QueryResult result) {
        List<List<Object>> rows = new ArrayList<>(result.rows());
        rows.sort(Comparator.comparing(Object::toString));
        return rows;
    }
}
