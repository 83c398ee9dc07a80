/**
 * WITH RECURSIVE: the recursive union of a non-recursive term and a recursive term that runs again and again over
 * the rows its last run added (the work table), until a run adds none. {@code RecursiveUnionNode} (the plan's
 * "Recursive Union") compiles into the non-recursive term's pipelines, ending in
 * {@link io.troupe.operators.recursive.RecursiveUnionSink#seed}; the recursive term's, whose
 * {@link io.troupe.operators.recursive.WorkTableSource} reads the work table, ending in
 * {@link io.troupe.operators.recursive.RecursiveUnionSink#step}: the body of a loop; and a
 * {@link io.troupe.operators.recursive.RecursionResultSource} that reads every row for the rest of the plan. The
 * execution's state is one {@link io.troupe.operators.recursive.Recursion}.
 *
 * <h2>Note on the protocol</h2>
 * (After PostgreSQL's nodeRecursiveunion.c and its working table.) The executor runs a query's pipelines one after
 * another ({@link io.troupe.operators.exec.PipelineOrder}); a round of the recursive term is the run of the loop's
 * pipelines, each in parallel like any other (workers, morsels). Each step is marked <b>one</b> (the executor's
 * thread: the leader's {@code LocalRun}, or the query's coordinator) or <b>all</b> (every worker of the pipeline).
 *
 * <pre>
 *   SEEDING       all   the non-recursive term's workers push their rows into the seed sink's locals: under UNION
 *                       ALL each keeps its batches (compacted, reserved from the recursion's account first) and
 *                       hands them over under the Recursion's lock when its input ends; under UNION each adds its
 *                       rows to the DistinctRows set, locking one of its 16 partitions at a time
 *   (barrier)           the pipeline ends: every worker has reported
 *   ROUND END     one   the seed sink's finalize ends round 0 (Recursion.endRound): its rows become the work table
 *                       (UNION: what the set newly holds, copied out in batches) and the Recursion is published
 *   CHECKPOINT    one   before the body's first pipeline first opens, the executor notes where the query stands:
 *                       what was published, which memory accounts are open (ExecContext.checkpoint)
 *   ROUND         all   the body's pipelines run in order: the WorkTableSource hands the work table's batches out
 *                       as morsels; joins with base tables, aggregates, sorts in the term run as anywhere; the step
 *                       sink's locals take the rows as in SEEDING
 *   ROUND END     one   the step sink's finalize ends the round, then again(): an empty work table ends the loop;
 *                       a round that added rows after troupe.sql.recursion-limit rounds fails the query, naming the
 *                       limit; otherwise the executor rolls back to the checkpoint (ExecContext.rollBack: what the
 *                       body's pipelines published is forgotten and the memory of their operators given back) and
 *                       runs the body again from its first pipeline
 *   RESULT        all   the pipeline after the loop reads every row: UNION ALL's kept batches, or the set's rows,
 *                       as morsels
 *   (query end)         the recursion's account goes back with the rest of the query's memory
 * </pre>
 *
 * <h3>Memory ordering</h3>
 * A worker's rows reach the Recursion under its lock (UNION ALL) or a partition's lock (UNION); every worker of a
 * pipeline reports to the executor before the sink's finalize runs (an actor message, whose send happens before its
 * receipt), so endRound sees every row, and the next round's readers, which the executor starts after the finalize
 * returned, see the new work table. The work table is never written while a round reads it, nor the set while
 * the result is read.
 *
 * <h3>Deadlock rule</h3>
 * No new wait: the only barriers are the executor's between two pipelines, which workers pass holding no output
 * (their chains have finished). A round's pipelines end in a sink, never in an exchange whose consumer could wait.
 *
 * <h3>Cancel, timeout and the limit</h3>
 * A round is ordinary pipelines: workers look for a cancel between batches, the executor between steps and
 * pipelines, so a runaway recursion stops within a batch of a cancel or the query's timeout. PostgreSQL and DuckDB
 * loop until something else stops them; Troupe also stops a recursion whose term still adds rows after
 * {@code troupe.sql.recursion-limit} runs, which catches a recursion that never ends without its running for the
 * whole timeout.
 *
 * <h3>Memory</h3>
 * Every row kept counts against the query's memory, in the recursion's own account ("WITH RECURSIVE name"): UNION
 * ALL's batches as they are kept, UNION's set as its tables grow, and UNION's work table copy for the round it is
 * read. Over the query's limit the query fails with the budget's error naming that account; the rows are not
 * spilled (PostgreSQL's tuplestore would spill them). The operators of a round hold their memory only for that
 * round: the roll back before the next gives it back.
 *
 * <h3>Spread over nodes</h3>
 * The loop's pipelines run on the coordinator alone ({@code SpreadPlan}): a round ends only when all its rows are in,
 * and the coordinator alone decides whether another runs, so no node waits for another between rounds. The
 * non-recursive term runs on every node as usual, its rows gathered to the coordinator's seed sink, and what reads
 * the union's rows runs on the coordinator. A recursive term that reads a table partitioned across the nodes cannot
 * run there, and such a query is refused before it starts.
 */
package io.troupe.operators.recursive;
