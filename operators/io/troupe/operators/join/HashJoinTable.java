package io.troupe.operators.join;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.VectorHash;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.memory.MemoryReservation;
import io.troupe.operators.spill.QuerySpill;
import io.troupe.operators.spill.SpillFile;
import io.troupe.operators.types.DataType;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one hash table of a hash join, shared by every build and probe worker: build rows stored
 * densely in per-worker {@link BuildChunk}s, and a power-of-two array of bucket heads whose
 * chains run through the chunks' next slots. Also holds the match flags of RIGHT and FULL joins.
 *
 * <pre>
 *   heads[hash &amp; mask] --&gt; row id --&gt; entry of row (id &amp; chunkMask) in chunk (id &gt;&gt;&gt; chunkShift)
 *                                      --&gt; next row id --&gt; ... --&gt; END
 *
 *   entry layouts (per table, by key type):
 *     INT32, DATE key       one long  [ key (high 32 bits) | next (low 32 bits) ]
 *     INT64, DECIMAL key    two longs [ key ][ next ]
 *     any other keys        two longs [ 64-bit hash ][ next ]
 * </pre>
 * Either way a chain step reads one cache line. The next part holds {@link #END} until the row is
 * linked, or {@link #NOT_LINKED} for a row with a NULL key (such a row never matches, but a RIGHT
 * or FULL join still emits it).
 *
 * <p>Chunk size (lesson 2, seed 001). A chunk's entries are one chunk of the query's memory
 * ({@code troupe.hash.chunk-size}, 32 KiB by default, from the Troupe's arena, preallocated when
 * {@code troupe.memory.preallocate} asks), so a chunk holds as many rows as its entries fit: 4096
 * packed or 2048 two-long rows at 32 KiB, four times as many at 128 KiB. The entries go back to the
 * arena when the query ends (the executor releases the query's memory); the stored columns are
 * ordinary heap vectors of the same row count.
 *
 * <p>Memory. Everything the table holds is reserved from the join's {@link MemoryReservation} before
 * it is made: a chunk's entries and its columns at their allocated size when the chunk is made (a
 * VARCHAR column that grows past that is reserved by its build worker after each batch, so the
 * account trails by at most a batch), the bucket heads and match flags in {@link #allocate}.
 *
 * <p>Spilling. When the account refuses a reservation and the table may spill, the table goes from
 * {@link Residence#IN_MEMORY} to {@link Residence#SPILLED}, once: every build row then goes to spill
 * files, one per partition of the table's {@link Radix} level and per worker, in the columns of
 * {@link #fileTypes()}. The chunks made so far are written out and given back ({@link #dump}): a
 * worker's current chunk by that worker, the sealed ones (full, or handed in by a finished worker)
 * by whichever worker takes them first ({@link #pollSealed}). A spilled table allocates no buckets
 * and holds no row; its partitions are joined later, one by one (see {@code package-info.java}).
 * A table that may not spill fails instead: with the budget's error when spilling is off, or, for a
 * partition whose rows cannot be split further, with an error that says so.
 *
 * <p>Two key paths. The <b>fast path</b> serves a single INT32, INT64, DATE or DECIMAL key: the
 * key itself, widened to a long, is in the entry, and a chain step compares two longs; when
 * the key is a plain build column, that column is read from the entries instead of being stored
 * twice (and gathering it touches the line the chain walk just read). The
 * <b>generic path</b> (several keys, or a VARCHAR, FLOAT64 or BOOLEAN key) stores the 64-bit
 * {@link VectorHash} of the key columns in the entry, to skip mismatches cheaply, and the key
 * values in per-chunk vectors ({@link ColumnChunks}) that a probe compares column by column.
 *
 * <h2>Concurrency</h2>
 * See note on parallelism in {@code package-info.java} for the phases. Per phase:
 * <ul>
 *   <li>BUILDING: {@link #newChunk}, {@link #seal}, {@link #pollSealed} and {@link #dump} are
 *       threadsafe (an atomic id counter, and a lock taken once per chunk); each chunk is written by
 *       its owner only until it is sealed, and read by one dumper after. The residence changes under
 *       that lock, so a chunk sealed before the change is taken by a dumper and one sealed after is
 *       dumped by its sealer: never both, never neither.</li>
 *   <li>{@link #allocate} runs once, on one thread, after every build worker added its chunks.
 *       It writes the plain fields below, then the volatile {@code phase}: a worker that reads
 *       INSERTING sees them (release/acquire).</li>
 *   <li>INSERTING: {@link #insertNextChunk} is threadsafe. A chunk is claimed by one inserter (an
 *       atomic counter); the inserter writes a row's next slot, then CASes the bucket head from
 *       the value it wrote to the row's id. The CAS publishes the next slot to whoever later reads
 *       the head.</li>
 *   <li>{@link #startProbing} runs once after all inserters returned; the executor then publishes
 *       the table to the probe pipeline (ExecContext), which orders every write above before every
 *       probe. From PROBING on, everything but the match flags is read-only.</li>
 *   <li>Match flags (RIGHT and FULL only) are written by probers without synchronisation: a flag
 *       only ever goes from 0 to 1, and the last prober reads them after every other prober's
 *       {@code finish} decremented the shared prober count (an atomic read-modify-write, which
 *       orders their flag stores before its reads).</li>
 * </ul>
 */
public final class HashJoinTable {

    /** The most buckets a small table is given beyond one a row: 32 KiB of heads. */
    private static final int SPARSE_BUCKETS = 8192;

    /** The end of a chain, and an empty bucket. */
    static final int END = -1;
    /** The next part of a row whose key has a NULL: never linked, so never matched. */
    static final int NOT_LINKED = -2;
    private static final long HIGH_HALF = 0xFFFFFFFF00000000L;
    private static final long LOW_HALF = 0xFFFFFFFFL;

    private static final VarHandle HEADS = MethodHandles.arrayElementVarHandle(int[].class);

    private final DataType[] keyTypes;
    private final DataType[] payloadTypes;
    private final boolean fastPath;
    /** One long per row: an INT32 or DATE key packed with the next link (see the layouts above). */
    private final boolean packed;
    /** The payload column that is the fast path's key (read from the entries, not stored), or -1. */
    private final int keyColumn;
    private final boolean matchFlagsNeeded;
    private final String name;
    private final MemoryReservation memory;
    /**
     * Build rows still to come into a partition's table (whose one builder knows how many its files
     * hold), so that its chunks' columns are made no larger than they need; -1 for a join's own table.
     * Written only by that builder.
     */
    private long rowsToCome;
    /** Rows per chunk, as a shift: the chunk's entries fill one arena chunk. */
    private final int chunkShift;
    private final int chunkRows;
    /** Row ids are ints: at most 2^31 rows, so at most this many chunks. */
    private final int maxChunks;

    /** The level whose hash bits split this table's rows when it spills (0 for a join's own table). */
    private final int level;
    /** Where the table spills; null when it may not. */
    private final QuerySpill spill;
    /**
     * Whether no other table of the join holds memory beside this one: a join's own table, and a partition's
     * that is joined alone. What the account refuses it is then held by other workers' chunks or by other
     * operators, not by a partition that gives it back sooner. So it takes its first {@link WriteRoom}'s worth
     * as an operator that cannot spill (without it, it could not spill either), and its spill buffers may
     * trail the account when it refuses them and nothing is left to write out (see {@link BuildWorker}; at
     * most a buffer per partition).
     */
    private boolean alone;
    /** Bytes the account holds for this table's rows: its chunks, their columns and its buckets. */
    private final AtomicLong held = new AtomicLong();
    /** Why the table's rows cannot be split any further (its error when over the budget), or null. */
    private final String unsplittable;
    private final DataType[] fileTypes;
    private final PartitionQueue partitions = new PartitionQueue();
    /** The spill files of the build rows and of the probe rows, made when first asked for; guarded by {@link #sealed}. */
    private PartitionWriters buildFiles;
    private PartitionWriters probeFiles;
    /** What the account holds for the files' buffers once the table spilled, out of the chunks it wrote out. */
    private final WriteRoom room;

    private final AtomicInteger nextChunkId = new AtomicInteger();
    /** Full chunks and those of finished build workers, while in memory; guarded by itself. */
    private final ArrayDeque<BuildChunk> sealed = new ArrayDeque<>();
    /** Chunks sealed so far (kept, or dumped by their sealer); guarded by {@link #sealed}. */
    private int sealedCount;
    /** Written under {@link #sealed}'s lock; read without it by the workers once per batch. */
    private volatile Residence residence = Residence.IN_MEMORY;
    private final AtomicInteger nextChunkToInsert = new AtomicInteger();
    private final AtomicReference<JoinPhase> phase = new AtomicReference<>(JoinPhase.BUILDING);

    // Written once by allocate(), published by the phase change to INSERTING.
    private BuildChunk[] chunks;
    private long[][] entries;
    private int[] heads;
    private int mask;
    private byte[] matchFlags;
    private ColumnChunks[] payload;
    private ColumnChunks[] keys;
    private long rowCount;
    /** Bytes of the bucket heads and match flags, reserved by allocate. */
    private long allocatedBytes;

    /** Where a table's build rows are: in its chunks, or (once the budget refused it) in spill files. */
    enum Residence { IN_MEMORY, SPILLED }

    /**
     * @param name             the join, for error messages
     * @param keyTypes         types of the key columns (build and probe alike)
     * @param payloadTypes     types of the build columns the join emits (none for SEMI and ANTI)
     * @param keyColumn        the payload column the (single) key is a plain reference to, or -1;
     *                         on the fast path its values are the entries' key slots, so it is not
     *                         stored a second time
     * @param matchFlagsNeeded whether probes record matched build rows (RIGHT and FULL, and every join
     *                         under the always-write baseline)
     * @param memory           the join's account of the query's memory, which everything the table holds
     *                         is reserved from (the chunks' entries come from the arena through it)
     * @param chunkLongs       longs per arena chunk ({@code troupe.hash.chunk-size} / 8)
     * @param spill            where the table spills when its account refuses it, or null when it
     *                         fails instead (spilling off)
     */
    public HashJoinTable(String name, DataType[] keyTypes, DataType[] payloadTypes, int keyColumn,
                         boolean matchFlagsNeeded, MemoryReservation memory, int chunkLongs, QuerySpill spill) {
        this(name, keyTypes, payloadTypes, keyColumn, matchFlagsNeeded, memory, chunkLongs, 0, spill, null);
    }

    /**
     * A table at {@code level}, for a spilled partition of a join, whose rows it splits by that level's
     * bits if it spills; {@code unsplittable} says why it may not (its error), or is null.
     */
    HashJoinTable(String name, DataType[] keyTypes, DataType[] payloadTypes, int keyColumn, boolean matchFlagsNeeded,
                  MemoryReservation memory, int chunkLongs, int level, QuerySpill spill, String unsplittable) {
        if (keyTypes.length == 0) {
            throw new IllegalArgumentException("a hash join needs at least one key: " + name);
        }
        this.name = name;
        this.keyTypes = keyTypes.clone();
        this.payloadTypes = payloadTypes.clone();
        this.fastPath = isFastPath(keyTypes);
        this.packed = fastPath && keyTypes[0].isIntBacked();
        boolean keyInEntries = fastPath && keyColumn >= 0 && keyColumn < payloadTypes.length
                && payloadTypes[keyColumn].equals(keyTypes[0]);
        this.keyColumn = keyInEntries ? keyColumn : -1;
        this.matchFlagsNeeded = matchFlagsNeeded;
        this.memory = memory;
        int rows = chunkLongs >> (packed ? 0 : 1);
        this.chunkShift = Integer.numberOfTrailingZeros(rows);
        this.chunkRows = rows;
        this.maxChunks = 1 << (31 - chunkShift);
        this.rowsToCome = -1;
        this.level = level;
        this.alone = level == 0;
        this.unsplittable = unsplittable != null ? unsplittable
                : level > Radix.MAX_LEVEL ? "its rows share every hash bit the partitions split by" : null;
        this.spill = this.unsplittable == null ? spill : null;
        DataType[] files = Arrays.copyOf(payloadTypes, payloadTypes.length + (this.keyColumn >= 0 ? 0 : keyTypes.length));
        if (this.keyColumn < 0) {
            System.arraycopy(keyTypes, 0, files, payloadTypes.length, keyTypes.length);
        }
        this.fileTypes = files;
        this.room = new WriteRoom(memory, PartitionWriters.bufferBytes(chunkBytes()));
    }

    /**
     * A table like this one for a spilled partition: the same keys and columns, a level deeper, under
     * the same account; {@code unsplittable} says why it may not spill again, or is null; {@code alone}:
     * no other partition of this join is joined beside it.
     */
    HashJoinTable forPartition(String partitionName, int partitionLevel, String whyUnsplittable, long buildRows,
                               boolean alone) {
        HashJoinTable table = new HashJoinTable(partitionName, keyTypes, payloadTypes, keyColumn, matchFlagsNeeded,
                memory, chunkLongs(), partitionLevel, spill, whyUnsplittable);
        table.rowsToCome = buildRows;
        table.alone = alone;
        return table;
    }

    /** Longs per chunk's entries: one arena chunk. */
    private int chunkLongs() {
        return chunkRows << (packed ? 0 : 1);
    }

    private int chunkBytes() {
        return chunkLongs() * Long.BYTES;
    }

    /** True for one key held in an int[] or long[] (INT32, DATE, INT64, DECIMAL): keys compare as longs. */
    static boolean isFastPath(DataType[] keyTypes) {
        return keyTypes.length == 1 && (keyTypes[0].isIntBacked() || keyTypes[0].isLongBacked());
    }

    // ------------------------------------------------------------------ BUILDING (all workers)

    /**
     * A new empty chunk for the calling build worker, or null when the account refused it and the
     * table spilled (or had spilled): the worker then writes its rows to files. Threadsafe.
     *
     * @throws JoinOverBudgetException when refused and the table may not spill
     */
    BuildChunk newChunk() {
        requirePhase(JoinPhase.BUILDING);
        int capacity = rowsToCome < 0 ? chunkRows : (int) Math.max(1, Math.min(chunkRows, rowsToCome));
        long columnBytes = columnBytes(capacity);
        if (residence == Residence.SPILLED || !reserve(columnBytes)) {
            return null;
        }
        long[] entries = asSpilling() ? memory.tryTakeChunkSpillable() : memory.tryTakeChunk();
        if (entries == null) {
            shrink(columnBytes);
            refused(chunkBytes());
            return null;
        }
        held.addAndGet(chunkBytes());
        if (rowsToCome >= 0) {
            rowsToCome -= capacity;
        }
        int id = nextChunkId.getAndIncrement();
        if (id >= maxChunks) {
            throw new IllegalStateException("hash join build side over " + ((long) maxChunks << chunkShift)
                    + " rows: " + name);
        }
        BuildChunk chunk = new BuildChunk(id, entries, capacity, payloadTypes, keyColumn,
                fastPath ? new DataType[0] : keyTypes);
        chunk.reservedColumnBytes = columnBytes;
        return chunk;
    }

    /** Bytes the stored columns of a chunk of {@code rows} take when made. */
    private long columnBytes(int rows) {
        long bytes = 0;
        for (int c = 0; c < payloadTypes.length; c++) {
            bytes += c == keyColumn ? 0 : ColumnVector.bytesFor(payloadTypes[c], rows);
        }
        for (int k = 0; !fastPath && k < keyTypes.length; k++) {
            bytes += ColumnVector.bytesFor(keyTypes[k], rows);
        }
        return bytes;
    }

    /**
     * Reserves what {@code chunk}'s VARCHAR columns grew past what was reserved for them (called by its
     * build worker after each batch it appended). False when refused and the table spilled.
     */
    boolean reserveGrowth(BuildChunk chunk) {
        long now = chunk.columnBytes();
        if (now > chunk.reservedColumnBytes) {
            if (!reserve(now - chunk.reservedColumnBytes)) {
                return false;
            }
            chunk.reservedColumnBytes = now;
        }
        return true;
    }

    /** Cuts the columns of a chunk its worker finished part-full to its rows, giving back what that frees. */
    void trim(BuildChunk chunk) {
        if (chunk.isFull()) {
            return;
        }
        chunk.trimColumns();
        long now = chunk.columnBytes();
        if (now < chunk.reservedColumnBytes) {
            shrink(chunk.reservedColumnBytes - now);
            chunk.reservedColumnBytes = now;
        }
    }

    /** Reserves {@code bytes}, or, when refused, spills (false) or fails. */
    private boolean reserve(long bytes) {
        if (tryGrow(bytes)) {
            return true;
        }
        refused(bytes);
        return false;
    }

    /** Reserves {@code bytes} for the table's rows if the account grants them ({@link #asSpilling()} says how). */
    private boolean tryGrow(long bytes) {
        if (!(asSpilling() ? memory.tryGrowSpillable(bytes) : memory.tryGrow(bytes))) {
            return false;
        }
        held.addAndGet(bytes);
        return true;
    }

    private void shrink(long bytes) {
        held.addAndGet(-bytes);
        memory.shrink(bytes);
    }

    /**
     * Whether the table reserves as an operator that spills when refused, leaving the budget's last eighth to
     * those that cannot (W1 under a quarter of its memory: the join's chunks took the whole 96 KiB, and the
     * count above it was refused 528 bytes): where it may spill and then gives back at least what its files'
     * buffers take ({@link WriteRoom}), so that spilling asks the budget for nothing. Below that, a table
     * {@link #alone} asks as one that cannot spill, and one beside others' asks as a spilling one but, refused,
     * is tried again alone ({@link #refused}). The workers of a table may together pass that mark by a chunk
     * each.
     */
    private boolean asSpilling() {
        return spill != null && (!alone || held.get() >= room.size());
    }

    /**
     * The account refused {@code bytes}: the table spills now, or fails when it may not, or when it is a
     * partition's beside others' that holds less than its files' buffers would take (spilling would ask the
     * budget for more than it gives back: TPC-DS q2 at a twentieth of its memory, where the sort above the
     * join held what the partition's probe files then asked for).
     */
    private void refused(long bytes) {
        if (spill == null || (!alone && held.get() < room.size())) {
            throw overBudget(bytes);
        }
        synchronized (sealed) {
            residence = Residence.SPILLED;
        }
    }

    /**
     * The error of a reservation of {@code bytes} that the account refused and spilling cannot make
     * room for: the budget's own error, or why this partition cannot be split.
     */
    JoinOverBudgetException overBudget(long bytes) {
        String budget = memory.overBudget(bytes).getMessage();
        return new JoinOverBudgetException(unsplittable == null ? budget
                : name + " cannot be split any further (" + unsplittable + ") and must fit at once: " + budget);
    }

    /**
     * Seals a chunk its worker will not write again (full, or the last at its finish). True when the
     * table keeps it; false when the table spilled, and the caller must {@link #dump} it. Threadsafe.
     */
    boolean seal(BuildChunk chunk) {
        synchronized (sealed) {
            sealedCount++;
            if (residence == Residence.IN_MEMORY) {
                sealed.add(chunk);
                return true;
            }
            return false;
        }
    }

    /** Once spilled, a sealed chunk nobody has written out yet, which the caller must {@link #dump}; else null. */
    BuildChunk pollSealed() {
        synchronized (sealed) {
            return residence == Residence.SPILLED ? sealed.poll() : null;
        }
    }

    /** Whether the table spilled: its rows are in spill files. */
    boolean spilled() {
        return residence == Residence.SPILLED;
    }

    /**
     * Writes {@code chunk}'s rows to {@code files}, each to its partition's file, and gives the
     * chunk's memory back. Threadsafe for different chunks and writers.
     */
    void dump(BuildChunk chunk, PartitionWriters files) {
        int n = chunk.rows;
        long[] e = chunk.entries;
        ColumnVector[] columns = new ColumnVector[fileTypes.length];
        ColumnVector entryKey = fastPath ? keyFromEntries(e, n) : null;
        for (int c = 0; c < payloadTypes.length; c++) {
            columns[c] = c == keyColumn ? entryKey : chunk.payload[c];
        }
        for (int k = 0; payloadTypes.length + k < columns.length; k++) {
            columns[payloadTypes.length + k] = fastPath ? entryKey : chunk.keys[k];
        }
        long[] hashes = new long[n];
        for (int o = 0; o < n; o++) {
            long stored = stored(e, o, packed);
            hashes[o] = fastPath ? Radix.hashOfKey(stored) : stored;
        }
        files.write(Batch.of(n, columns), hashes);
        // Its memory goes back but for what the write room still lacks, which pays the files' buffers.
        giveBack(chunk, true);
    }

    /** The fast path's key of {@code n} rows, out of their entries, NULL where the row is never linked. */
    private ColumnVector keyFromEntries(long[] e, int n) {
        DataType type = keyTypes[0];
        ColumnVector key = type.isIntBacked() ? new IntVector(type, n) : new LongVector(type, n);
        for (int o = 0; o < n; o++) {
            long value = stored(e, o, packed);
            if (key instanceof IntVector ints) {
                ints.set(o, (int) value);
            } else {
                ((LongVector) key).set(o, value);
            }
            if (next(e, o, packed) == NOT_LINKED) {
                key.setNull(o);
            }
        }
        return key;
    }

    /** The spill files of the build rows, which every build worker of a spilled table writes. Threadsafe. */
    PartitionWriters buildFiles() {
        synchronized (sealed) {
            if (buildFiles == null) {
                buildFiles = new PartitionWriters(name + " build", fileTypes, level, spill, memory, room,
                        chunkBytes());
            }
            return buildFiles;
        }
    }

    /** The spill files of the probe rows (whose columns are {@code types}), which every prober writes. Threadsafe. */
    PartitionWriters probeFiles(DataType[] types) {
        synchronized (sealed) {
            if (probeFiles == null) {
                probeFiles = new PartitionWriters(name + " probe", types, level, spill, memory, room,
                        chunkBytes());
            }
            return probeFiles;
        }
    }

    /**
     * Finishes the probe rows' files and gives the write room back (the build's files were finished before):
     * called by the last prober, after every prober's last write.
     */
    void finishProbeFiles() {
        synchronized (sealed) {
            if (probeFiles != null) {
                probeFiles.finish();
            }
        }
        room.release();
    }

    /** How many of the spilled table's build rows went to partition {@code p}, and their files. */
    long spilledBuildRows(int p) {
        return buildFiles == null ? 0 : buildFiles.rows(p);
    }

    /** Whether the spilled build rows of partition {@code p} have more than one hash. */
    boolean spilledBuildHashesDiffer(int p) {
        return buildFiles != null && buildFiles.hashesDiffer(p);
    }

    long spilledProbeRows(int p) {
        return probeFiles == null ? 0 : probeFiles.rows(p);
    }

    List<SpillFile> spilledBuildFiles(int p) {
        return buildFiles == null ? List.of() : buildFiles.files(p);
    }

    List<SpillFile> spilledProbeFiles(int p) {
        return probeFiles == null ? List.of() : probeFiles.files(p);
    }

    /** The spilled partitions of this join, which every worker joins once every prober finished. */
    PartitionQueue partitions() {
        return partitions;
    }

    int level() {
        return level;
    }

    boolean buffersMayTrail() {
        return alone;
    }

    /** The columns of a build spill file: the build columns, then the keys unless one of them is the key. */
    DataType[] fileTypes() {
        return fileTypes.clone();
    }

    int payloadTypeCount() {
        return payloadTypes.length;
    }

    int fileColumnCount() {
        return fileTypes.length;
    }

    /** The keys over a build spill file's columns. */
    Expression[] fileKeys() {
        if (keyColumn >= 0) {
            return new Expression[] {new ColumnExpression(keyColumn, keyTypes[0], "k0")};
        }
        Expression[] keys = new Expression[keyTypes.length];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = new ColumnExpression(payloadTypes.length + k, keyTypes[k], "k" + k);
        }
        return keys;
    }

    // ------------------------------------------------------------------ ALLOCATING (one worker)

    /**
     * Sizes the bucket array for the rows now stored (a power of two at least the row count) and
     * moves to INSERTING. Called once, after every build worker sealed its last chunk. When the
     * buckets do not fit, a table that may spill writes its chunks out here and holds no row.
     */
    public void allocate() {
        BuildChunk[] byId;
        synchronized (sealed) {
            if (sealedCount != nextChunkId.get()) {
                throw new IllegalStateException("hash join allocated before every build worker finished: "
                        + sealedCount + " of " + nextChunkId.get() + " chunks handed in (" + name + ")");
            }
            byId = new BuildChunk[residence == Residence.IN_MEMORY ? nextChunkId.get() : 0];
            if (residence == Residence.IN_MEMORY) {
                for (BuildChunk c : sealed) {
                    byId[c.id] = c;
                }
                sealed.clear();
            }
        }
        long rows = rowsOf(byId);
        // Sparse buckets only where the account grants them beside the rows; else one a row, or spill.
        boolean sparse = residence == Residence.IN_MEMORY && buckets(rows, true) > buckets(rows, false)
                && tryGrow(allocationBytes(rows, byId.length, true));
        long bytes = allocationBytes(rows, byId.length, sparse);
        if (residence == Residence.IN_MEMORY && !sparse && !tryGrow(bytes)) {
            synchronized (sealed) {
                sealed.addAll(Arrays.asList(byId));
            }
            refused(bytes);
        }
        if (residence == Residence.SPILLED) {
            // No row stays: one bucket, too small to reserve.
            dumpSealed();
            buildFiles().finish();
            byId = new BuildChunk[0];
            rows = 0;
            bytes = 0;
        }
        int buckets = buckets(rows, sparse);
        long[][] entryArrays = new long[byId.length][];
        for (int c = 0; c < byId.length; c++) {
            entryArrays[c] = byId[c].entries;
        }
        int[] bucketHeads = new int[buckets];
        Arrays.fill(bucketHeads, END);
        this.allocatedBytes = bytes;
        this.chunks = byId;
        this.entries = entryArrays;
        this.heads = bucketHeads;
        this.mask = buckets - 1;
        this.rowCount = rows;
        this.matchFlags = matchFlagsNeeded ? new byte[byId.length << chunkShift] : null;
        this.payload = new ColumnChunks[payloadTypes.length];
        for (int k = 0; k < payload.length; k++) {
            payload[k] = k == keyColumn
                    ? ColumnChunks.ofKeyEntries(payloadTypes[k], entryArrays, packed, chunkShift)
                    : column(payloadTypes[k], byId, k, false, chunkShift);
        }
        this.keys = new ColumnChunks[fastPath ? 0 : keyTypes.length];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = column(keyTypes[k], byId, k, true, chunkShift);
        }
        advance(JoinPhase.BUILDING, JoinPhase.INSERTING);
    }

    private static long rowsOf(BuildChunk[] chunks) {
        long rows = 0;
        for (BuildChunk c : chunks) {
            rows += c.rows;
        }
        return rows;
    }

    /**
     * A power of two at least the row count; {@code sparse}, a small table gets up to eight buckets a row,
     * within {@link #SPARSE_BUCKETS}, so that most probes of keys it lacks meet an empty bucket instead of a
     * chain to walk (a dimension of 200 rows probed by 6 million lineitem rows: 80% of the probes walked a
     * step with one bucket a row, 10% with eight; the probe took 59 ms instead of 110); the heads stay
     * within a core's first-level cache.
     */
    private static int buckets(long rows, boolean sparse) {
        int buckets = Integer.highestOneBit((int) Math.max(1, Math.min(rows, 1 << 30)));
        buckets = buckets < rows ? buckets << 1 : buckets;
        return sparse ? Math.max(buckets, Math.min(buckets << 3, SPARSE_BUCKETS)) : buckets;
    }

    private long allocationBytes(long rows, int chunkCount, boolean sparse) {
        return (long) buckets(rows, sparse) * Integer.BYTES
                + (matchFlagsNeeded ? (long) chunkCount << chunkShift : 0);
    }

    /** Writes out, on this thread, the chunks still sealed in a table that spilled. */
    private void dumpSealed() {
        PartitionWriters files = buildFiles();
        while (dumpNextSealed(files)) {
            long refused = files.reserveOpened(() -> dumpNextSealed(files));
            if (refused > 0 && !alone) {
                throw overBudget(refused);
            }
        }
    }

    /** Dumps one sealed chunk into {@code files}: false when none is left. */
    boolean dumpNextSealed(PartitionWriters files) {
        BuildChunk chunk = pollSealed();
        if (chunk == null) {
            return false;
        }
        dump(chunk, files);
        return true;
    }

    /**
     * Gives back everything the allocated table holds (a joined partition's table, before the next):
     * its chunks to the arena, their columns and its buckets to the account. Called once, after its
     * last probe; its spill files are its partitions' now.
     */
    void release() {
        for (BuildChunk c : chunks) {
            giveBack(c);
        }
        shrink(allocatedBytes);
        allocatedBytes = 0;
        chunks = new BuildChunk[0];
    }

    /**
     * Drops the table in any phase (a partition that did not fit, or whose rows nobody wants any
     * more): gives back its memory as {@link #release()} does and deletes its spill files. One thread.
     */
    void discard() {
        synchronized (sealed) {
            for (BuildChunk c : sealed) {
                giveBack(c);
            }
            sealed.clear();
        }
        if (chunks != null) {
            release();
        }
        synchronized (sealed) {
            if (buildFiles != null) {
                buildFiles.abandon();
            }
            if (probeFiles != null) {
                probeFiles.abandon();
            }
        }
        room.release();
    }

    /** Gives back the memory of a chunk that holds no row any more (dropped). */
    void giveBack(BuildChunk chunk) {
        giveBack(chunk, false);
    }

    /** As {@link #giveBack(BuildChunk)}; {@code toRoom}: the write room keeps what it still lacks of it. */
    private void giveBack(BuildChunk chunk, boolean toRoom) {
        long bytes = chunkBytes() + chunk.reservedColumnBytes;
        memory.returnChunkKeepingItsBytes(chunk.entries);
        held.addAndGet(-bytes);
        memory.shrink(bytes - (toRoom ? room.keep(bytes) : 0));
    }

    private static ColumnChunks column(DataType type, BuildChunk[] byId, int index, boolean keyColumn, int shift) {
        ColumnVector[] vectors = new ColumnVector[byId.length];
        for (int c = 0; c < byId.length; c++) {
            vectors[c] = keyColumn ? byId[c].keys[index] : byId[c].payload[index];
        }
        return new ColumnChunks(type, vectors, shift);
    }

    // ------------------------------------------------------------------ INSERTING (all workers)

    /**
     * Links the rows of the next unclaimed chunk into their buckets. Threadsafe: every inserter
     * calls this until it returns false (no chunk left to claim).
     */
    public boolean insertNextChunk() {
        requirePhase(JoinPhase.INSERTING);
        int c = nextChunkToInsert.getAndIncrement();
        if (c >= chunks.length) {
            return false;
        }
        insert(chunks[c]);
        return true;
    }

    /**
     * Two passes over the chunk. The first reads each row's bucket head into its next slot with
     * plain loads, which the CPU overlaps, so the head array's cache misses are paid in parallel.
     * The second CASes each head from that value to the row's id: the line is then in cache, and
     * a CAS that lost to another inserter (or to an earlier row of this chunk in the same bucket)
     * rereads the head and retries.
     */
    private void insert(BuildChunk chunk) {
        long[] e = chunk.entries;
        int[] h = heads;
        int m = mask;
        int rows = chunk.rows;
        boolean hashed = !fastPath;
        boolean p = packed;
        for (int o = 0; o < rows; o++) {
            if (next(e, o, p) != NOT_LINKED) {
                setNext(e, o, h[bucket(stored(e, o, p), hashed, m)], p);
            }
        }
        int base = chunk.id << chunkShift;
        for (int o = 0; o < rows; o++) {
            int expected = next(e, o, p);
            if (expected == NOT_LINKED) {
                continue;
            }
            int b = bucket(stored(e, o, p), hashed, m);
            int id = base | o;
            while (!HEADS.compareAndSet(h, b, expected, id)) {
                expected = (int) HEADS.getVolatile(h, b);
                setNext(e, o, expected, p);
            }
        }
    }

    private static int bucket(long keyOrHash, boolean hashed, int mask) {
        return (int) (hashed ? keyOrHash : VectorHash.mix(keyOrHash)) & mask;
    }

    // ------------------------------------------------------------------ entry access (inlined by the JIT)

    /** The key (sign-extended for a packed INT32 or DATE key) or hash of row {@code o} of a chunk. */
    static long stored(long[] e, int o, boolean packed) {
        return packed ? e[o] >> 32 : e[o << 1];
    }

    /** The next row id on row {@code o}'s chain, END, or NOT_LINKED. */
    static int next(long[] e, int o, boolean packed) {
        return (int) (packed ? e[o] : e[(o << 1) + 1]);
    }

    static void setNext(long[] e, int o, int next, boolean packed) {
        if (packed) {
            e[o] = (e[o] & HIGH_HALF) | (next & LOW_HALF);
        } else {
            e[(o << 1) + 1] = next;
        }
    }

    /** Writes row {@code o}'s whole entry; a packed key must fit an int. */
    static void setEntry(long[] e, int o, long keyOrHash, int next, boolean packed) {
        if (packed) {
            e[o] = (keyOrHash << 32) | (next & LOW_HALF);
        } else {
            e[o << 1] = keyOrHash;
            e[(o << 1) + 1] = next;
        }
    }

    /** Ends the build: the table is complete and may be published to probers. Called once. */
    public void startProbing() {
        if (nextChunkToInsert.get() < chunks.length) {
            throw new IllegalStateException("hash join probed before every chunk was inserted: " + name);
        }
        advance(JoinPhase.INSERTING, JoinPhase.PROBING);
    }

    // ------------------------------------------------------------------ PROBING and after

    /** The phase now. */
    public JoinPhase phase() {
        return phase.get();
    }

    /** Moves from {@code from} to {@code to}; fails when another worker moved first or the order is broken. */
    void advance(JoinPhase from, JoinPhase to) {
        if (!phase.compareAndSet(from, to)) {
            throw new IllegalStateException("hash join phase " + phase.get() + ", expected " + from
                    + " on the way to " + to + ": " + name);
        }
    }

    void requirePhase(JoinPhase expected) {
        JoinPhase now = phase.get();
        if (now != expected) {
            throw new IllegalStateException("hash join in phase " + now + ", expected " + expected + ": " + name);
        }
    }

    /** Build rows stored, including those with NULL keys. */
    public long rowCount() {
        return rowCount;
    }

    String name() {
        return name;
    }

    /** Rows per chunk, as a shift: a row id is {@code chunk << chunkShift | offset}. */
    int chunkShift() {
        return chunkShift;
    }

    /** Rows per chunk. */
    int chunkRows() {
        return chunkRows;
    }

    boolean fastPath() {
        return fastPath;
    }

    boolean packed() {
        return packed;
    }

    int chunkCount() {
        return chunks.length;
    }

    BuildChunk chunk(int id) {
        return chunks[id];
    }

    long[][] entries() {
        return entries;
    }

    int[] heads() {
        return heads;
    }

    int mask() {
        return mask;
    }

    /** One byte per row id, 1 once a probe matched the row; null unless the join type needs them. */
    byte[] matchFlags() {
        return matchFlags;
    }

    ColumnChunks payload(int column) {
        return payload[column];
    }

    int payloadCount() {
        return payload.length;
    }

    ColumnChunks key(int k) {
        return keys[k];
    }

    DataType[] keyTypes() {
        return keyTypes.clone();
    }
}
