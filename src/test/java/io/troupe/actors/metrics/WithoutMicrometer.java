package io.troupe.actors.metrics;

import io.troupe.actors.api.QueryEvent;
import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.QueryStream;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Plan;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import javax.management.ObjectName;

/**
 * What {@link TroupeMetricsTest#aServiceWithoutMicrometerRunsTroupe()} runs in a JVM without Micrometer:
 * a Troupe with its MXBean and a listener runs queries on the leader and with workers, streamed and
 * collected; it prints {@link #OK} and exits 0, or dies of what went wrong (a NoClassDefFoundError had
 * anything touched Micrometer).
 */
final class WithoutMicrometer {

    static final String OK = "ran without Micrometer";

    private WithoutMicrometer() {
    }

    public static void main(String[] args) throws Exception {
        AtomicInteger told = new AtomicInteger();
        TroupeSettings settings = TroupeSettings.load().withMetrics(new TroupeSettings.Metrics(true));
        try (Troupe troupe = Troupe.start(settings)) {
            troupe.addQueryListener(e -> told.incrementAndGet());
            for (int workers : new int[] {0, 2}) {
                long rows = troupe.execute(Plan.series("x", 1, 100_000), QueryOptions.defaults().withWorkers(workers))
                        .rowCount();
                // Endless: the close always finds it running (a short one may have ended and succeeded).
                try (QueryStream stream = troupe.stream(Plan.series("x", 1, 1_000_000_000L),
                        QueryOptions.defaults().withWorkers(workers))) {
                    rows += stream.next(Duration.ofSeconds(30)).size();
                }
                check(rows > 100_000, "rows " + rows);
            }
            ObjectName name = new ObjectName("io.troupe:type=Troupe,name=" + troupe.name());
            Object succeeded = ManagementFactory.getPlatformMBeanServer().getAttribute(name, "QueriesSucceeded");
            check(Long.valueOf(2).equals(succeeded), "QueriesSucceeded " + succeeded);
            check(troupe.counters().ended(QueryEvent.Outcome.CANCELLED) == 2, troupe.counters().toString());
            check(told.get() == 4, "told " + told.get());
        }
        System.out.println(OK);
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }
}
