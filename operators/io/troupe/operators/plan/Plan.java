package io.troupe.operators.plan;

import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Schema;
import io.troupe.operators.udf.OwnFunctions;

import java.time.Duration;
import java.time.Period;
import java.time.temporal.TemporalAmount;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import static io.troupe.operators.Arguments.noNulls;
import static io.troupe.operators.Arguments.notNull;

/**
 * A query plan: a tree of relational nodes over named columns, built fluently and validated
 * before it runs.
 *
 * <pre>{@code
 * Plan q = Plan.scan("orders").as("o")
 *     .join(Plan.scan("customers").as("c"), JoinType.INNER, col("o.customer").eq(col("c.id")))
 *     .filter(col("c.country").eq(lit("NL")))
 *     .aggregate(List.of(col("c.name")), sum(col("o.amount")).as("total"))
 *     .sort(col("total").desc())
 *     .limit(10);
 * }</pre>
 *
 * <p>Every method rejects a null argument at once, naming it (an {@link IllegalArgumentException}).
 * Validation ({@link #validate}) resolves every column against the catalog's tables and
 * checks every type; an error names the column and the node (as {@link #explain} labels it).
 * Plans are immutable and threadsafe, and may be run many times.
 *
 * <p>A subplan read in several places (SQL's common table expression) is {@link #share}d: the
 * returned plan may be used any number of times in one plan, and the subplan runs once per query.
 */
public abstract class Plan {

    Plan() {
    }

    // ------------------------------------------------------------------ sources

    /** All columns of a registered table, qualified by the table's name. */
    public static Plan scan(String table) {
        notNull(table, "Plan.scan", "table");
        return new ScanNode(table, table);
    }

    /** {@code generate_series(start, stop)}: one INT64 column counting from start to stop, inclusive. */
    public static Plan series(String column, long start, long stop) {
        return series(column, Expr.lit(start), Expr.lit(stop));
    }

    /**
     * {@code generate_series(start, stop)}: one column counting by 1 from start to stop, inclusive; see
     * {@link #series(String, Expr, Expr, Expr)}.
     */
    public static Plan series(String column, Expr start, Expr stop) {
        return series("Plan.series", column, start, stop, null, true);
    }

    /**
     * {@code generate_series(start, stop, step)}: one column from start by step (negative to count down) while the
     * values have not passed stop, computed in parallel morsels without being held. The arguments are constant integer
     * expressions (literals, {@link Parameter}s, arithmetic of them): the column is INT32 when all are, else INT64; or
     * DATE or TIMESTAMP start and stop and an INTERVAL step, as {@link #series(String, Expr, Expr, TemporalAmount)}
     * says. A NULL argument makes no rows; a zero step fails the query, as in PostgreSQL.
     */
    public static Plan series(String column, Expr start, Expr stop, Expr step) {
        notNull(step, "Plan.series", "step");
        return series("Plan.series", column, start, stop, step, true);
    }

    /**
     * {@code generate_series(start, stop, interval)}: one TIMESTAMP column from start (a DATE or TIMESTAMP constant)
     * by {@code step} while the values have not passed stop. {@code step} is a {@link java.time.Period} of months
     * (and years), whose adding clamps the day of the month on the way as PostgreSQL's does (2024-01-31, 2024-02-29,
     * 2024-03-29 ...), or of days, or a {@link java.time.Duration} (whole microseconds); a step of months and days or
     * time together is not supported.
     */
    public static Plan series(String column, Expr start, Expr stop, TemporalAmount step) {
        return series("Plan.series", column, start, stop, interval(step), true);
    }

    /** DuckDB's {@code range(start, stop)}: as {@link #series(String, Expr, Expr)}, stop excluded. */
    public static Plan range(String column, Expr start, Expr stop) {
        return series("Plan.range", column, start, stop, null, false);
    }

    /** DuckDB's {@code range(start, stop, step)}: as {@link #series(String, Expr, Expr, Expr)}, stop excluded. */
    public static Plan range(String column, Expr start, Expr stop, Expr step) {
        notNull(step, "Plan.range", "step");
        return series("Plan.range", column, start, stop, step, false);
    }

    /** DuckDB's {@code range(start, stop, interval)}: as {@link #series(String, Expr, Expr, TemporalAmount)}, stop excluded. */
    public static Plan range(String column, Expr start, Expr stop, TemporalAmount step) {
        return series("Plan.range", column, start, stop, interval(step), false);
    }

    private static Plan series(String method, String column, Expr start, Expr stop, Expr step,
                               boolean inclusive) {
        notNull(column, method, "column");
        notNull(start, method, "start");
        notNull(stop, method, "stop");
        return new SeriesNode(column, start, stop, step, inclusive);
    }

    /** A Period (months and days) or a Duration (whole microseconds) as an INTERVAL literal. */
    private static Expr interval(TemporalAmount step) {
        notNull(step, "Plan.series", "step");
        if (step instanceof Period p) {
            return Expr.lit(new Interval(Math.toIntExact(p.toTotalMonths()), p.getDays(), 0));
        }
        if (step instanceof Duration d && d.toNanos() % 1000 == 0) {
            return Expr.lit(Interval.ofMicros(d.toNanos() / 1000));
        }
        throw new IllegalArgumentException("Plan.series: step must be a Period or a Duration of whole microseconds, got "
                + step);
    }

    /**
     * Constant rows (SQL's {@code VALUES}): column {@code c} is named {@code columns.get(c)} and has type
     * {@code types.get(c)}, and each row holds one literal of that type per column.
     */
    public static Plan values(List<String> columns, List<DataType> types, List<List<Literal>> rows) {
        noNulls(columns, "Plan.values", "columns");
        noNulls(types, "Plan.values", "types");
        noNulls(rows, "Plan.values", "rows");
        for (List<Literal> row : rows) {
            noNulls(row, "Plan.values", "rows");
        }
        return new ValuesNode(columns, types, rows);
    }

    // ------------------------------------------------------------------ relational operators

    /** Names this relation: its columns become {@code alias.name} (a table alias, a subquery name). */
    public final Plan as(String alias) {
        return aliased(notNull(alias, "Plan.as", "alias"));
    }

    /** {@link #as}: an alias over this node; a scan renames itself instead. */
    Plan aliased(String alias) {
        return new AliasNode(this, alias);
    }

    /** Keeps the rows where {@code predicate} is true (not false, not NULL). */
    public Plan filter(Expr predicate) {
        notNull(predicate, "Plan.filter", "predicate");
        return new FilterNode(this, predicate, false);
    }

    /** Computes one output column per expression; name them with {@code Expr.as}. */
    public Plan project(Expr... columns) {
        return new ProjectNode(this, Arrays.asList(noNulls(columns, "Plan.project", "columns")));
    }

    /**
     * Hash join with {@code right} as the build side. {@code on} must be equalities between a left
     * and a right expression, joined by AND; NULL keys never match.
     */
    public Plan join(Plan right, JoinType type, Expr on) {
        notNull(right, "Plan.join", "right");
        notNull(type, "Plan.join", "type");
        notNull(on, "Plan.join", "on");
        return new JoinNode(this, right, type, on);
    }

    /**
     * Groups by {@code groupBy} and computes {@code aggregates} (count, sum, min, max, avg ...,
     * each optionally named with {@code as}). Output: the group keys, then the aggregates. With
     * no group keys, one row over the whole input.
     */
    public Plan aggregate(List<Expr> groupBy, Expr... aggregates) {
        noNulls(groupBy, "Plan.aggregate", "groupBy");
        return new AggregateNode(this, groupBy, Arrays.asList(noNulls(aggregates, "Plan.aggregate", "aggregates")));
    }

    /**
     * Window functions: every row of this plan, then one column per function, computed over the rows of its
     * partition (those equal on {@code partitionBy}; all rows without keys) in {@code orderBy}'s order: ranks
     * ({@code Expr.rowNumber()}, {@code rank()} ...), {@code lag}/{@code lead}, {@code firstValue}/{@code lastValue}/
     * {@code nthValue}, and aggregates ({@code sum(x)}, {@code count()} ...) over the default frame or
     * {@code over(WindowFrame.rows(FrameBound.preceding(2), FrameBound.CURRENT_ROW))}. Name them with {@code as}. Partitions are computed in parallel, by
     * hash of their keys; without keys one worker computes the window.
     */
    public Plan window(List<Expr> partitionBy, List<SortKey> orderBy, Expr... functions) {
        noNulls(partitionBy, "Plan.window", "partitionBy");
        noNulls(orderBy, "Plan.window", "orderBy");
        List<Expr> calls = new ArrayList<>();
        for (Expr f : noNulls(functions, "Plan.window", "functions")) {
            Expr e = f instanceof Alias a ? a.expr() : f;
            WindowCall call = WindowCall.of(e);
            calls.add(call == null || call == e ? f : f instanceof Alias a ? call.as(a.name()) : call);
        }
        return new WindowNode(this, partitionBy, orderBy, calls);
    }

    /** A filter over the output of {@link #aggregate}: SQL's HAVING. */
    public Plan having(Expr predicate) {
        notNull(predicate, "Plan.having", "predicate");
        return new FilterNode(this, predicate, true);
    }

    public Plan sort(SortKey... keys) {
        return new SortNode(this, Arrays.asList(noNulls(keys, "Plan.sort", "keys")));
    }

    public Plan limit(long count) {
        return new LimitNode(this, count, 0);
    }

    public Plan limit(long count, long offset) {
        return new LimitNode(this, count, offset);
    }

    /** All rows of this plan and of {@code other}; both must have the same column types. */
    public Plan unionAll(Plan other) {
        notNull(other, "Plan.unionAll", "other");
        return new UnionAllNode(this, other);
    }

    /** Removes duplicate rows (NULLs equal to each other, as in SQL's DISTINCT). */
    public Plan distinct() {
        return new DistinctNode(this);
    }

    /**
     * SQL's {@code WITH RECURSIVE name AS (this UNION [ALL] step)}: the rows of this plan (the non-recursive term),
     * then of {@code step}'s plan (the recursive term) run again and again over the rows its last run added, until a
     * run adds none, as PostgreSQL runs it. {@code step} gets the work table, the plan that reads those rows
     * (PostgreSQL's WorkTable Scan: this plan's columns, qualified by {@code name}, or by an alias given with
     * {@link #as}), and returns the recursive term over it, of this plan's column types; the work table may be read
     * there only. With {@code all} (UNION ALL) every row is kept; without (UNION), each row that an earlier run, or the
     * same one, produced is dropped, which ends a walk over a graph with cycles. The columns are named as this
     * plan's. Every run of the recursive term is a parallel subplan like any other; the rows produced count against
     * the query's memory, and a recursion whose term still adds rows after {@code troupe.sql.recursion-limit} runs
     * fails, naming the limit. EXPLAIN shows a {@code Recursive Union name} over both terms, the work table as
     * {@code WorkTable Scan on name}.
     *
     * <pre>{@code
     * Plan counter = Plan.values(List.of("n"), List.of(DataType.INT64), List.of(List.of(new Literal(1L, DataType.INT64))))
     *     .recursiveUnion("r", true, r -> r.filter(col("r.n").lt(lit(100L))).project(col("r.n").plus(lit(1L)).as("n")));
     * }</pre>
     */
    public final Plan recursiveUnion(String name, boolean all, Function<Plan, Plan> step) {
        if (name == null || name.isBlank()) {
            throw new PlanException(label(), "a recursive union needs a name, got '" + name + "'");
        }
        notNull(step, "Plan.recursiveUnion", "step");
        RecursiveUnionNode.WorkTable table = new RecursiveUnionNode.WorkTable(name, this);
        Plan recursive = step.apply(new WorkTableScanNode(table, name));
        if (recursive == null) {
            throw new IllegalArgumentException("Plan.recursiveUnion: step returned no plan");
        }
        return new RecursiveUnionNode(table, recursive, all);
    }

    /**
     * This plan computed once per query and read wherever the returned plan is used, any number of
     * times in one plan (SQL's {@code WITH name AS MATERIALIZED (...)}; PostgreSQL's CTE Scan): the
     * subplan runs in a pipeline of its own that keeps its batches, and every use reads them, in
     * parallel morsels, once that pipeline finished. Each use may carry its own alias
     * ({@code shared.as("y")}); unaliased, its columns are qualified by {@code name}, as a scan's are
     * by its table's. The kept batches live as long as the query's execution. Calling {@code share}
     * twice makes two subplans that run separately: share once and reuse the result. EXPLAIN prints
     * the subplan once, as {@code CTE name} under the root, and each use as {@code CTE Scan on name}.
     *
     * @param name how EXPLAIN and errors name the subplan; two shared subplans of one plan need different names
     */
    public Plan share(String name) {
        if (name == null || name.isBlank()) {
            throw new PlanException(label(), "a shared subplan needs a name, got '" + name + "'");
        }
        return new CteScanNode(new CteNode(this, name), name);
    }

    /**
     * This plan to run as written: the optimizer ({@code troupe.sql.optimize-plans}, on by default) moves no filter
     * into it and orders none of its joins, nor the joins it takes part in; the rest of the plan is optimized as
     * usual. A plan that fixes its join order and build sides on purpose (a benchmark of one join's shape, a plan
     * tuned by hand) pins itself. What a planner planned comes pinned: SQL's plans, and each join region of
     * {@code Troupe.optimize}'s. Costs nothing at run time: a query drops its pins before it compiles
     * ({@link #unpinned}); {@link #explain(Catalog)} of the plan itself shows each as a {@code Pinned} line.
     */
    public final Plan pin() {
        return this instanceof PinnedNode ? this : new PinnedNode(this);
    }

    /** This plan without its pins ({@link #pin}): what runs when the optimizer is off. */
    public final Plan unpinned() {
        return PinnedNode.strip(this);
    }

    /**
     * This plan with the value of each {@link Parameter} in its place: parameter {@code ?i} becomes
     * {@code values.get(i - 1)}. What a prepared statement does with each execution's values; nothing is
     * planned again. The caller gives each value the parameter's type.
     *
     * @throws IllegalArgumentException when a value is missing
     */
    public final Plan withParameters(List<Literal> values) {
        noNulls(values, "Plan.withParameters", "values");
        return new ParameterBinding(values).plan(this);
    }

    /**
     * This plan with each call of a function or aggregate of {@code functions} bound to them: what a Troupe does
     * with a plan it takes, its calls found by name in its own {@code Troupe.functions()}. A call bound elsewhere is
     * bound again here, or left unbound (failing validation, naming the function) where {@code functions} lacks it.
     * This plan itself where every call is bound to them already.
     */
    public final Plan withFunctions(OwnFunctions functions) {
        notNull(functions, "Plan.withFunctions", "functions");
        ParameterBinding binding = new ParameterBinding(functions);
        Plan bound = binding.plan(this);
        return binding.rebound() ? bound : this;
    }

    // ------------------------------------------------------------------ analysis

    /** Validates the whole plan against {@code catalog} and returns its output schema. */
    public final Schema validate(Catalog catalog) {
        notNull(catalog, "Plan.validate", "catalog");
        sharedSubplans();
        return deriveSchema(catalog);
    }

    /**
     * The shared subplans ({@link #share}) this plan reads, each once, every one after those it reads
     * itself: EXPLAIN's {@code CTE} lines, in that order.
     *
     * @throws PlanException when two different shared subplans have one name
     */
    public final List<Plan> sharedSubplans() {
        List<Plan> found = new ArrayList<>();
        collectShared(this, Collections.newSetFromMap(new IdentityHashMap<>()), new HashMap<>(), found);
        return found;
    }

    private static void collectShared(Plan node, Set<CteNode> seen, Map<String, CteNode> byName, List<Plan> found) {
        CteNode cte = node.cte();
        if (cte != null && seen.add(cte)) {
            CteNode other = byName.putIfAbsent(cte.name(), cte);
            if (other != null) {
                throw new PlanException(node.label(), "two different shared subplans are named '" + cte.name()
                        + "'; share a subplan once and use the result everywhere, or name them apart");
            }
            collectShared(cte, seen, byName, found);
            found.add(cte);
        }
        for (Plan child : node.children()) {
            collectShared(child, seen, byName, found);
        }
    }

    /** The names of the tables this plan scans, its shared subplans' included, in the order met. */
    public final Set<String> tablesRead() {
        Set<String> names = new LinkedHashSet<>();
        collectTables(this, names);
        for (Plan shared : sharedSubplans()) {
            collectTables(shared, names);
        }
        return names;
    }

    private static void collectTables(Plan node, Set<String> names) {
        if (node instanceof ScanNode scan) {
            names.add(scan.table());
        }
        for (Plan child : node.children()) {
            collectTables(child, names);
        }
    }

    /** The shared subplan this node reads (a CTE Scan's), or null. */
    CteNode cte() {
        return null;
    }

    /**
     * The plan tree, one node a line with its output columns and types, as PostgreSQL's
     * EXPLAIN VERBOSE prints it. Validates first. It shows no exchange: those depend on how the
     * query runs ({@link PlanCompiler#explain}).
     */
    public final String explain(Catalog catalog) {
        notNull(catalog, "Plan.explain", "catalog");
        validate(catalog);
        StringBuilder sb = new StringBuilder();
        explain(catalog, sb, 0, sharedSubplans(), node -> List.of());
        return sb.toString();
    }

    /** A line EXPLAIN draws above a node (an exchange's): its label and its detail lines. */
    record Drawn(String label, List<String> details) {
    }

    /**
     * Prints this node, then {@code shared} (the CTEs, under the root only), then its children;
     * above each node, the lines that {@code above} draws for it (its exchanges, with the node's
     * output), each one step further in.
     */
    final void explain(Catalog catalog, StringBuilder sb, int depth, List<Plan> shared,
                       Function<Plan, List<Drawn>> above) {
        int level = depth;
        for (Drawn exchange : above.apply(this)) {
            line(sb, level++, exchange.label(), describe(deriveSchema(catalog)), exchange.details());
        }
        if (!explained()) {
            children().get(0).explain(catalog, sb, level, shared, above);
            return;
        }
        line(sb, level, label(), describe(deriveSchema(catalog)), List.of());
        for (Plan cte : shared) {
            cte.explain(catalog, sb, level + 1, List.of(), above);
        }
        for (Plan child : children()) {
            child.explain(catalog, sb, level + 1, List.of(), above);
        }
    }

    /** One node's line at {@code depth}: its label, its output, then its {@code details} ("Workers Planned: 2"). */
    private static void line(StringBuilder sb, int depth, String label, String output, List<String> details) {
        String indent = "      ".repeat(depth);
        String detail = indent + (depth == 0 ? "  " : "      ");
        sb.append(indent).append(depth == 0 ? "" : "->  ").append(label).append('\n');
        sb.append(detail).append("Output: ").append(output).append('\n');
        for (String d : details) {
            sb.append(detail).append(d).append('\n');
        }
    }

    private static String describe(Schema schema) {
        StringBuilder sb = new StringBuilder();
        for (Field f : schema.fields()) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(AliasNode.internal(f.qualifier()) ? f.name() : f.qualifiedName()).append(' ').append(f.type());
        }
        return sb.toString();
    }

    /**
     * Whether EXPLAIN and EXPLAIN ANALYZE draw this node: all do but the aliases SQL's lowering makes to keep its
     * relations' columns apart ({@code Alias $3}), which the statement never named; EXPLAIN draws their input in
     * their place.
     */
    public boolean explained() {
        return true;
    }

    /** The inputs of this node, left to right. */
    public abstract List<Plan> children();

    /** This node as EXPLAIN shows it and as errors name it, e.g. {@code Filter (a > 1)}. */
    public abstract String label();

    /**
     * Validates this node (children first) and returns its output schema.
     *
     * @throws PlanException naming the node and the column at fault
     */
    abstract Schema deriveSchema(Catalog catalog);

    /**
     * Compiles this node ({@link #compileNode}), recording it as the origin of the sources, operators
     * and sinks it adds, for EXPLAIN ANALYZE ({@link PlanCompiler#origin}).
     */
    final PipelineBuilder compile(PlanCompiler compiler) {
        return compiler.compiling(this, () -> compileNode(compiler));
    }

    /** This node over its children as {@code binding} rebuilds them, its expressions' parameters replaced. */
    abstract Plan withParameters(ParameterBinding binding);

    /** Compiles this node: extends or ends its children's pipelines. Runs after validation. */
    abstract PipelineBuilder compileNode(PlanCompiler compiler);

    /**
     * Where this node's rows sit across the nodes of a spread query by a hash, when they do: as the scan
     * of a table partitioned by a column left them, filtered or projected since ({@link HashPlacement});
     * empty for any other plan. Runs after validation.
     */
    Optional<HashPlacement> hashPlacement(Catalog catalog) {
        return Optional.empty();
    }

    /**
     * Whether this plan yields the very rows of {@code other}, column for column, whatever their names
     * (the two scans of a self join): then a spread join repartitions them once for both its sides.
     * False unless a node can tell; runs after validation.
     */
    boolean sameRowsAs(Plan other, Catalog catalog) {
        return false;
    }

    @Override
    public String toString() {
        return label();
    }
}
