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
 *                             (and so each row's id) comes from an atomic counter; it seals each
 *                             full chunk into the table (a lock taken once per chunk) and, when its
 *                             input ends, its last, its columns cut to its rows (a small build of
 *                             unknown count holds its rows while probed, not a chunk), and leaves
 *   (barrier)                 the build pipeline ends: every build worker has finished
 *   ALLOCATING          one   the worker that finalizes counts the rows and allocates the bucket
 *                             heads (a power of two at least the row count, up to eight a row for a
 *                             small table: see HashJoinTable.buckets, all END) and, for
 *                             RIGHT, FULL, RIGHT_SEMI and RIGHT_ANTI (every join under always-write),
 *                             one match flag per row; the phase becomes INSERTING
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
 *                             flag is still 0 with NULL left columns (RIGHT_ANTI: those rows alone;
 *                             RIGHT_SEMI: the rows whose flag is 1), then forwards its finish()
 *   DONE                one   that same prober marks the join done; the table may be dropped
 *                             (a spilled join's partitions are joined after: see Spilling)
 *   (query end)               the executor returns the entries to the arena once no worker of the
 *                             query runs (LocalRun, or the query's coordinator)
 * </pre>
 *
 * <h3>Memory ordering</h3>
 * Rows and chunks are published to the allocator by the seal (a lock taken once per chunk);
 * the allocated arrays to inserters by the volatile phase write; next slots to readers by the
 * bucket CAS; the whole table to probers by the ExecContext publication after the build pipeline.
 * Match flags need no fence of their own: each prober's decrement of activeProbers is an atomic
 * read-modify-write, so the last prober's decrement comes after, and sees, every other prober's
 * flag stores.
 *
 * <h3>Deadlock rule</h3>
 * No worker waits at a barrier while it may hold output that its consumer waits for (this
 * is why PostgreSQL waited until version 16 for parallel right and full joins). The two
 * barriers above fall where the build produces no output at all. After probing there is no
 * barrier: instead of all probers waiting until every match flag is final, the last one to finish
 * takes the unmatched rows alone and the others finish and release their consumers at once. The
 * unmatched rows flow through the last prober's own output, which its consumer keeps draining.
 *
 * <h3>Late joiners</h3>
 * Every prober must bind before the last prober finishes: the executor binds all of a pipeline's
 * consumers before it drives any (LocalRun does so for the branches of a union). A prober
 * that binds later would probe after the unmatched rows were emitted, so its bind fails with an
 * IllegalStateException instead of returning wrong rows. A build worker, likewise, must seal its
 * last chunk before allocation, or allocation fails.
 *
 * <h3>Stopping early</h3>
 * A prober whose consumer wants no more rows (a LIMIT was reached) stops probing; if it is the
 * last, it skips the unmatched rows, as nobody downstream wants them.
 *
 * <h2>Spilling (over the memory budget)</h2>
 * (After DuckDB's external hash join and PostgreSQL's hybrid hash join.)
 * Every build chunk is reserved from the join's account before it is made. When the account
 * refuses one and {@code troupe.spill.enabled} is on, the table <b>spills</b> (with it off, the
 * query fails with the budget's error, as before spilling); nothing changes until then, so a join
 * that fits pays nothing for being able to spill: its rows are not partitioned in memory, and its
 * pipeline's extra branch (below) is not even bound.
 * <pre>
 *   BUILDING, spilled   all   the table's residence goes IN_MEMORY -&gt; SPILLED, once, under the lock
 *                             that seals chunks. From then on every build row goes to the spill
 *                             file of its partition: 16 partitions by 4 bits of the row's hash
 *                             ({@link io.troupe.operators.join.Radix}: the top bits, level 0, never
 *                             the bucket bits), one file per partition shared by the workers. The
 *                             chunks made so far are written out and given back: a worker's own
 *                             current chunk by that worker when it sees the change (once per batch),
 *                             the sealed ones (full, or of finished workers) by whichever worker
 *                             takes them first, so a worker short of memory frees memory itself
 *   ALLOCATING          one   a spilled table allocates no buckets and holds no row; the build
 *                             files are finished (the build's barrier orders every write before)
 *   PROBING, spilled    all   each prober writes every probe row with a key to its partition's
 *                             probe file; a row with a NULL key matches nothing and is probed in
 *                             memory (LEFT, FULL and ANTI emit it); the last prober finishes the
 *                             probe files and opens the join's PartitionQueue with one partition
 *                             per pair of files that can produce a row
 *   JOINING PARTITIONS  all   every participant claims partitions from the queue, one at a time:
 *                             loads its build rows into a table of its own (a level deeper),
 *                             probes it with the partition's probe rows, emits the unmatched build
 *                             rows (RIGHT, FULL), gives its memory back and deletes its files
 * </pre>
 * A partition's table that does not fit spills in turn, the same way, by the next level's bits:
 * a partition too big is repartitioned, and its partitions join the queue. <b>Skew guard</b>: a
 * partition whose build rows all have one hash (a key repeated) cannot be split by any bits, and
 * one that took at least 4/5 of the rows of a partition it was split from was hardly split
 * (DuckDB's "very very skewed"; PostgreSQL stops adding batches when splitting did not help);
 * neither is split again, and each must fit. If it does not, its participant drops what it loaded
 * (before it emitted a row) and queues it again, to be joined alone once the partitions being
 * joined gave their memory back; when it fails alone, the query fails with an error naming
 * the partition, why it cannot be split, and the budget. Never a wrong answer, never a hang.
 *
 * <p>Why partition only once over the budget (DuckDB and PostgreSQL's parallel hash partition from
 * the start): scattering every build row into per-partition chunks costs the join that fits, which
 * is the common one, a hash and a scattered copy per row (a micro-benchmark on this project's
 * loaded 2-core machine: about 20 ms more per million INT32 keys, twice the time of copying them).
 * Spilling only after the fact costs the join that spills instead: the rows built before it spilled
 * are written out, and no partition stays in memory, so every build and probe row of a spilled join
 * is written once and read once (a Grace join, where a hybrid one keeps the partitions that fit).
 *
 * <h3>Where the partitions are joined</h3>
 * The join's probe pipeline has a second branch after the probe's, compiled with it
 * ({@link io.troupe.operators.join.SpilledPartitionsSource}), feeding the same operators above the
 * join (shared by object, as under a UNION ALL). Each participant drives it after its own probing,
 * through a {@link io.troupe.operators.join.PartitionJoiner} that pushes its rows straight into the
 * chain (a partition's join can fan one row out into many batches). Until the last prober opened
 * the queue, and while the queue is empty but a partition being joined may add some, the joiner
 * answers BLOCKED: a worker then looks again a moment later without holding its thread, the
 * Gather's leader treats it as nothing to do and goes back to draining, and a lone participant
 * never sees it (everything it waits for is its own earlier work). This keeps the deadlock rule: a
 * participant that waits has finished its probe chain and holds no output, and waits for no one at
 * a barrier. Why a branch and not the last prober alone (as for the unmatched rows): the partitions
 * are most of the join's work, and every worker takes part. A join above this one is bound in this
 * branch too, so its probers include every participant's share of these partitions' rows, and its
 * own spilled partitions come after, in the next branch.
 *
 * <h3>Memory and files</h3>
 * The join's account holds its chunks and buckets, each spilled table's file buffers (one of a
 * eighth of a chunk per partition and side, whatever the number of workers), and counts every
 * file's bytes as spilled, which EXPLAIN ANALYZE shows. A table that may spill reserves as a
 * spilling operator, leaving the budget's last eighth to the operators that cannot (an aggregate
 * above the join), once it holds what its files' buffers take: the buffers are then paid out of the
 * chunks it writes out ({@link io.troupe.operators.join.WriteRoom}), so spilling asks the budget for
 * nothing. A partition's table beside others' that is refused holding less fails its load instead,
 * and is joined again alone. Build buffers the account refuses once no
 * chunk is left to write out trail it, by at most one per partition, in the join's own table (the
 * other workers give their chunks back soon) and in a partition joined alone (what is refused then
 * is other operators' memory, an aggregate's above the join, which no wait gives back). A
 * joined partition's table is given back before its participant claims the next. Files go when
 * their partition is joined, and all that are left when the query ends, however it ends (the
 * query's {@link io.troupe.operators.spill.QuerySpill}).
 */
package io.troupe.operators.join;
