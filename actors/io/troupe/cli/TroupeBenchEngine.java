package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;

import java.util.List;

/**
 * Troupe as a bench engine: the bench's tables registered as they are, queries run with
 * {@link QueryOptions#withWorkers}, 0 meaning the leader alone. The time covers compiling the plan,
 * running it and collecting its batches; the checksum is computed afterwards, untimed.
 *
 * <p>Under a share of the memory ({@code bench --memory D}, id {@code troupe@1/D}) each workload
 * gets a Troupe of its own whose {@code troupe.memory.budget} is 1/D of what the workload needs, with
 * nothing preallocated (the chunks would take the budget), so that its operators spill.
 *
 * <p>Not threadsafe (see {@link BenchEngine}); owns its {@link Troupe} and closes it.
 */
final class TroupeBenchEngine implements BenchEngine {

    /** 1: Troupe's own settings; else the share of each workload's memory need it runs under. */
    private final int memoryDivisor;
    private Troupe troupe;

    /** Troupe on its own settings. */
    TroupeBenchEngine() {
        this.memoryDivisor = 1;
        this.troupe = Troupe.start();
    }

    /** Troupe under 1/{@code memoryDivisor} of each workload's memory need (at least 2). */
    TroupeBenchEngine(int memoryDivisor) {
        this.memoryDivisor = memoryDivisor;
    }

    @Override
    public String id() {
        return memoryDivisor == 1 ? "troupe" : "troupe@1/" + memoryDivisor;
    }

    @Override
    public List<Integer> workerCounts(List<Integer> asked) {
        return asked;
    }

    @Override
    public void load(BenchWorkload workload, BenchSize size, List<Table> tables, long memoryNeed) {
        if (memoryDivisor > 1) {
            TroupeSettings settings = TroupeSettings.load();
            long budget = Math.max(settings.memory().chunkBytes(), memoryNeed / memoryDivisor);
            troupe = Troupe.start(settings.withMemory(
                    new TroupeSettings.Memory(settings.memory().chunkBytes(), 0, budget)));
        }
        for (Table table : tables) {
            troupe.register(table);
        }
    }

    /**
     * What {@code workload} (loaded) needs in memory with {@code workers}: the peaks of its nodes
     * together, from one EXPLAIN ANALYZE.
     */
    long memoryNeed(BenchWorkload workload, int workers) {
        return troupe.explainAnalyze(workload.query(), QueryOptions.defaults().withWorkers(workers)).nodes().stream()
                .mapToLong(n -> n.memory().peakBytes()).sum();
    }

    @Override
    public BenchOutcome run(BenchWorkload workload, int workers) throws EngineRefusedException {
        try {
            return time(troupe, workload.query(), workers);
        } catch (QueryFailedException e) {
            if (memoryDivisor > 1 && String.valueOf(e.getMessage()).contains("troupe.memory.budget")) {
                throw new EngineRefusedException(e.getMessage(), e);
            }
            throw e;
        }
    }

    /**
     * Runs {@code plan} on {@code troupe} with {@code workers} (0: the leader alone), timing the
     * query only; the checksum is computed afterwards, untimed. Shared with the ablation, whose
     * Troupes each run under other settings.
     */
    static BenchOutcome time(Troupe troupe, Plan plan, int workers) {
        QueryOptions options = QueryOptions.defaults().withWorkers(workers);
        long t0 = System.nanoTime();
        QueryResult result = troupe.execute(plan, options);
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new BenchOutcome(seconds, result.rowCount(), BenchOutcome.checksum(result));
    }

    @Override
    public void unload(BenchWorkload workload) {
        if (memoryDivisor > 1) {
            troupe.close();
            troupe = null;
            return;
        }
        for (String table : workload.tableNames()) {
            troupe.catalog().drop(table);
        }
    }

    @Override
    public void close() {
        if (troupe != null) {
            troupe.close();
        }
    }
}
