package io.troupe.actors.metrics;

import com.typesafe.config.ConfigFactory;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.troupe.actors.api.QueryEvent;
import io.troupe.actors.api.QueryListener;
import io.troupe.actors.api.QueryMix;
import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.QueryRejectedException;
import io.troupe.actors.api.QueryStream;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.spill.QuerySpill;
import io.troupe.operators.spill.SpillFile;
import io.troupe.operators.spill.SpillWriter;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TroupeMetrics} in a {@link SimpleMeterRegistry}: after queries of every outcome with 0 and 2
 * workers, every counter and every timer's count is exactly what ran (tallied by the test, not by Troupe),
 * the latency timer's total is the listener's run times added up, the gauges show a running query and go
 * back to 0, spill and back-pressure read what the Troupe counted, binding twice counts nothing twice,
 * and a service without Micrometer on its class path runs Troupe (JMX on) all the same.
 */
class TroupeMetricsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final List<String> GAUGES = List.of("troupe.queries.running", "troupe.queries.queued",
            "troupe.memory.used", "troupe.spill.held", "troupe.workers.live", "troupe.channels.open");

    @Test
    @Timeout(180)
    void countersAndTimersCountExactlyTheQueriesThatRan() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        // What each timer asks of the registry (a simple registry publishes no buckets itself; Prometheus's does).
        Set<String> histograms = ConcurrentHashMap.newKeySet();
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (Boolean.TRUE.equals(config.isPercentileHistogram())) {
                    histograms.add(id.getName() + " " + id.getTag("outcome"));
                }
                return config;
            }
        });
        List<QueryEvent> events = new ArrayList<>();
        try (Troupe troupe = QueryMix.start(QueryMix.settings())) {
            new TroupeMetrics(troupe, Tags.of("service", "test")).bindTo(registry);
            troupe.addQueryListener(recorder(events));
            QueryMix.Tally leader = QueryMix.run(troupe, 0);
            QueryMix.Tally workers = QueryMix.run(troupe, 2);
            QueryMix.awaitIdle(troupe);

            for (QueryEvent.Outcome outcome : QueryEvent.Outcome.values()) {
                long ran = leader.ended(outcome) + workers.ended(outcome);
                assertEquals(ran, timer(registry, "troupe.query.queued", outcome).count(), "queued " + outcome);
                if (outcome == QueryEvent.Outcome.REJECTED) {
                    assertNull(registry.find("troupe.query.latency").tag("outcome", "rejected").timer());
                    continue;
                }
                assertTrue(ran > 0, "the mix ran a query that " + outcome);
                assertEquals(ran, counter(registry, "troupe.queries", "outcome", tag(outcome), "reason", "none"));
                Timer latency = timer(registry, "troupe.query.latency", outcome);
                assertEquals(ran, latency.count(), "latency " + outcome);
                assertEquals(events.stream().filter(e -> e.outcome() == outcome).mapToLong(QueryEvent::runningNanos)
                        .sum(), latency.totalTime(TimeUnit.NANOSECONDS), "the run times told, added up");
                assertTrue(histograms.contains("troupe.query.latency " + tag(outcome)), "a percentile histogram");
            }
            for (QueryRejectedException.Reason reason : QueryRejectedException.Reason.values()) {
                assertEquals(leader.rejected(reason) + workers.rejected(reason),
                        counter(registry, "troupe.queries", "outcome", "rejected", "reason", tag(reason)),
                        reason::name);
            }
            assertEquals(leader.admitted() + workers.admitted(), counter(registry, "troupe.queries.admitted"));
            assertEquals(troupe.counters().backPressureEvents(), counter(registry, "troupe.channel.backpressure"));
            assertEquals(troupe.spillSpace().writtenBytes(), counter(registry, "troupe.spill.written"));
            for (String gauge : GAUGES) {
                assertEquals(0, gauge(registry, gauge), gauge + " after every query ended");
            }
            assertEquals(troupe.memoryArena().budgetBytes(), gauge(registry, "troupe.memory.budget"));
            assertEquals(4, histograms.size(), "latency alone, per outcome: " + histograms);
            for (Meter meter : registry.getMeters()) {
                assertEquals(troupe.name(), meter.getId().getTag("troupe"), meter.getId()::toString);
                assertEquals("test", meter.getId().getTag("service"), meter.getId()::toString);
            }
        }
    }

    @Test
    @Timeout(60)
    void gaugesShowAnOpenStreamAndGoBackToZeroWhenItCloses() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Troupe troupe = QueryMix.start(QueryMix.settings())) {
            new TroupeMetrics(troupe).bindTo(registry);
            try (QueryStream stream = troupe.stream(Plan.series("x", 1, 1_000_000_000L),
                    QueryOptions.defaults().withWorkers(2))) {
                assertNotNull(stream.next(WAIT));
                assertEquals(1, gauge(registry, "troupe.queries.running"));
                assertEquals(2, gauge(registry, "troupe.workers.live"), "its workers wait on their full channels");
                assertEquals(2, gauge(registry, "troupe.channels.open"));
                assertTrue(gauge(registry, "troupe.memory.used") > 0, "its admission reserved memory");
            }
            QueryMix.awaitIdle(troupe);
            for (String gauge : GAUGES) {
                assertEquals(0, gauge(registry, gauge), gauge);
            }
            assertEquals(1, timer(registry, "troupe.query.latency", QueryEvent.Outcome.CANCELLED).count());
        }
    }

    @Test
    @Timeout(120)
    void backPressureCountsTheWaitsOfAnUnreadStreamAndNoneOfASmallQuery() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TroupeSettings settings = TroupeSettings.from(ConfigFactory.parseString("troupe.transport.term-length = 1m"));
        try (Troupe small = QueryMix.start(QueryMix.settings()); Troupe big = Troupe.start(settings)) {
            new TroupeMetrics(small).bindTo(registry);
            new TroupeMetrics(big).bindTo(registry);
            assertEquals(30, small.execute(Plan.scan("dims"), QueryOptions.defaults().withWorkers(2)).rowCount());
            try (QueryStream unread = big.stream(Plan.series("x", 1, 2_000_000),
                    QueryOptions.defaults().withWorkers(2))) {
                assertNotNull(unread.next(WAIT));
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (counter(registry, "troupe.channel.backpressure", "troupe", big.name()) == 0) {
                    assertTrue(System.nanoTime() < deadline, "no worker of the unread stream ever waited");
                    Thread.sleep(1);
                }
            }
            assertEquals(big.counters().backPressureEvents(),
                    counter(registry, "troupe.channel.backpressure", "troupe", big.name()));
            assertEquals(0, counter(registry, "troupe.channel.backpressure", "troupe", small.name()));
        }
    }

    @Test
    @Timeout(60)
    void spillMetersReadWhatTheSpillSpaceWroteAndHolds() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Troupe troupe = QueryMix.start(QueryMix.settings())) {
            new TroupeMetrics(troupe).bindTo(registry);
            QuerySpill spill = troupe.spillSpace().forQuery(-1);
            SpillFile file = spill.newFile("metrics test", new DataType[] {DataType.INT64});
            SpillWriter writer = file.writer();
            List<Batch> batches = troupe.execute(Plan.series("x", 1, 50_000), QueryOptions.defaults().withWorkers(0))
                    .batches();
            for (Batch b : batches) {
                writer.write(b);
            }
            writer.finish();
            assertTrue(file.length() > 0);
            assertEquals(file.length(), gauge(registry, "troupe.spill.held"));
            assertEquals(file.length(), counter(registry, "troupe.spill.written"));
            assertEquals(troupe.spillSpace().writtenBytes(), counter(registry, "troupe.spill.written"));
            spill.releaseAll();
            assertEquals(0, gauge(registry, "troupe.spill.held"));
            assertEquals(file.length(), counter(registry, "troupe.spill.written"), "written stays written");
        }
    }

    @Test
    @Timeout(60)
    void bindingTwiceCountsNothingTwice() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Troupe troupe = QueryMix.start(QueryMix.settings())) {
            new TroupeMetrics(troupe).bindTo(registry);
            int meters = registry.getMeters().size();
            new TroupeMetrics(troupe).bindTo(registry);
            assertEquals(meters, registry.getMeters().size());
            troupe.execute(Plan.scan("dims"), QueryOptions.defaults().withWorkers(0));
            assertEquals(1, timer(registry, "troupe.query.latency", QueryEvent.Outcome.SUCCEEDED).count());
            assertEquals(1, timer(registry, "troupe.query.queued", QueryEvent.Outcome.SUCCEEDED).count());
        }
    }

    /**
     * A child JVM whose class path is this one's without Micrometer runs {@link WithoutMicrometer}: Troupe
     * with JMX on, a listener, queries with and without workers. Had any of it touched Micrometer, it
     * would have died of a NoClassDefFoundError.
     */
    @Test
    @Timeout(120)
    void aServiceWithoutMicrometerRunsTroupe() throws Exception {
        String[] entries = System.getProperty("java.class.path").split(File.pathSeparator);
        String classPath = Arrays.stream(entries).filter(e -> !e.contains("micrometer"))
                .collect(Collectors.joining(File.pathSeparator));
        assertTrue(Arrays.stream(entries).anyMatch(e -> e.contains("micrometer-core")), "Micrometer is on ours");
        assertFalse(classPath.contains("micrometer"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-Xmx512m", "-cp", classPath, WithoutMicrometer.class.getName())
                .redirectErrorStream(true).start();
        try {
            assertTrue(child.waitFor(90, TimeUnit.SECONDS), "the child JVM did not end in time");
            String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, child.exitValue(), output);
            assertTrue(output.contains(WithoutMicrometer.OK), output);
        } finally {
            child.destroyForcibly();
        }
    }

    private static QueryListener recorder(List<QueryEvent> events) {
        return e -> {
            synchronized (events) {
                events.add(e);
            }
        };
    }

    private static String tag(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    private static Timer timer(SimpleMeterRegistry registry, String name, QueryEvent.Outcome outcome) {
        Timer timer = registry.find(name).tag("outcome", tag(outcome)).timer();
        assertNotNull(timer, name + " " + outcome);
        return timer;
    }

    private static double counter(SimpleMeterRegistry registry, String name, String... tags) {
        FunctionCounter counter = registry.find(name).tags(tags).functionCounter();
        assertNotNull(counter, name + " " + List.of(tags));
        return counter.count();
    }

    private static double gauge(SimpleMeterRegistry registry, String name) {
        Gauge gauge = registry.find(name).gauge();
        assertNotNull(gauge, name);
        return gauge.value();
    }
}
