package io.troupe.actors.exchange;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.profile.PartProfile;
import io.troupe.transport.BatchHandler;
import io.troupe.transport.BatchReceiver;
import io.troupe.transport.BatchSender;
import io.troupe.transport.codec.BatchCodec;

import java.util.ArrayList;
import java.util.List;

/**
 * {@link NodeLinks} that count what crosses them, for EXPLAIN ANALYZE of a spread query: every end
 * opened through them is wrapped so that it counts the batches, rows and payload bytes (the batch's
 * encoded length, {@link BatchCodec#encodedLength}, whatever the transport) it sent or received, per
 * pipeline ({@link #traffic}). Only an analyzed part pays for it: an unprofiled part's links are not
 * wrapped.
 *
 * <h2>Concurrency</h2>
 * Each end's counts are plain longs written by the end's one owner (a sender by its worker, a
 * receiver by the exchange actor that polls it), with no allocation per batch. They are read by
 * {@link #traffic} after the part ended: its coordinator completes the part's future only after every
 * worker and exchange actor of it stopped (Pekko's termination of a child happens before its parent
 * hears of it), and the reader reads after that future completed. Opening ends (the coordinator's
 * thread) and {@link #traffic} synchronize on this.
 */
public final class CountingNodeLinks implements NodeLinks {

    private final NodeLinks links;
    private final List<CountingSender> senders = new ArrayList<>();
    private final List<CountingReceiver> receivers = new ArrayList<>();

    public CountingNodeLinks(NodeLinks links) {
        this.links = links;
    }

    @Override
    public int self() {
        return links.self();
    }

    @Override
    public int nodes() {
        return links.nodes();
    }

    @Override
    public String nodeName(int node) {
        return links.nodeName(node);
    }

    @Override
    public synchronized BatchSender sender(int pipeline, int worker, int to) {
        CountingSender sender = new CountingSender(pipeline, links.sender(pipeline, worker, to));
        senders.add(sender);
        return sender;
    }

    @Override
    public synchronized BatchReceiver receiver(int pipeline, int from, int worker) {
        CountingReceiver receiver = new CountingReceiver(pipeline, links.receiver(pipeline, from, worker));
        receivers.add(receiver);
        return receiver;
    }

    /** The pipelines whose rows crossed these links, in either direction, in the order their ends were opened. */
    public synchronized List<Integer> pipelines() {
        List<Integer> pipelines = new ArrayList<>();
        senders.forEach(s -> addOnce(pipelines, s.pipeline));
        receivers.forEach(r -> addOnce(pipelines, r.pipeline));
        return pipelines;
    }

    private static void addOnce(List<Integer> list, int value) {
        if (!list.contains(value)) {
            list.add(value);
        }
    }

    /**
     * What pipeline {@code pipeline}'s ends sent and received, summed over this node's ends; call it only
     * after the part ended (see the class comment).
     *
     * @param label how the exchange is drawn
     * @param above the plan node it is drawn above; null for the exchange that makes the result
     */
    public synchronized PartProfile.Drawn traffic(int pipeline, String label, Plan above) {
        long[] sent = new long[3];
        long[] received = new long[3];
        senders.stream().filter(s -> s.pipeline == pipeline).forEach(s -> s.counts.addTo(sent));
        receivers.stream().filter(r -> r.pipeline == pipeline).forEach(r -> r.counts.addTo(received));
        return new PartProfile.Drawn(pipeline, label, above, sent[0], sent[1], sent[2], received[0], received[1],
                received[2]);
    }

    @Override
    public void close() {
        links.close();
    }

    /** Batches, rows and bytes of one end. Not threadsafe: written by the end's owner only. */
    private static final class Counts {
        long batches;
        long rows;
        long bytes;

        void count(Batch batch) {
            batches++;
            rows += batch.size();
            bytes += BatchCodec.encodedLength(batch, 0, batch.size());
        }

        void addTo(long[] sums) {
            sums[0] += batches;
            sums[1] += rows;
            sums[2] += bytes;
        }
    }

    /** Counts each batch once it is sent whole (a retry after back-pressure sends the rest of the same batch). */
    private static final class CountingSender implements BatchSender {
        final int pipeline;
        final Counts counts = new Counts();
        private final BatchSender sender;

        CountingSender(int pipeline, BatchSender sender) {
            this.pipeline = pipeline;
            this.sender = sender;
        }

        @Override
        public long offer(Batch batch) {
            long result = sender.offer(batch);
            if (result > 0) {
                counts.count(batch);
            }
            return result;
        }

        @Override
        public long offerEndOfStream() {
            return sender.offerEndOfStream();
        }

        @Override
        public void flush() {
            sender.flush();
        }

        @Override
        public void idle(int workCount) {
            sender.idle(workCount);
        }

        @Override
        public void close() {
            sender.close();
        }
    }

    /** Counts each batch delivered, in front of the poller's handler (one handler object, no allocation per poll). */
    private static final class CountingReceiver implements BatchReceiver, BatchHandler {
        final int pipeline;
        final Counts counts = new Counts();
        private final BatchReceiver receiver;
        /** The handler of the poll in progress. */
        private BatchHandler handler;

        CountingReceiver(int pipeline, BatchReceiver receiver) {
            this.pipeline = pipeline;
            this.receiver = receiver;
        }

        @Override
        public int poll(BatchHandler handler, int batchLimit) {
            this.handler = handler;
            return receiver.poll(this, batchLimit);
        }

        @Override
        public void onBatch(Batch batch) {
            counts.count(batch);
            handler.onBatch(batch);
        }

        @Override
        public void onEndOfStream() {
            handler.onEndOfStream();
        }

        @Override
        public State state() {
            return receiver.state();
        }

        @Override
        public void flush() {
            receiver.flush();
        }

        @Override
        public void idle(int workCount) {
            receiver.idle(workCount);
        }

        @Override
        public void close() {
            receiver.close();
        }
    }
}
