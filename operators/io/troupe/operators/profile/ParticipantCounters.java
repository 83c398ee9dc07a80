package io.troupe.operators.profile;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecutionProbe;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.Source;

import java.util.List;

/**
 * The counts of one participant (a worker, or the leader) over one pipeline: rows, batches and
 * nanoseconds at every site of its chains, a site being a branch's reader, one of its operators, or
 * the consumer it ends in. Sites are numbered branch by branch: the reader, the operators in order,
 * then the tail.
 *
 * <p>What a site counts: a reader, the batches it returned and the time spent in {@code next()} (a
 * branch whose input an exchange pushes, {@link #input}, counts it there as a consumer); an
 * operator or a tail, the batches pushed into it and the time spent in its {@code accept} and
 * {@code finish}, including the consumers it pushed into (pipelines push: an operator's own time is
 * its time minus the next site's, see {@link Profiler}).
 *
 * <h2>Concurrency</h2>
 * Owned by one participant: its wrappers write plain longs of one array, which no other participant
 * writes. The array is padded by a cache line at both ends so that two participants' counts never
 * share a line (lesson 1: false sharing), even when one thread allocated both. Reads happen after
 * the query finished; {@link Profiler} says why they see every write.
 */
final class ParticipantCounters implements ExecutionProbe.Recorder {

    static final int ROWS = 0;
    static final int BATCHES = 1;
    static final int NANOS = 2;
    private static final int SLOTS = 3;
    /** One cache line of longs. */
    private static final int PAD = 8;

    private final Pipeline pipeline;
    private final int participant;
    /** Per branch, the number of its reader's site. */
    private final int[] firstSite;
    /** Per branch, whether an exchange pushed its input ({@link #input}) rather than a reader reading it. */
    private final boolean[] pushed;
    private final long[] counts;

    ParticipantCounters(Pipeline pipeline, int participant) {
        this.pipeline = pipeline;
        this.participant = participant;
        List<Pipeline.Branch> branches = pipeline.branches();
        firstSite = new int[branches.size()];
        pushed = new boolean[branches.size()];
        int sites = 0;
        for (int b = 0; b < branches.size(); b++) {
            firstSite[b] = sites;
            sites += branches.get(b).operators().size() + 2;
        }
        counts = new long[PAD + sites * SLOTS + PAD];
    }

    Pipeline pipeline() {
        return pipeline;
    }

    /** A worker's index, or {@link ExecutionProbe#LEADER}. */
    int participant() {
        return participant;
    }

    /** The site of branch {@code branch}'s reader; its operator {@code i} is the site + 1 + i, its tail the site + operators + 1. */
    int firstSite(int branch) {
        return firstSite[branch];
    }

    /** Whether branch {@code branch}'s input was pushed into its chain ({@link #input}): its first site then counts as a consumer. */
    boolean pushed(int branch) {
        return pushed[branch];
    }

    long get(int site, int slot) {
        return counts[offset(site) + slot];
    }

    private static int offset(int site) {
        return PAD + site * SLOTS;
    }

    @Override
    public Source.SourceReader source(int branch, Source.SourceReader reader) {
        return new CountingReader(reader, counts, offset(firstSite[branch]));
    }

    @Override
    public BatchConsumer sink(int branch, BatchConsumer tail) {
        int site = firstSite[branch] + pipeline.branches().get(branch).operators().size() + 1;
        return new CountingConsumer(tail, counts, offset(site));
    }

    @Override
    public BatchConsumer operator(int branch, int index, BatchConsumer bound) {
        return new CountingConsumer(bound, counts, offset(firstSite[branch] + 1 + index));
    }

    @Override
    public BatchConsumer input(int branch, BatchConsumer head) {
        pushed[branch] = true;
        return new CountingConsumer(head, counts, offset(firstSite[branch]));
    }

    /** Counts the batches a reader returns and the time spent reading them. Not threadsafe. */
    private static final class CountingReader implements Source.SourceReader {
        private final Source.SourceReader reader;
        private final long[] counts;
        private final int at;

        CountingReader(Source.SourceReader reader, long[] counts, int at) {
            this.reader = reader;
            this.counts = counts;
            this.at = at;
        }

        @Override
        public Batch next() {
            long start = System.nanoTime();
            Batch batch = reader.next();
            counts[at + NANOS] += System.nanoTime() - start;
            if (batch != null) {
                counts[at + ROWS] += batch.size();
                counts[at + BATCHES]++;
            }
            return batch;
        }
    }

    /** Counts the batches pushed into a consumer and the time spent in it (and below it). Not threadsafe. */
    private static final class CountingConsumer implements BatchConsumer {
        private final BatchConsumer consumer;
        private final long[] counts;
        private final int at;

        CountingConsumer(BatchConsumer consumer, long[] counts, int at) {
            this.consumer = consumer;
            this.counts = counts;
            this.at = at;
        }

        @Override
        public boolean accept(Batch batch) {
            long start = System.nanoTime();
            boolean more = consumer.accept(batch);
            counts[at + NANOS] += System.nanoTime() - start;
            counts[at + ROWS] += batch.size();
            counts[at + BATCHES]++;
            return more;
        }

        @Override
        public void finish() {
            long start = System.nanoTime();
            consumer.finish();
            counts[at + NANOS] += System.nanoTime() - start;
        }
    }
}
