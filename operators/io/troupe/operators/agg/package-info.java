/**
 * Hash aggregation: GROUP BY with count, count(DISTINCT), sum, min, max, avg, the variances and standard
 * deviations, bool_and and bool_or, corr and the covariances and regressions, median, the percentiles, mode,
 * string_agg, approx_count_distinct and approx_quantile, and single_value, and DISTINCT (every column a key, no
 * aggregates).
 *
 * <h2>States</h2>
 * Each aggregate keeps an {@link io.troupe.operators.agg.AggregateState} per group: a few numbers for most
 * (counts, sums, Welford's moments); every value of the group for median, the percentiles, mode and string_agg
 * ({@link io.troupe.operators.agg.ValueLog}), whose memory grows with the rows; a bounded sketch for the
 * approximate ones ({@link io.troupe.operators.agg.SketchState}). Every state merges with another worker's and
 * writes itself as partial rows (a VARCHAR cell per group for the growing ones), so that all of them spill, run in
 * steps beside count(DISTINCT), and merge across nodes alike.
 *
 * <h2>Parallelism</h2>
 * The phases of one execution, marked "all" (every worker) or "one" (a single thread):
 * <ol>
 *   <li><b>AGGREGATING</b> (all): each worker aggregates the batches it is given into its own
 *       {@link io.troupe.operators.agg.Aggregation}: its own group table, its own state arrays.
 *       Nothing is shared, so nothing is written that another worker reads (lesson 1).</li>
 *   <li><b>Hand-in</b> (all, one at a time): at its {@code finish()} a worker sorts its partial
 *       aggregation's groups into 64 partitions by key hash
 *       ({@link io.troupe.operators.agg.PartitionedGroups}, on its own thread) and hands it to the
 *       shared state under the sink's lock, once.</li>
 *   <li><b>MERGING</b> (all): once every worker handed in (the executor's barrier), the merge is
 *       shared out as units of finalize work. With many groups (32K and up) and several
 *       partials, a unit is one partition: a worker claims it from an atomic counter and merges
 *       that partition of every partial into a new aggregation of its own, then completes its
 *       states (DECIMAL range checks); units never touch the same groups, so they need no lock.
 *       Otherwise one unit merges every partial into the largest.</li>
 *   <li><b>FINALIZED</b> (one): {@code finalizeSink()} publishes the merged parts as an
 *       {@link io.troupe.operators.agg.AggregateResult}. A global aggregate over no rows still
 *       has its one group.</li>
 *   <li><b>Emit</b> (all): {@link io.troupe.operators.agg.HashAggregateSource} readers take
 *       batch-sized ranges of group ids from an atomic counter and only read.</li>
 * </ol>
 * No worker ever waits for another while holding output, so the phases cannot deadlock: the
 * only waits are the lock around a hand-in and the barrier before the merge, and neither holds a
 * batch in flight.
 *
 * <h2>Layout</h2>
 * Groups are numbered densely in order of first appearance; group keys and aggregate states are
 * primitive arrays indexed by that number. A single INT32/DATE/INT64/DECIMAL key takes the fast
 * path of {@code LongKeyTable}; every other key shape uses {@code GenericKeyTable}.
 */
package io.troupe.operators.agg;
