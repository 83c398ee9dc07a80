package io.troupe.cli;

import io.troupe.actors.api.Troupe;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;

import java.util.List;
import java.util.function.BiFunction;

/**
 * Troupe running the plan its planner makes of a workload, where engine {@code troupe} runs the workload's
 * hand-built plan: the measure of the planner's plans. {@link #sql} ({@code bench --sql}, engine
 * {@code troupe-sql}) plans the workload's SQL text ({@link Troupe#planSql}); {@link #optimized} ({@code bench
 * --optimize}, engine {@code troupe-optimized}) optimizes the plan as a user may first write it
 * ({@link BenchWorkload#literal}, {@link Troupe#optimize}). Each run plans afresh, untimed, so that the time
 * compares the plans, and times the query as {@link TroupeBenchEngine} does. Loading reads the tables'
 * statistics ({@link Troupe#analyze}) untimed, as a user would after registering them.
 *
 * <p>Not threadsafe (see {@link BenchEngine}); owns its {@link Troupe} and closes it.
 */
final class TroupePlannerBenchEngine implements BenchEngine {

    private final Troupe troupe = Troupe.start();
    private final String id;
    private final BiFunction<Troupe, BenchWorkload, Plan> planner;

    private TroupePlannerBenchEngine(String id, BiFunction<Troupe, BenchWorkload, Plan> planner) {
        this.id = id;
        this.planner = planner;
    }

    /** Engine {@code troupe-sql}: the SQL planner's plan of the workload's SQL text. */
    static TroupePlannerBenchEngine sql() {
        return new TroupePlannerBenchEngine("troupe-sql", (troupe, workload) -> troupe.planSql(workload.sql()));
    }

    /** Engine {@code troupe-optimized}: the optimizer's plan of the workload's plan as first written. */
    static TroupePlannerBenchEngine optimized() {
        return new TroupePlannerBenchEngine("troupe-optimized",
                (troupe, workload) -> troupe.optimize(workload.literal()));
    }

    @Override
    public String id() {
        return id;
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
        return TroupeBenchEngine.time(troupe, planner.apply(troupe, workload), workers);
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
