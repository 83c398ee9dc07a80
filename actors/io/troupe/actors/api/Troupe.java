package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.LocalExecutor;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanCompiler;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;

import java.util.concurrent.atomic.AtomicLong;

/**
 * An embedded Troupe: a catalog of tables and the executor that runs plans over them.
 *
 * <pre>{@code
 * try (Troupe troupe = Troupe.start()) {
 *     troupe.register(table);
 *     QueryResult r = troupe.execute(Plan.scan("t").filter(col("a").gt(lit(1))));
 * }
 * }</pre>
 *
 * <p>Threadsafe: tables may be registered and queries run from any number of threads at once.
 * Queries now run on the calling thread (the leader alone); parallel execution over worker actors
 * comes with the actor runtime.
 */
public final class Troupe implements AutoCloseable {

    private final TroupeSettings settings;
    private final Catalog catalog = new Catalog();
    private final AtomicLong nextQueryId = new AtomicLong(1);
    private volatile boolean closed;

    private Troupe(TroupeSettings settings) {
        this.settings = settings;
    }

    /** Starts a Troupe with the settings of reference.conf, application.conf and -Dtroupe.* properties. */
    public static Troupe start() {
        return start(TroupeSettings.load());
    }

    public static Troupe start(TroupeSettings settings) {
        return new Troupe(settings);
    }

    public TroupeSettings settings() {
        return settings;
    }

    public Catalog catalog() {
        return catalog;
    }

    /** Makes {@code table} scannable by its name, replacing a table of the same name. */
    public Troupe register(Table table) {
        checkOpen();
        catalog.register(table);
        return this;
    }

    /**
     * Validates and runs {@code plan}, returning all its rows.
     *
     * @throws io.troupe.operators.plan.PlanException when the plan cannot run (before anything runs)
     * @throws io.troupe.operators.exec.QueryFailedException when it fails while running
     */
    public QueryResult execute(Plan plan) {
        checkOpen();
        PlanCompiler.CompiledQuery query = new PlanCompiler(catalog, settings).compile(plan);
        ExecContext ctx = new ExecContext(nextQueryId.getAndIncrement(), settings.batchSize());
        new LocalExecutor().run(query.pipelines(), ctx);
        return new QueryResult(query.schema(), ctx.lookup(query.result()).batches());
    }

    /** Runs {@code plan} and registers its result as table {@code name} (CREATE TABLE AS). */
    public Table createTable(String name, Plan plan) {
        Table table = execute(plan).toTable(name);
        register(table);
        return table;
    }

    /** The validated plan tree with each node's output columns and types. */
    public String explain(Plan plan) {
        checkOpen();
        return plan.explain(catalog);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this Troupe is closed");
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
