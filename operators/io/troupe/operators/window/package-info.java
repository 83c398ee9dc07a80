/**
 * Window functions: SQL's {@code f(...) OVER (PARTITION BY p ORDER BY o [frame])}, computed for every input
 * row without collapsing rows.
 *
 * <h2>Protocol</h2>
 * A window is a pipeline breaker, compiled by the plan's window node into a {@link
 * io.troupe.operators.window.WindowSink} ending its input's pipeline and a {@link
 * io.troupe.operators.window.WindowSource} starting the next:
 * <ol>
 *   <li>Every worker (all): its {@link io.troupe.operators.window.WindowBuffer} cuts each batch into one piece
 *       per hash part of the rows' PARTITION BY keys ({@code VectorHash.part}, 64 parts; one part without keys)
 *       and keeps the pieces, reserved on the window's memory account; at {@code finish()} it adds them, by
 *       part, to the sink's shared lists.</li>
 *   <li>{@code finalizeSink} (once, single-threaded): publishes the parts ({@link
 *       io.troupe.operators.window.WindowParts}). Nothing is merged or sorted yet.</li>
 *   <li>Every reader of the source (all): claims the next part from one atomic counter, sorts it by the
 *       partition keys and then the ORDER BY keys with the sort's machinery, cuts it into partitions and peer
 *       groups, computes each function's column over each partition ({@link
 *       io.troupe.operators.window.PartitionFunctions}), emits the rows with those columns in batches, gives
 *       the part's memory back and claims the next, until none is left.</li>
 * </ol>
 * A partition lies in one part, since equal keys hash alike, so parts are independent and the workers compute
 * them in parallel, none waiting for another. Without PARTITION BY the input is one partition, so one part,
 * and one worker computes it while the others find nothing to claim (DuckDB and PostgreSQL too run such a
 * window on one thread).
 *
 * <p>Across JVMs the planner declares the window's input a Repartition by hash of the partition keys (a
 * Gather without keys), as for an aggregate: each node then holds whole partitions. In one JVM that exchange is
 * elided, the readers reading the one sink's parts in place.
 *
 * <h2>Frames</h2>
 * A framed function reads, for each row, the rows of its {@link io.troupe.operators.window.WindowFrame} (ROWS,
 * RANGE or GROUPS, with EXCLUDE), found once per partition for all the calls that share the frame ({@code
 * PartitionFrames}). Every bound moves forward only as the rows go by, a RANGE offset's too (the rows are sorted
 * by its one key), so each is a pointer that walks the partition once, and the functions then read a frame's
 * runs in O(1) (counts and exact sums from prefix sums) or O(log rows) (double sums from a segment tree), and
 * min and max from a monotonic queue per run. PostgreSQL's semantics, NULL keys and EXCLUDE included.
 *
 * <h2>Memory</h2>
 * One account per execution: the kept rows, and for each part being computed its sort, cuts and function
 * columns, reserved before they are made. Over the budget the query fails with the budget's error: a window
 * does not spill (yet).
 */
package io.troupe.operators.window;
