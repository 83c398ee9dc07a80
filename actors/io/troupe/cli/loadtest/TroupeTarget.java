package io.troupe.cli.loadtest;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.RunningQuery;
import io.troupe.actors.api.Troupe;
import io.troupe.cli.BenchOutcome;
import io.troupe.operators.exec.QueryResult;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The embedded Troupe under load: every client submits its queries to the same {@link Troupe} with
 * the same options (workers, timeout), as a service's request threads would. With 0 workers a query
 * runs on the client's thread. The result's checksum is summed after the query, on the client thread.
 *
 * <p>Threadsafe, as {@link Troupe} is; does not own the Troupe.
 */
final class TroupeTarget implements LoadTarget {

    private final Troupe troupe;
    private final QueryOptions options;

    TroupeTarget(Troupe troupe, QueryOptions options) {
        this.troupe = troupe;
        this.options = options;
    }

    @Override
    public String id() {
        return "troupe";
    }

    @Override
    public BenchOutcome run(LoadQuery query, int client, AtomicReference<Runnable> inFlight) {
        RunningQuery running = troupe.submit(query.plan(), options);
        inFlight.set(() -> running.cancel("the load test was stopped"));
        try {
            QueryResult result = running.await();
            return new BenchOutcome(0, result.rowCount(), BenchOutcome.checksum(result));
        } finally {
            inFlight.set(null);
        }
    }
}
