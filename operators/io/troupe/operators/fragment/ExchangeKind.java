package io.troupe.operators.fragment;

import io.troupe.operators.expr.Expression;
import io.troupe.operators.sort.OrderKey;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What an exchange does with the batches that cross it, from its producers to its consumers: the
 * kinds of docs/overview.md and docs/cluster.md, and {@link Forward}. Keys are bound over
 * the rows that the producer's sink takes in (an aggregate's input, a sort's input).
 *
 * <p>Data only: immutable records, no lambdas, no actor or transport types, so that a fragmented
 * query can be shipped to other JVMs as it is (the keys are bound expressions, records too).
 */
public sealed interface ExchangeKind permits ExchangeKind.Gather, ExchangeKind.GatherMerge,
        ExchangeKind.Repartition, ExchangeKind.Broadcast, ExchangeKind.Forward {

    /**
     * Where an aggregate's input goes: by hash of its group {@code keys}, or, without keys (one group
     * over the whole input), all of it to one consumer.
     */
    static ExchangeKind grouped(List<Expression> keys) {
        return keys.isEmpty() ? new Gather() : new Repartition(keys);
    }

    /** The kind as EXPLAIN prints its line: {@code Gather}, {@code Repartition by hash (k)} ... */
    String label();

    /** Every producer's batches to one consumer, in no particular order (PostgreSQL's Gather). */
    record Gather() implements ExchangeKind {
        @Override
        public String label() {
            return "Gather";
        }
    }

    /**
     * Every producer's sorted stream to one consumer that merges them in {@code keys}' order
     * (PostgreSQL's Gather Merge): a sort's runs, one stream per producer.
     */
    record GatherMerge(List<OrderKey> keys) implements ExchangeKind {
        public GatherMerge {
            keys = List.copyOf(keys);
        }

        @Override
        public String label() {
            return "Gather Merge";
        }
    }

    /**
     * Every row to the one consumer that the hash of its {@code keys} picks, so that equal keys
     * meet (an aggregate's groups, a DISTINCT's rows).
     */
    record Repartition(List<Expression> keys) implements ExchangeKind {
        public Repartition {
            if (keys.isEmpty()) {
                throw new IllegalArgumentException("a repartition needs keys; without any, rows are gathered");
            }
            keys = List.copyOf(keys);
        }

        @Override
        public String label() {
            return "Repartition by hash (" + keys.stream().map(Expression::toString).collect(Collectors.joining(", "))
                    + ")";
        }
    }

    /** Every row to every consumer (a hash join's build side: every prober needs the whole table). */
    record Broadcast() implements ExchangeKind {
        @Override
        public String label() {
            return "Broadcast";
        }
    }

    /**
     * Each producer's batches stay where they were made, for the consumers beside it: a fragment
     * boundary that moves nothing, even between JVMs. Either every consumer above it reads any share of
     * the rows or has an exchange of its own (a shared subplan's kept batches, read by its uses:
     * {@code why} empty), or the rows are on the node their keys hash to already (an input co-located
     * on the keys by a table partitioned across the nodes: {@code why} says so).
     */
    record Forward(String why) implements ExchangeKind {
        /** A shared subplan's kept batches. */
        public static final Forward KEPT = new Forward("");

        public Forward {
            if (why == null) {
                throw new IllegalArgumentException("why a Forward is null; empty for a shared subplan's");
            }
        }

        @Override
        public String label() {
            return why.isEmpty() ? "Forward" : "Forward (" + why + ")";
        }
    }
}
