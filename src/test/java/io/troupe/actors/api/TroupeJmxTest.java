package io.troupe.actors.api;

import com.typesafe.config.ConfigFactory;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Plan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code troupe.metrics.jmx}: on, a Troupe's {@link TroupeMXBean} is in the platform MBean server under
 * {@code io.troupe:type=Troupe,name=troupe-N} with the numbers of what ran, and gone after close; off (the
 * default), there is none; a name already taken leaves the Troupe running without one.
 */
class TroupeJmxTest {

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    private static TroupeSettings jmxOn() {
        return QueryMix.settings().withMetrics(new TroupeSettings.Metrics(true));
    }

    @Test
    @Timeout(120)
    void theMxBeanShowsWhatRanAndGoesWithClose() throws Exception {
        ObjectName name;
        try (Troupe troupe = QueryMix.start(jmxOn())) {
            name = new ObjectName("io.troupe:type=Troupe,name=" + troupe.name());
            assertTrue(SERVER.isRegistered(name), name::toString);
            TroupeMXBean bean = JMX.newMXBeanProxy(SERVER, name, TroupeMXBean.class);
            QueryMix.Tally leader = QueryMix.run(troupe, 0);
            QueryMix.Tally workers = QueryMix.run(troupe, 2);
            QueryMix.awaitIdle(troupe);
            TroupeCounters counters = troupe.counters();
            assertEquals(List.of(leader.admitted() + workers.admitted(),
                            sum(leader, workers, QueryEvent.Outcome.SUCCEEDED),
                            sum(leader, workers, QueryEvent.Outcome.FAILED),
                            sum(leader, workers, QueryEvent.Outcome.CANCELLED),
                            sum(leader, workers, QueryEvent.Outcome.TIMED_OUT),
                            sum(leader, workers, QueryEvent.Outcome.REJECTED),
                            leader.rejected(QueryRejectedException.Reason.QUEUE_FULL)
                                    + workers.rejected(QueryRejectedException.Reason.QUEUE_FULL),
                            leader.rejected(QueryRejectedException.Reason.NEVER_FITS)
                                    + workers.rejected(QueryRejectedException.Reason.NEVER_FITS),
                            0L, 0L, counters.backPressureEvents(), counters.spillWrittenBytes()),
                    List.of(bean.getQueriesAdmitted(), bean.getQueriesSucceeded(), bean.getQueriesFailed(),
                            bean.getQueriesCancelled(), bean.getQueriesTimedOut(), bean.getQueriesRejected(),
                            bean.getQueriesRejectedQueueFull(), bean.getQueriesRejectedNeverFits(),
                            bean.getQueriesRejectedQueueTimeout(), bean.getQueriesRejectedClosed(),
                            bean.getBackPressureEvents(), bean.getSpillWrittenBytes()));
            assertEquals(List.of(0L, 0L, 0L, 0L, 0L, 0L, troupe.memoryArena().budgetBytes()),
                    List.of((long) bean.getRunningQueries(), (long) bean.getQueuedQueries(),
                            (long) bean.getLiveWorkers(), (long) bean.getOpenChannels(), bean.getMemoryUsedBytes(),
                            bean.getSpillHeldBytes(), bean.getMemoryBudgetBytes()));
            try (QueryStream open = troupe.stream(Plan.series("x", 1, 1_000_000_000L),
                    QueryOptions.defaults().withWorkers(2))) {
                open.next(Duration.ofSeconds(30));
                assertEquals(List.of(1, 2), List.of(bean.getRunningQueries(), bean.getLiveWorkers()));
            }
        }
        assertFalse(SERVER.isRegistered(name), "unregistered by close");
    }

    @Test
    @Timeout(60)
    void offByDefaultOnWhenTheSettingSaysAndABadValueNamesTheKey() throws Exception {
        assertTrue(TroupeSettings.from(ConfigFactory.parseString("troupe.metrics.jmx = on")).metrics().jmx());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> TroupeSettings.from(ConfigFactory.parseString("troupe.metrics.jmx = maybe")));
        assertTrue(bad.getMessage().contains("metrics.jmx"), bad.getMessage());
        try (Troupe troupe = FactsAndDims.start()) {
            assertFalse(troupe.settings().metrics().jmx());
            assertFalse(SERVER.isRegistered(new ObjectName("io.troupe:type=Troupe,name=" + troupe.name())));
            assertEquals(5000, troupe.execute(Plan.scan("facts")).rowCount());
        }
    }

    @Test
    @Timeout(60)
    void aNameAlreadyTakenLeavesTheTroupeRunningWithoutAnMxBean() throws Exception {
        String next;
        try (Troupe probe = Troupe.start(QueryMix.settings())) {
            next = "troupe-" + (Integer.parseInt(probe.name().substring("troupe-".length())) + 1);
        }
        ObjectName taken = new ObjectName("io.troupe:type=Troupe,name=" + next);
        Runnable foreign = () -> { };
        SERVER.registerMBean(new StandardMBean(foreign, Runnable.class), taken);
        try {
            try (Troupe troupe = QueryMix.start(jmxOn())) {
                assertEquals(next, troupe.name());
                assertEquals(5000, troupe.execute(Plan.scan("facts")).rowCount());
            }
            assertTrue(SERVER.isRegistered(taken), "the close takes away only its own MXBean");
        } finally {
            SERVER.unregisterMBean(taken);
        }
    }

    private static long sum(QueryMix.Tally a, QueryMix.Tally b, QueryEvent.Outcome outcome) {
        return a.ended(outcome) + b.ended(outcome);
    }
}
