package io.troupe.cli.loadtest;

import io.troupe.actors.api.Troupe;
import io.troupe.actors.api.TroupeStatus;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * loadtest's {@code --soak}: reads every {@link SoakGauge} after the warm-ups, and again after the
 * measured load, and says whether each is back where it started: the heap after a full GC (within
 * {@link #HEAP_SLACK_FRACTION} of its start or {@link #HEAP_SLACK_BYTES}, whichever is larger: the
 * JIT, class metadata caches and the report's own histograms may grow a little), live threads, and
 * from {@link Troupe#status()} the running queries, live workers, open channels, the Aeron driver's
 * publications of channels in use and the memory queries hold, each of which must not grow. Adding
 * a resource is one line in {@link #gauges}.
 *
 * <p>Resources settle after the last query (a worker stops after its query's future completed, a
 * closed publication lingers in the driver, a pool thread goes idle): {@link #check} reads until
 * all are back or a bound passes, and reports the last reading.
 *
 * <p>Not threadsafe: the command's thread uses it.
 */
final class SoakCheck {

    static final long HEAP_SLACK_BYTES = 32L << 20;
    static final double HEAP_SLACK_FRACTION = 0.10;
    private static final long POLL_MILLIS = 250;

    /** One gauge's readings and whether the end is within its allowance. */
    record Reading(SoakGauge gauge, long before, long after, long allowed) {
        boolean ok() {
            return after <= before + allowed;
        }

        /** "live threads 41 -> 43 (may grow by 0)". */
        String describe() {
            return gauge.name() + " " + value(before) + " -> " + value(after) + " (may grow by " + value(allowed) + ")";
        }

        private String value(long v) {
            return gauge.bytes() ? String.format(Locale.ROOT, "%.1f MiB", v / 1048576.0) : Long.toString(v);
        }
    }

    private final List<SoakGauge> gauges;
    private long[] before;

    SoakCheck(List<SoakGauge> gauges) {
        this.gauges = List.copyOf(gauges);
    }

    /** What a soak of {@code troupe} watches. */
    static List<SoakGauge> gauges(Troupe troupe) {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Supplier<TroupeStatus> status = troupe::status;
        return List.of(
                new SoakGauge("heap after GC", true, () -> {
                    System.gc();
                    return memory.getHeapMemoryUsage().getUsed();
                }, before -> Math.max(HEAP_SLACK_BYTES, (long) (before * HEAP_SLACK_FRACTION))),
                SoakGauge.count("live threads", threads::getThreadCount),
                SoakGauge.count("running queries", () -> status.get().runningQueries()),
                SoakGauge.count("live workers", () -> status.get().liveWorkers()),
                SoakGauge.count("open channels", () -> status.get().openChannels()),
                // The driver also counts the logs the channel pool keeps idle for the next queries.
                SoakGauge.count("Aeron publications in use",
                        () -> status.get().driverPublications() - status.get().idleChannels()),
                new SoakGauge("memory held by queries", true, () -> status.get().memoryInUseBytes(), before -> 0),
                SoakGauge.count("queries waiting to be admitted", () -> status.get().queuedQueries()),
                SoakGauge.count("spill files", troupe.spillSpace()::fileCount),
                new SoakGauge("spill bytes held", true, troupe.spillSpace()::heldBytes, before -> 0));
    }

    /** Reads every gauge: the values the end must come back to. */
    void baseline() {
        before = read();
    }

    /**
     * Reads the gauges until every one is within its allowance or {@code settle} has passed, and
     * returns the last readings, one per gauge.
     */
    List<Reading> check(Duration settle) throws InterruptedException {
        if (before == null) {
            throw new IllegalStateException("check() before baseline()");
        }
        long deadline = System.nanoTime() + settle.toNanos();
        while (true) {
            List<Reading> readings = readings(read());
            if (readings.stream().allMatch(Reading::ok) || System.nanoTime() >= deadline) {
                return readings;
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    private long[] read() {
        long[] values = new long[gauges.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = gauges.get(i).read().getAsLong();
        }
        return values;
    }

    private List<Reading> readings(long[] after) {
        List<Reading> readings = new ArrayList<>();
        for (int i = 0; i < after.length; i++) {
            SoakGauge g = gauges.get(i);
            readings.add(new Reading(g, before[i], after[i], g.allowance().applyAsLong(before[i])));
        }
        return readings;
    }
}
