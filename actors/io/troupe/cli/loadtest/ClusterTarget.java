package io.troupe.cli.loadtest;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.cluster.ClusterQueryStream;
import io.troupe.actors.cluster.TroupeCluster;
import io.troupe.cli.BenchOutcome;
import io.troupe.operators.exec.QueryResult;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A running cluster under load ({@code loadtest --cluster SEED}): every client submits its queries
 * through one shared {@link TroupeCluster} client, which sends each to the next node in turn (the
 * client's default), where it is coordinated and spread as the cluster spreads it; the rows come back
 * into this JVM, and their checksum is summed after the query, on the client thread. Closing a stream
 * cancels its query on the node, which is how a stopped run ends the queries in flight.
 *
 * <p>Threadsafe, as {@link TroupeCluster} is; does not own the client.
 */
final class ClusterTarget implements LoadTarget {

    static final String ID = "cluster";

    private final TroupeCluster cluster;
    private final QueryOptions options;

    ClusterTarget(TroupeCluster cluster, QueryOptions options) {
        this.cluster = cluster;
        this.options = options;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public BenchOutcome run(LoadQuery query, int client, AtomicReference<Runnable> inFlight)
            throws InterruptedException {
        try (ClusterQueryStream stream = cluster.stream(query.plan(), options)) {
            inFlight.set(stream::close);
            QueryResult result = stream.remaining();
            return new BenchOutcome(0, result.rowCount(), BenchOutcome.checksum(result));
        } finally {
            inFlight.set(null);
        }
    }
}
