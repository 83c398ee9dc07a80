package io.troupe.operators.exec;

import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.memory.QueryMemory;
import io.troupe.operators.spill.QuerySpill;
import io.troupe.operators.spill.SpillSpace;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * The state of one query execution that every operator may see: its id, its batch size, the
 * values pipelines publish for each other, the cancel flag, the memory it holds
 * ({@link QueryMemory}) and its spill files ({@link QuerySpill}), both of which the executor
 * releases when the query ends ({@link #release()}).
 *
 * <h2>Concurrency</h2>
 * Threadsafe. {@link #publish} happens before the dependent pipelines start (the executor starts
 * them after the publishing sink's finalize returned), so readers see a complete value; {@link #rollBack}
 * runs between pipelines too.
 * {@link #cancel} may be called from any thread; workers poll {@link #checkCancelled()} once per
 * batch.
 */
public final class ExecContext {

    /** The chunk size of {@code troupe.hash.chunk-size}'s default: 32 KiB. */
    public static final int DEFAULT_CHUNK_BYTES = 32 * 1024;

    private final long queryId;
    private final int batchSize;
    private final ConcurrentMap<StateKey<?>, Object> published = new ConcurrentHashMap<>();
    /** The keys of {@link #published}, in the order published, for {@link #rollBack}. Guarded by itself. */
    private final List<StateKey<?>> publishedOrder = new ArrayList<>();
    private final QueryMemory memory;
    private final QuerySpill spill;
    private final ExecutionProbe probe;
    private final Function<Source, ScanShare> shares;
    private volatile String cancelReason;

    /** A context whose hash memory comes on demand, under no budget, in chunks of the default size. */
    public ExecContext(long queryId, int batchSize) {
        this(queryId, batchSize, MemoryArena.onDemand(DEFAULT_CHUNK_BYTES).forQuery(queryId));
    }

    /** A context whose operators reserve from {@code memory} (a Troupe's arena) and never spill. */
    public ExecContext(long queryId, int batchSize, QueryMemory memory) {
        this(queryId, batchSize, memory, SpillSpace.disabled().forQuery(queryId), null);
    }

    /**
     * A context whose operators reserve from {@code memory} and spill into {@code spill}, and whose
     * executors report to {@code probe} (EXPLAIN ANALYZE), or to none when it is null. The probe is
     * for the executors ({@link PipelineRun}); operators never use it.
     */
    public ExecContext(long queryId, int batchSize, QueryMemory memory, QuerySpill spill, ExecutionProbe probe) {
        this(queryId, batchSize, memory, spill, probe, source -> ScanShare.WHOLE);
    }

    /**
     * As {@link #ExecContext(long, int, QueryMemory, QuerySpill, ExecutionProbe)}, for one node's part of a
     * query spread over several: {@code shares} says which morsels each base source reads here.
     */
    public ExecContext(long queryId, int batchSize, QueryMemory memory, QuerySpill spill, ExecutionProbe probe,
                       Function<Source, ScanShare> shares) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
        }
        this.queryId = queryId;
        this.batchSize = batchSize;
        if (memory == null) {
            throw new IllegalArgumentException("memory must not be null");
        }
        this.memory = memory;
        if (spill == null) {
            throw new IllegalArgumentException("spill must not be null");
        }
        this.spill = spill;
        this.probe = probe;
        this.shares = shares;
    }

    /** The morsels of base source {@code source} that this execution reads: every one unless the query is spread. */
    public ScanShare share(Source source) {
        return shares.apply(source);
    }

    /** EXPLAIN ANALYZE's probe, or null when the query is not profiled. */
    public ExecutionProbe probe() {
        return probe;
    }

    /** The query's memory: operators reserve here before they allocate; the executor releases it at the end. */
    public QueryMemory memory() {
        return memory;
    }

    /** The query's spill files: operators over the budget write here; the executor deletes them at the end. */
    public QuerySpill spill() {
        return spill;
    }

    /**
     * Returns the query's memory and deletes its spill files: called by the executor once, when the
     * query has ended and no worker of it runs any more. Idempotent.
     */
    public void release() {
        if (probe != null) {
            probe.memory(memory.reservations());
        }
        try {
            spill.releaseAll();
        } finally {
            memory.releaseAll();
        }
    }

    public long queryId() {
        return queryId;
    }

    /** Rows per batch that sources and operators aim for. */
    public int batchSize() {
        return batchSize;
    }

    public <T> void publish(StateKey<T> key, T value) {
        synchronized (publishedOrder) {
            if (published.putIfAbsent(key, key.type().cast(value)) != null) {
                throw new IllegalStateException("published twice: " + key);
            }
            publishedOrder.add(key);
        }
    }

    /** Where a query stands before a pipeline runs: what was published and how many memory accounts were opened. */
    public record Checkpoint(int published, int accounts) {
    }

    /** Where this query stands now, for a loop's body to come back to ({@link #rollBack}). */
    public Checkpoint checkpoint() {
        synchronized (publishedOrder) {
            return new Checkpoint(publishedOrder.size(), memory.accountsOpened());
        }
    }

    /**
     * Forgets what was published since {@code checkpoint} and gives back the memory of the accounts opened since
     * ({@link QueryMemory#releaseAccountsFrom}): a loop's body (WITH RECURSIVE's recursive term) about to run again
     * publishes its results anew, and nothing reads those of its last round. The executor calls it between two
     * pipelines, while no worker of the query runs.
     */
    public void rollBack(Checkpoint checkpoint) {
        synchronized (publishedOrder) {
            List<StateKey<?>> since = publishedOrder.subList(checkpoint.published(), publishedOrder.size());
            since.forEach(published::remove);
            since.clear();
        }
        memory.releaseAccountsFrom(checkpoint.accounts());
    }

    public <T> T lookup(StateKey<T> key) {
        Object value = published.get(key);
        if (value == null) {
            throw new IllegalStateException("not published yet: " + key + " (a pipeline ran before its dependency)");
        }
        return key.type().cast(value);
    }

    /** Asks every worker of this query to stop; the first reason wins. */
    public void cancel(String reason) {
        if (cancelReason == null) {
            cancelReason = reason;
        }
    }

    public boolean isCancelled() {
        return cancelReason != null;
    }

    /** @throws QueryCancelledException when {@link #cancel} was called */
    public void checkCancelled() {
        String reason = cancelReason;
        if (reason != null) {
            throw new QueryCancelledException("query " + queryId + " cancelled: " + reason);
        }
    }
}
