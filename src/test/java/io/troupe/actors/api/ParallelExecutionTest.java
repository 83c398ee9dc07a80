package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.table.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

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
        troupe = FactsAndDims.start();
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

    @Test
    @Timeout(60)
    void statusShowsWhatARunningQueryHoldsAndThatItIsBackAfterward() throws Exception {
        try (Troupe idle = Troupe.start(troupe.settings())) {
            TroupeStatus nothing = idle.status();
            assertEquals(0, nothing.runningQueries() + nothing.liveWorkers() + nothing.openChannels(), nothing::toString);
            assertEquals(0, nothing.memoryInUseBytes(), "a Troupe that ran nothing holds no memory");
        }
        try (QueryStream stream = troupe.stream(Plan.scan("facts"), QueryOptions.defaults().withWorkers(2))) {
            stream.next(Duration.ofSeconds(10));
            TroupeStatus running = troupe.status();
            assertEquals(1, running.runningQueries());
            assertEquals(2, running.openChannels());
            assertTrue(running.driverPublications() >= 2, running::toString);
        }
        TroupeStatus after = troupe.status();
        assertEquals(0, after.runningQueries());
        assertEquals(0, after.liveWorkers());
        assertEquals(0, after.openChannels());
        assertEquals(0, after.memoryInUseBytes());
    }

    @Test
    @Timeout(60)
    void sameRowsWithoutLeaderParticipation() {
        TroupeSettings s = troupe.settings();
        try (Troupe gatherOnly = Troupe.start(s.withWorkers(new TroupeSettings.Workers(s.workers().threads(), 2, false)))) {
            for (Table t : List.of(troupe.catalog().table("facts"), troupe.catalog().table("dims"))) {
                gatherOnly.register(t);
            }
            for (Plan plan : plans()) {
                assertEquals(sorted(troupe.execute(plan, QueryOptions.defaults().withWorkers(0))),
                        sorted(gatherOnly.execute(plan)), () -> troupe.explain(plan));
            }
            assertEquals(0, gatherOnly.openChannels());
        }
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
    void divisionByZeroInAHashBuildFailsTheQuery() {
        Plan plan = Plan.scan("facts").join(Plan.scan("dims").project(col("k").div(col("k").minus(col("k"))).as("k")),
                JoinType.INNER, col("facts.k").eq(col("k")));
        QueryFailedException e = assertThrows(QueryFailedException.class,
                () -> troupe.execute(plan, QueryOptions.defaults().withWorkers(2)));
        assertTrue(e.getMessage().contains("division by zero"), e.getMessage());
        assertEquals(0, troupe.openChannels());
        assertEquals(0, troupe.liveWorkers());
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

    @ParameterizedTest(name = "{0}")
    @EnumSource(TroupeSettings.GatherTransport.class)
    @Timeout(60)
    void cancelWhileWorkersFeedTheGatherClosesEveryChannel(TroupeSettings.GatherTransport kind) {
        // Every row goes through the gather channels: workers are producing (or back-pressured) when the cancel comes.
        try (Troupe other = Troupe.start(withTransport(troupe.settings(), kind))) {
            RunningQuery running = other.submit(Plan.series("x", 1, 1_000_000_000L).filter(col("x").mod(lit(1000L)).eq(lit(0L))),
                    QueryOptions.defaults().withWorkers(4));
            running.cancel("test");
            assertThrows(QueryCancelledException.class, running::await);
            assertEquals(0, other.openChannels());
            assertEquals(0, other.liveWorkers());
            assertEquals(10, other.execute(Plan.series("x", 1, 10), QueryOptions.defaults().withWorkers(4)).rows().size());
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TroupeSettings.GatherTransport.class)
    @Timeout(60)
    void queriesRunAtOnceOverEitherTransport(TroupeSettings.GatherTransport kind) {
        try (Troupe other = Troupe.start(withTransport(troupe.settings(), kind))) {
            other.register(troupe.catalog().table("facts")).register(troupe.catalog().table("dims"));
            List<Plan> plans = plans();
            List<RunningQuery> running = new ArrayList<>();
            for (int i = 0; i < plans.size(); i++) {
                running.add(other.submit(plans.get(i), QueryOptions.defaults().withWorkers(1 + i % 4)));
            }
            for (int i = 0; i < plans.size(); i++) {
                Plan plan = plans.get(i);
                assertEquals(sorted(troupe.execute(plan, QueryOptions.defaults().withWorkers(0))),
                        sorted(running.get(i).await()), () -> other.explain(plan));
            }
            assertEquals(0, other.openChannels());
            assertEquals(0, other.liveWorkers());
        }
    }

    private static TroupeSettings withTransport(TroupeSettings s, TroupeSettings.GatherTransport kind) {
        TroupeSettings.Transport t = s.transport();
        return new TroupeSettings(s.batchSize(), s.matchFlags(), new TroupeSettings.Transport(kind, t.wakeups(),
                t.queueCapacity(), t.termLengthBytes(), t.mtuBytes(), t.idleStrategy(), t.driverThreading(),
                t.directoryParent()), s.workers());
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
    void timeoutCancelsTheLeaderAlone() {
        Plan plan = Plan.series("x", 1, 1_000_000_000L).aggregate(List.of(), Expr.sum(col("x")));
        QueryCancelledException e = assertThrows(QueryCancelledException.class,
                () -> troupe.execute(plan, QueryOptions.defaults().withWorkers(0).withTimeout(Duration.ofMillis(50))));
        assertTrue(e.getMessage().contains("timed out after 50 ms"), e.getMessage());
    }

    @Test
    @Timeout(60)
    void closeLeavesNoThreadBehind() throws InterruptedException {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        assertEquals(5000, troupe.execute(Plan.scan("facts"), QueryOptions.defaults().withWorkers(2)).rows().size());
        String system = troupe.actorSystemName();
        assertTrue(newThreads(before).stream().anyMatch(t -> t.getName().startsWith(system + "-")),
                "the actor system's threads run");
        troupe.close();
        // Bounded: close() waited for the actor system; pool threads may still be on their way out.
        for (Thread t : newThreads(before)) {
            t.join(10_000);
        }
        assertEquals(List.of(), newThreads(before).stream().map(Thread::getName).toList());
    }

    /** Live threads started since {@code before}. */
    private static List<Thread> newThreads(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !before.contains(t)).toList();
    }

    private static List<List<Object>> sorted(QueryResult result) {
        List<List<Object>> rows = new ArrayList<>(result.rows());
        rows.sort(Comparator.comparing(Object::toString));
        return rows;
    }
}
