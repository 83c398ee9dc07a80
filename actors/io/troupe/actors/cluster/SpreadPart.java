package io.troupe.actors.cluster;

import io.troupe.actors.api.AnalyzedPart;
import io.troupe.actors.api.RunningQuery;
import io.troupe.actors.api.Troupe;
import io.troupe.operators.profile.PartProfile;
import org.apache.pekko.actor.typed.ActorRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * One node's part of a query spread over the nodes, which another node coordinates
 * ({@link QueryService.RunPart}), run on a thread of its own: it starts the part on the node's
 * {@link Troupe} ({@link Troupe#submitPart}) over its data plane ({@link SharedDriverNodeLinks}),
 * waits for it, and tells the coordinator's service {@link QueryService.PartEnded}, with the part's
 * exception when it failed, or under EXPLAIN ANALYZE ({@link Troupe#analyzePart}) its profile. The thread may wait in admission first, which is why it is not the
 * service's.
 *
 * <p>Concurrency: the thread owns the part; {@link #cancel} (the service: the coordinator's word, or
 * the coordinator's node left the cluster) sets a volatile reason that the thread passes on to the
 * running part, whichever of the two comes first.
 */
final class SpreadPart implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(SpreadPart.class);

    private final QueryService.RunPart run;
    private final Troupe troupe;
    private final PartAlignment alignment;
    private final DataPlane dataPlane;
    private final String nodeId;
    private final Runnable onEnded;
    private volatile String cancelled;
    private volatile RunningQuery running;

    SpreadPart(QueryService.RunPart run, Troupe troupe, PartAlignment alignment, DataPlane dataPlane,
               String nodeId, Runnable onEnded) {
        this.run = run;
        this.troupe = troupe;
        this.alignment = alignment;
        this.dataPlane = dataPlane;
        this.nodeId = nodeId;
        this.onEnded = onEnded;
    }

    void start() {
        Thread thread = new Thread(this, "troupe-part-" + Integer.toHexString(run.tag()) + "-" + run.node());
        thread.setDaemon(true);
        thread.start();
    }

    /** Whether {@code service} is the service of this part's coordinator. */
    boolean coordinatedBy(ActorRef<QueryService.Command> service) {
        return run.coordinator().equals(service);
    }

    /** Stops the part, within a batch. Any thread. */
    void cancel(String reason) {
        cancelled = reason;
        RunningQuery query = running;
        if (query != null) {
            query.cancel(reason);
        }
    }

    @Override
    public void run() {
        Throwable failure = null;
        List<String> held = List.of();
        PartProfile profile = null;
        try {
            alignment.align(run.plan(), run.nodeIds());
            held = PartCoverage.held(troupe.catalog(), run.plan());
            String planned = troupe.explainSpread(run.plan(), run.options(), run.nodeIds().size());
            if (planned.hashCode() != run.planHash()) {
                throw new IllegalStateException("node " + nodeId + " plans this query otherwise than its coordinator,"
                        + " node " + run.nodeIds().get(0) + " (other troupe.spread settings, or other tables?); here:\n"
                        + planned);
            }
            SharedDriverNodeLinks links = dataPlane.links(run.tag(), run.node(), run.nodes(), run.workers());
            AnalyzedPart analyzed = run.analyze() ? troupe.analyzePart(run.plan(), run.options(), links) : null;
            RunningQuery query = analyzed != null ? analyzed.query()
                    : troupe.submitPart(run.plan(), run.options(), links);
            running = query;
            String reason = cancelled;
            if (reason != null) {
                query.cancel(reason);
            }
            query.await();
            profile = analyzed == null ? null : analyzed.awaitProfile();
        } catch (RuntimeException | Error e) {
            failure = e;
            LOG.debug("[{}] part {} of spread query {} failed: {}", nodeId, run.node(), Integer.toHexString(run.tag()),
                    e.toString());
        } finally {
            run.coordinator().tell(new QueryService.PartEnded(run.tag(), run.node(), nodeId, failure, held, profile));
            onEnded.run();
        }
    }
}
