package io.troupe.actors.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.troupe.actors.api.QueryEvent;
import io.troupe.actors.api.QueryRejectedException;
import io.troupe.actors.api.Troupe;
import io.troupe.actors.api.TroupeCounters;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import static io.troupe.operators.Arguments.notNull;

/**
 * A Troupe's metrics in a Micrometer registry that the host passes in:
 *
 * <pre>{@code
 * new TroupeMetrics(troupe).bindTo(registry);   // e.g. Spring's or a PrometheusMeterRegistry
 * }</pre>
 *
 * Every meter is tagged {@code troupe=<Troupe.name()>} (plus the tags given), so several Troupes share
 * a registry. Names are Micrometer's (dotted; a Prometheus registry writes {@code troupe_queries_running},
 * {@code troupe_memory_used_bytes}, {@code troupe_queries_total}, {@code troupe_query_latency_seconds_bucket}):
 * <table>
 * <caption>Meters</caption>
 * <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 * <tr><td>troupe.queries.running</td><td>gauge</td><td></td><td>queries admitted and not ended</td></tr>
 * <tr><td>troupe.queries.queued</td><td>gauge</td><td></td><td>queries waiting to be admitted</td></tr>
 * <tr><td>troupe.memory.used</td><td>gauge, bytes</td><td></td><td>of the budget, held by queries</td></tr>
 * <tr><td>troupe.memory.budget</td><td>gauge, bytes</td><td></td><td>{@code troupe.memory.budget}</td></tr>
 * <tr><td>troupe.spill.held</td><td>gauge, bytes</td><td></td><td>spill files of running queries</td></tr>
 * <tr><td>troupe.workers.live</td><td>gauge</td><td></td><td>worker actors not stopped</td></tr>
 * <tr><td>troupe.channels.open</td><td>gauge</td><td></td><td>channels of running queries</td></tr>
 * <tr><td>troupe.queries.admitted</td><td>counter</td><td></td><td>queries admitted to run</td></tr>
 * <tr><td>troupe.queries</td><td>counter</td><td>outcome, reason</td><td>queries ended: outcome succeeded,
 *     failed, cancelled, timed_out with reason none; rejected with reason queue_full, queue_timeout,
 *     never_fits or closed</td></tr>
 * <tr><td>troupe.spill.written</td><td>counter, bytes</td><td></td><td>written to spill files</td></tr>
 * <tr><td>troupe.channel.backpressure</td><td>counter, events</td><td></td><td>waits of a worker on its full
 *     channel to the Gather (once per wait)</td></tr>
 * <tr><td>troupe.query.latency</td><td>timer, histogram</td><td>outcome</td><td>a query's run, from its
 *     admission to its end (rejected queries never ran: none)</td></tr>
 * <tr><td>troupe.query.queued</td><td>timer</td><td>outcome</td><td>a query's wait to be admitted (rejected
 *     ones too)</td></tr>
 * </table>
 * Gauges and counters read {@link Troupe#status()} and {@link Troupe#counters()} when the registry asks
 * (holding the Troupe weakly, as Micrometer's gauges do); the timers are fed by a
 * {@link io.troupe.actors.api.QueryListener} as each query ends, so a query is in them before its caller
 * learns its end. The latency timer publishes a percentile histogram, for the registry to aggregate
 * percentiles across instances; the queue timer its count, total and max.
 *
 * <p>This is the only class of Troupe that uses Micrometer, an optional dependency: a service that does
 * not bind it never loads Micrometer. Binding a Troupe to a registry it is already bound to (with the same
 * tags) adds nothing. Threadsafe.
 */
public final class TroupeMetrics implements MeterBinder {

    private final Troupe troupe;
    private final Tags tags;

    /** The metrics of {@code troupe}, tagged with its name. */
    public TroupeMetrics(Troupe troupe) {
        this(troupe, Tags.empty());
    }

    /** The metrics of {@code troupe}, tagged with its name and {@code tags}. */
    public TroupeMetrics(Troupe troupe, Iterable<Tag> tags) {
        this.troupe = notNull(troupe, "TroupeMetrics", "troupe");
        this.tags = Tags.of("troupe", troupe.name()).and(notNull(tags, "TroupeMetrics", "tags"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        notNull(registry, "TroupeMetrics.bindTo", "registry");
        if (registry.find("troupe.queries.running").tags(tags).gauge() != null) {
            return; // bound already: a second listener would count every query twice in the timers
        }
        gauge(registry, "troupe.queries.running", "queries admitted and not ended", null,
                t -> t.status().runningQueries());
        gauge(registry, "troupe.queries.queued", "queries waiting to be admitted", null,
                t -> t.status().queuedQueries());
        gauge(registry, "troupe.memory.used", "bytes of the memory budget that queries hold", BaseUnits.BYTES,
                t -> t.status().memoryInUseBytes());
        gauge(registry, "troupe.memory.budget", "troupe.memory.budget", BaseUnits.BYTES,
                t -> t.memoryArena().budgetBytes());
        gauge(registry, "troupe.spill.held", "bytes the spill files of running queries hold", BaseUnits.BYTES,
                t -> t.status().spillHeldBytes());
        gauge(registry, "troupe.workers.live", "worker actors not stopped", null, t -> t.status().liveWorkers());
        gauge(registry, "troupe.channels.open", "channels of running queries", null, t -> t.status().openChannels());

        counter(registry, "troupe.queries.admitted", "queries admitted to run", null, Tags.empty(),
                TroupeCounters::admitted);
        for (QueryEvent.Outcome outcome : QueryEvent.Outcome.values()) {
            if (outcome != QueryEvent.Outcome.REJECTED) {
                counter(registry, "troupe.queries", "queries ended", null,
                        Tags.of("outcome", tagOf(outcome), "reason", "none"), c -> c.ended(outcome));
            }
        }
        for (QueryRejectedException.Reason reason : QueryRejectedException.Reason.values()) {
            counter(registry, "troupe.queries", "queries ended", null,
                    Tags.of("outcome", tagOf(QueryEvent.Outcome.REJECTED), "reason", tagOf(reason)),
                    c -> c.rejected(reason));
        }
        counter(registry, "troupe.spill.written", "bytes written to spill files", BaseUnits.BYTES, Tags.empty(),
                TroupeCounters::spillWrittenBytes);
        counter(registry, "troupe.channel.backpressure", "waits of a worker on its full channel to the Gather",
                BaseUnits.EVENTS, Tags.empty(), TroupeCounters::backPressureEvents);

        Map<QueryEvent.Outcome, Timer> latency = new EnumMap<>(QueryEvent.Outcome.class);
        Map<QueryEvent.Outcome, Timer> queued = new EnumMap<>(QueryEvent.Outcome.class);
        for (QueryEvent.Outcome outcome : QueryEvent.Outcome.values()) {
            if (outcome != QueryEvent.Outcome.REJECTED) {
                latency.put(outcome, Timer.builder("troupe.query.latency")
                        .description("a query's run, from its admission to its end")
                        .tags(tags).tag("outcome", tagOf(outcome))
                        .publishPercentileHistogram()
                        .register(registry));
            }
            queued.put(outcome, Timer.builder("troupe.query.queued")
                    .description("a query's wait to be admitted")
                    .tags(tags).tag("outcome", tagOf(outcome))
                    .register(registry));
        }
        troupe.addQueryListener(event -> {
            queued.get(event.outcome()).record(event.queuedNanos(), TimeUnit.NANOSECONDS);
            Timer run = latency.get(event.outcome());
            if (run != null) {
                run.record(event.runningNanos(), TimeUnit.NANOSECONDS);
            }
        });
    }

    private void gauge(MeterRegistry registry, String name, String description, String unit,
                       ToDoubleFunction<Troupe> value) {
        Gauge.builder(name, troupe, value).description(description).baseUnit(unit).tags(tags).register(registry);
    }

    private void counter(MeterRegistry registry, String name, String description, String unit, Tags more,
                         ToDoubleFunction<TroupeCounters> count) {
        FunctionCounter.builder(name, troupe, t -> count.applyAsDouble(t.counters()))
                .description(description).baseUnit(unit).tags(tags).tags(more).register(registry);
    }

    /** {@code TIMED_OUT} as a tag value: {@code timed_out}. */
    private static String tagOf(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
