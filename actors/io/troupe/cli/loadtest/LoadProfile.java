package io.troupe.cli.loadtest;

import java.time.Duration;
import java.util.Locale;

/**
 * How a load test loads each engine: the same for every engine and phase. Immutable.
 *
 * @param clients  client threads, each running one query at a time
 * @param rate     open loop: queries a second over all clients, due on a schedule; 0: closed loop
 *                 (each client starts its next query as soon as its last one ended)
 * @param poisson  open loop: a Poisson schedule instead of evenly spaced queries
 * @param seed     the Poisson schedule's seed
 * @param timeout  each query's timeout
 * @param interval how often latency.csv gets a row and the live line an update
 */
record LoadProfile(int clients, double rate, boolean poisson, long seed, Duration timeout, Duration interval) {

    boolean openLoop() {
        return rate > 0;
    }

    /** A new schedule from its start for one phase, or null for a closed loop. */
    Arrivals arrivals() {
        if (!openLoop()) {
            return null;
        }
        return poisson ? Arrivals.poisson(rate, seed) : Arrivals.fixed(rate);
    }

    /** "closed loop, 4 clients" or "open loop at 20/s (Poisson, seed 7), 4 clients". */
    String describe() {
        String clientCount = clients + (clients == 1 ? " client" : " clients");
        if (!openLoop()) {
            return "closed loop, " + clientCount;
        }
        return String.format(Locale.ROOT, "open loop at %s/s (%s), %s", Rates.format(rate),
                poisson ? "Poisson, seed " + seed : "evenly spaced", clientCount);
    }
}
