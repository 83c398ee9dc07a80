package io.troupe.cli.loadtest;

import java.util.Random;

/**
 * The open loop's schedule: when each query should start, as an offset from the start of the phase.
 * {@link #fixed} starts the k-th query at k / rate; {@link #poisson} draws the gaps from an
 * exponential distribution of mean 1 / rate (a Poisson process, as pgbench {@code -R} schedules),
 * from a seeded {@link Random} so that a schedule can be replayed. Latency is measured from these
 * times, whenever a client actually got to start the query (wrk2's "from the time the request should
 * have been sent"), so a stall delays the queries behind it and their latency shows it.
 *
 * <p>Threadsafe: clients take arrivals in order through {@link #next()}; each arrival goes to exactly
 * one client, and the offsets never decrease.
 */
final class Arrivals {

    /** The {@code index}-th query of the schedule (from 0), due {@code offsetNanos} after the start. */
    record Arrival(long index, long offsetNanos) {
    }

    private final double perSecond;
    /** Null for the fixed schedule. Guarded by this. */
    private final Random random;
    /** Guarded by this. */
    private long index;
    /** Guarded by this: the Poisson schedule's offset of the next arrival, in seconds. */
    private double poissonSeconds;

    private Arrivals(double perSecond, Random random) {
        if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
            throw new IllegalArgumentException("rate must be a positive number of queries a second, got " + perSecond);
        }
        this.perSecond = perSecond;
        this.random = random;
    }

    /** The k-th query at k / {@code perSecond} seconds. */
    static Arrivals fixed(double perSecond) {
        return new Arrivals(perSecond, null);
    }

    /** A Poisson process of {@code perSecond} queries a second on average, drawn from {@code seed}. */
    static Arrivals poisson(double perSecond, long seed) {
        return new Arrivals(perSecond, new Random(seed));
    }

    /** The next query of the schedule. */
    synchronized Arrival next() {
        long k = index++;
        if (random == null) {
            return new Arrival(k, Math.round(k * 1e9 / perSecond));
        }
        Arrival arrival = new Arrival(k, Math.round(poissonSeconds * 1e9));
        // 1 - u lies in (0, 1]: the logarithm is finite.
        poissonSeconds += -Math.log(1 - random.nextDouble()) / perSecond;
        return arrival;
    }
}
