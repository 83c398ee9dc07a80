/**
 * The hash join: {@link io.troupe.operators.join.HashJoinBuildSink} builds one
 * {@link io.troupe.operators.join.HashJoinTable} from the join's right input, and
 * {@link io.troupe.operators.join.HashJoinProbeOperator} probes it with the left input.
 *
 * <h2>Note on parallelism</h2>
 * (After PostgreSQL's nodeHashjoin.c.) One hash table is shared by every worker of a query:
 * workers build it together and probe it together, and no worker ever holds a lock on the data
 * path. The join moves through the phases of {@link io.troupe.operators.join.JoinPhase}; each step
 * below is marked <b>one</b> (a single worker does it, the others go on or have nothing to do)
 * or <b>all</b> (every participating worker does it).
 *
 * <pre>
 *   BUILDING            all   each build worker evaluates the right keys of its batches and copies
 *                             keys and columns into chunks that it alone writes, each chunk's entries
 *                             one chunk of the query's arena memory (troupe.hash.chunk-size: 4096
 *                             INT32-keyed rows at 32 KiB; lesson 2), taken lock-free; a chunk id
 *                             (and so each row's id) comes from an atomic counter; when its input
 *                             ends, the worker hands its chunks to the table and leaves
 *   (barrier)                 the build pipeline ends: every build worker has finished
 *   ALLOCATING          one   the worker that finalizes counts the rows and allocates the bucket
 *                             heads (a power of two at least the row count, all END) and, for
 *                             RIGHT and FULL (every join under always-write), one match flag per
 *                             row; the phase becomes INSERTING
 *   INSERTING           all   inserters claim whole chunks from an atomic counter and link each
 *                             row: write its next slot, then CAS the bucket head to its id. Rows
 *                             with a NULL key are never linked. Every build worker calls
 *                             insertNextChunk() (the sink's finalize work) until it returns false
 *   (barrier)                 one worker moves the phase to PROBING and publishes the table in the
 *                             ExecContext; the probe pipeline starts only after that
 *   PROBING             all   every prober binds (activeProbers + 1), probes its batches, and
 *                             writes nothing shared but match flags, and those only when not yet
 *                             set (lesson 1: troupe.hash.match-flags = check-before-write; the
 *                             always-write baseline, PostgreSQL 12's, keeps flags in every join
 *                             and stores one on every match). On finish a prober
 *                             decrements activeProbers; all but the last forward finish() and are
 *                             done: they never wait for the others
 *   EMITTING_UNMATCHED  one   the prober that brought activeProbers to zero (and won the CAS from
 *                             0 to CLOSED) emits, for RIGHT and FULL joins, every build row whose
 *                             flag is still 0 with NULL left columns, then forwards its finish()
 *   DONE                one   that same prober marks the join done; the table may be dropped
 *   (query end)               the executor returns the entries to the arena once no worker of the
 *                             query runs (LocalRun, or the query's coordinator)
 * </pre>
 *
 * <h3>Memory ordering</h3>
 * Rows and chunks are published to the allocator by the hand-in (a lock taken once per worker);
 * the allocated arrays to inserters by the volatile phase write; next slots to readers by the
 * bucket CAS; the whole table to probers by the ExecContext publication after the build pipeline.
 * Match flags need no fence of their own: each prober's decrement of activeProbers is an atomic
 * read-modify-write, so the last prober's decrement comes after, and sees, every other prober's
 * flag stores.
 *
 * <h3>Deadlock rule</h3>
 * No worker waits at a barrier while it may hold output that its consumer waits for (design.md;
 * this is why PostgreSQL waited until version 16 for parallel right and full joins). The two
 * barriers above fall where the build produces no output at all. After probing there is no
 * barrier: instead of all probers waiting until every match flag is final, the last one to finish
 * takes the unmatched rows alone and the others finish and release their consumers at once. The
 * unmatched rows flow through the last prober's own output, which its consumer keeps draining.
 *
 * <h3>Late joiners</h3>
 * Every prober must bind before the last prober finishes: the executor binds all of a pipeline's
 * consumers before it drives any (LocalRun does so for the branches of a union). A prober
 * that binds later would probe after the unmatched rows were emitted, so its bind fails with an
 * IllegalStateException instead of returning wrong rows. A build worker, likewise, must hand in
 * its chunks before allocation, or allocation fails.
 *
 * <h3>Stopping early</h3>
 * A prober whose consumer wants no more rows (a LIMIT was reached) stops probing; if it is the
 * last, it skips the unmatched rows, as nobody downstream wants them.
 */
package io.troupe.operators.join;
