package io.troupe.cli;

import io.troupe.actors.api.Troupe;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;

import java.util.List;

/**
 * Troupe running a workload's SQL text ({@code bench --sql}, engine {@code troupe-sql}) where engine
 * {@code troupe} runs its hand-built plan: the measure of the SQL planner's plans. Each run plans the
 * statement afresh ({@link Troupe#planSql}, untimed, so that the time compares the plans) and times
 * the query as {@link TroupeBenchEngine} does. Loading reads the tables' statistics
 * ({@link Troupe#analyze}) untimed, as a user would after registering them.
 *
 * <p>Not threadsafe (see {@link BenchEngine}); owns its {@link Troupe} and closes it.
 */
final class TroupeSqlBenchEngine implements BenchEngine {

    private final Troupe troupe = Troupe.start();

    @Override
    public String id() {
        return "troupe-sql";
    }

    @Override
    public List<Integer> workerCounts(List<Integer> asked) {
        return asked;
    }

    @Override
    public void load(BenchWorkload workload, BenchSize size, List<Table> tables, long memoryNeed) {
        for (Table table : tables) {
            troupe.register(table);
            troupe.analyze(table.name());
        }
    }

    @Override
    public BenchOutcome run(BenchWorkload workload, int workers) {
        Plan plan = troupe.planSql(workload.sql());
        return TroupeBenchEngine.time(troupe, plan, workers);
    }

    @Override
    public void unload(BenchWorkload workload) {
        for (String table : workload.tableNames()) {
            troupe.catalog().drop(table);
        }
    }

    @Override
    public void close() {
        troupe.close();
    }
}
