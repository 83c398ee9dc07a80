package io.troupe.operators.fragment;

/**
 * One exchange of a fragmented query: where batches change hands between two fragments, what it
 * does with them ({@link ExchangeKind}) and how this run realises it ({@link Mode}).
 *
 * <p>It sits at the end of the producer fragment's pipeline {@code from}: what that pipeline's sink
 * made of its input (a join's build rows, an aggregate's groups, a sort's runs) is what crosses it;
 * and it feeds the source of the consumer fragment's pipeline {@code to} (the probe, the aggregate's
 * result, the sorted output), or the query's result ({@link #RESULT}) for the Gather at the top.
 * Producers and consumers are fragments, not actors or channels: which participants run them and
 * which channel (stream id) each producer gets is the coordinator's to decide when the query runs
 * (the protocol is in {@code io.troupe.actors.exchange}).
 *
 * <p>Data only: an immutable record of ints, a {@link ExchangeKind} and an enum.
 *
 * @param id       the exchange's number in its query, from 0
 * @param kind     what it does with the batches
 * @param producer the fragment that sends
 * @param consumer the fragment that receives
 * @param from     the producer's pipeline whose sink's result crosses the exchange
 * @param to       the consumer's pipeline whose source reads what crossed, or {@link #RESULT}
 * @param mode     whether this run moves batches over channels or elides the exchange
 */
public record ExchangeSpec(int id, ExchangeKind kind, int producer, int consumer, int from, int to, Mode mode) {

    /** {@link #to} of the exchange that delivers the query's result (the root fragment runs no pipeline then). */
    public static final int RESULT = -1;

    /** How one run realises an exchange. */
    public enum Mode {
        /**
         * An exchange actor on the consumer's side reads one batch channel per producer: each producer
         * owns the sender end of its channel (an exclusive publication), the consumer polls.
         */
        CHANNELS,
        /**
         * Nothing moves: the consumer reads the producer's state in place, because both run in one
         * JVM (one shared hash table, one partitioned aggregate table, one sort's runs, the kept
         * batches) or because the leader runs the whole query alone (0 workers).
         */
        ELIDED
    }

    public ExchangeSpec {
        if (kind == null || mode == null) {
            throw new IllegalArgumentException("exchange " + id + ": kind and mode are required");
        }
        if (producer == consumer) {
            throw new IllegalArgumentException("exchange " + id + " (" + kind.label() + ") feeds the fragment "
                    + producer + " that produces it");
        }
    }

    /** This exchange realised as {@code other}. */
    public ExchangeSpec withMode(Mode other) {
        return new ExchangeSpec(id, kind, producer, consumer, from, to, other);
    }

    /** As EXPLAIN and errors name it: {@code exchange 2 (Broadcast, fragment 0 -> 1, elided)}. */
    @Override
    public String toString() {
        return "exchange " + id + " (" + kind.label() + ", fragment " + producer + " -> " + consumer + ", "
                + mode.name().toLowerCase(java.util.Locale.ROOT) + ")";
    }
}
