package io.troupe.actors.exchange;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.fragment.NodeRouter;

import java.util.List;

/**
 * A worker's end of a query spread over nodes: every batch its chains make for the pipeline's sink
 * is split by {@link NodeRouter} into the rows for each node; this node's go into a local of the sink
 * here, each other node's into a {@link GatherOutlet} of its own (a stream to that node's exchange
 * actor, which feeds them into that node's sink). The end of stream goes to every other node once the
 * worker's last branch finished; the worker then shares the sink's finalize work here as any worker does.
 * The coordinator's workers of the pipeline that makes the result send their own rows through a
 * channel too, to the Gather that takes every node's (it streams them, or collects them in the sink).
 *
 * <p>Not threadsafe: owned by one worker; {@link #close()} may come from its PostStop.
 */
public final class NodeOutlet implements WorkerOutlet {

    private final NodeRouter router;
    private final int self;
    private final Sink.SinkState sink;
    private final boolean keepsRows;
    /** By node: the stream to it; null for this node and for nodes this worker sends nothing. */
    private final GatherOutlet[] toNodes;
    private final BatchConsumer[] remoteTails;
    private final Batch[] routed;

    /**
     * @param router  how rows are split between nodes
     * @param self    this node
     * @param sink    the pipeline's sink here, for the rows routed to this node
     * @param destinations the nodes this worker's rows go to
     * @param toNodes by node, its stream; null where none. This node's is a channel to its own Gather; null
     *                when this node's rows go into {@code sink} here
     */
    NodeOutlet(NodeRouter router, int self, Sink.SinkState sink, List<Integer> destinations, GatherOutlet[] toNodes) {
        this.router = router;
        this.self = self;
        this.sink = sink;
        this.keepsRows = destinations.contains(self) && toNodes[self] == null;
        this.toNodes = toNodes.clone();
        this.remoteTails = new BatchConsumer[toNodes.length];
        for (int n = 0; n < toNodes.length; n++) {
            remoteTails[n] = toNodes[n] == null ? null : toNodes[n].tail();
        }
        this.routed = new Batch[toNodes.length];
    }

    @Override
    public BatchConsumer tail() {
        BatchConsumer local = keepsRows ? sink.local() : null;
        return new BatchConsumer() {
            @Override
            public boolean accept(Batch batch) {
                router.route(batch, routed);
                for (int n = 0; n < routed.length; n++) {
                    Batch rows = routed[n];
                    if (rows == null) {
                        continue;
                    }
                    if (n == self && local != null) {
                        local.accept(rows);
                    } else {
                        remoteTails[n].accept(rows);
                    }
                }
                return true;
            }

            @Override
            public void finish() {
                if (local != null) {
                    local.finish();
                }
            }
        };
    }

    @Override
    public void endOfStream() {
        for (GatherOutlet out : toNodes) {
            if (out != null) {
                out.endOfStream();
            }
        }
    }

    @Override
    public boolean feedsSink() {
        return keepsRows;
    }

    @Override
    public void close() {
        for (GatherOutlet out : toNodes) {
            if (out != null) {
                out.close();
            }
        }
    }
}
