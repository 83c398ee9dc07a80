/**
 * Functions of one's own, written in Java (user guide: docs/udfs.md). {@link
 * io.troupe.operators.udf.UserFunctions} is one Troupe's registry of them, held by its {@code Catalog}: a scalar
 * function is a {@code ScalarFunction} of one signature (the registered types) whose kernel is an {@link
 * io.troupe.operators.udf.OwnCall} over the user's {@link io.troupe.operators.udf.VectorFunction}, or over a
 * {@link io.troupe.operators.udf.RowFunction} through {@link io.troupe.operators.udf.RowsOf}, so that binding,
 * argument conversion, errors and SQL's operator table treat it as a built-in function. An aggregate is an {@link
 * io.troupe.operators.udf.OwnAggregate} over the user's {@link io.troupe.operators.udf.UserAggregate}: a plan's
 * aggregate calls it by name as well, and its {@code AggregateSpec} ({@code AggregateFunction.OWN}) carries it to
 * {@code OwnAggregateState}, which keeps a state per group and writes it as partial rows of its registered fields'
 * types, so that it merges across workers, spills, and combines across nodes as sum's state does.
 *
 * <h2>How a call finds its function</h2>
 * A plan names the function ({@code FunctionCall}); the Troupe that takes the plan binds each call of a name of
 * its own to its registry ({@code Plan.withFunctions}, in {@code PlanCompiler.compile} and {@code
 * PlanOptimizer.optimize}), which makes it a {@code UserCall}. SQL's planner puts the registry's functions over the
 * built-in operator table, so Calcite's validator types the call by the registered signature. On the wire a {@code
 * UserCall} carries its name and arguments only; the node that reads it binds it in its own Troupe, or fails the
 * query naming the function.
 *
 * <h2>Concurrency</h2>
 * Registration replaces an immutable snapshot ({@link io.troupe.operators.udf.OwnFunctions}) under a lock;
 * readers take the snapshot without one, and a plan is bound to one snapshot. A bound call is immutable and shared
 * by the query's workers, which call the user's function at once from their threads: the function must be
 * threadsafe, and the docs say so. An aggregate's states are each worker's own.
 */
package io.troupe.operators.udf;
