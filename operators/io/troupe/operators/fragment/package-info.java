/**
 * A compiled query's fragments and the exchanges between them, as data: what the planner decided
 * about where batches change hands, which the executor realises and never infers again.
 *
 * <h2>Where exchanges go, and why</h2>
 * Inside a pipeline each worker pushes its own morsels from source to sink: no batch changes hands.
 * Batches change hands only where a pipeline ends in a breaker's sink and a later pipeline reads what
 * the sink made, and at the top, where the workers' output becomes one result. So every pipeline
 * boundary is an exchange, of the kind the breaker needs when its producers and consumers may not
 * share memory ({@link io.troupe.operators.fragment.ExchangeKind}); the compiler declares it where
 * the consumer starts reading ({@code PipelineBuilder.dependsOn}):
 * <pre>
 *   breaker (compiled by)               what it made is read through          by
 *   hash join build (JoinNode)          Broadcast                             the probe
 *   aggregate, DISTINCT, each step of   Repartition by hash of the keys it    the step's result
 *   a count(DISTINCT) (its pairs, its   groups by, Gather without keys
 *   partial states)
 *   sort, top-N (SortNode)              Gather Merge in the sort's order      the sorted output
 *   shared subplan (Plan.share)         Forward                               each use
 *   the result (PlanCompiler)           Gather                                the caller
 * </pre>
 * Compiled to run spread over nodes, a join may Repartition both sides instead (once, where both sides are
 * the same rows by the same keys: a self join's build then reads, through a Forward, what the probe side's
 * Repartition kept on each node), and a join, aggregate or
 * DISTINCT whose input a table partitioned by a key column left where its rows hash already declares a
 * Forward that says so (co-located: nothing moves).
 * A pipeline whose sink tees into several (a count(DISTINCT)'s one pass) feeds each reader through
 * the exchange of what that reader reads. A fragment is what runs between exchanges; since every
 * boundary is one, it holds one pipeline, except the root, which makes the result: under a Gather it
 * runs none (the Gather delivers into the result), under a Gather Merge (the last pipeline reads a
 * sort's output alone) it holds that last pipeline, whose operators run once, after the merge.
 * {@link io.troupe.operators.fragment.FragmentPlan#cut} makes the fragments from the pipelines and
 * the declared exchanges; fragment and exchange ids run from producers to consumers.
 *
 * <h2>Modes: what moves in one JVM</h2>
 * Each exchange has a {@link io.troupe.operators.fragment.ExchangeSpec.Mode}. In one JVM only the
 * exchange at the top runs over channels ({@code CHANNELS}): a Gather Merge when the last pipeline
 * reads a sort's output alone, else the Gather. Every other one is elided ({@code ELIDED}): its
 * consumer reads the producer's shared state in place once the producer's pipeline finalized (one
 * hash table that every prober reads, one partitioned aggregate table that every worker merges
 * partition by partition, one sort's runs, the kept batches), which is why it needs no copy. With
 * the leader alone (0 workers) the top one is elided too ({@link
 * io.troupe.operators.fragment.FragmentPlan#leaderAlone}). The fragments are the same in every
 * case: only the modes change, so the fragments that run here are the ones that will run across
 * JVMs, where a Repartition or a Broadcast cannot be elided (a hash table cannot span processes).
 *
 * <h2>Data only</h2>
 * Records of ints, enums, and bound keys (immutable expressions of {@code io.troupe.operators.expr}):
 * no lambdas, no actor or transport types, no channel or stream ids. Which participants run a
 * fragment and which channel each producer writes is decided by the coordinator when the query
 * runs; the protocol by which producers and consumers meet is in {@code io.troupe.actors.exchange}.
 */
package io.troupe.operators.fragment;
