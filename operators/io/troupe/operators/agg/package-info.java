/**
 * Hash aggregation: GROUP BY with count, count(DISTINCT), sum, min, max and avg, and DISTINCT
 * (every column a key, no aggregates).
 *
 * <h2>Parallelism</h2>
 * The phases of one execution, marked "all" (every worker) or "one" (a single thread):
 * <ol>
 *   <li><b>AGGREGATING</b> (all): each worker aggregates the batches it is given into its own
 *       {@link io.troupe.operators.agg.Aggregation}: its own group table, its own state arrays.
 *       Nothing is shared, so nothing is written that another worker reads (lesson 1).</li>
 *   <li><b>Merge</b> (all, one at a time): at its {@code finish()} a worker merges its partial
 *       aggregation into the shared one under the sink's lock; the first to finish hands its
 *       own over without copying, later ones merge the smaller side into the larger. Each worker
 *       takes the lock once, so it is off the per-batch path.</li>
 *   <li><b>FINALIZED</b> (one): {@code finalizeSink()} completes the states (DECIMAL range
 *       checks, distinct counts) and publishes an {@link io.troupe.operators.agg.AggregateResult}.
 *       A global aggregate over no rows still has its one group.</li>
 *   <li><b>Emit</b> (all): {@link io.troupe.operators.agg.HashAggregateSource} readers take
 *       batch-sized ranges of group ids from an atomic counter and only read.</li>
 * </ol>
 * No worker ever waits for another while holding output, so the phases cannot deadlock: the
 * only wait is the lock around a merge, which holds no batch in flight.
 *
 * <h2>Layout</h2>
 * Groups are numbered densely in order of first appearance; group keys and aggregate states are
 * primitive arrays indexed by that number. A single INT32/DATE/INT64/DECIMAL key takes the fast
 * path of {@code LongKeyTable}; every other key shape uses {@code GenericKeyTable}.
 */
package io.troupe.operators.agg;
