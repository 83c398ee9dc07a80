package io.troupe.oracle;

import io.troupe.oracle.FeatureSet.Feature;
import io.troupe.oracle.Rel.Col;
import io.troupe.oracle.Term.Kind;
import io.troupe.operators.expr.Function;
import io.troupe.operators.plan.Call;
import io.troupe.operators.plan.ColumnRef;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.FunctionCall;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanException;
import io.troupe.operators.plan.SortKey;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.operators.types.TypeId;
import io.troupe.oracle.RandomTables.ColumnSpec;
import io.troupe.oracle.RandomTables.TableSpec;
import io.troupe.oracle.RandomTables.World;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * Generates random query PAIRS from one random spec: a Troupe {@link Plan} built with the public
 * plan API and the equivalent DuckDB SQL, built side by side, so the SQL never has to be
 * reverse-engineered from a Plan. Every SQL relation names its columns k0, k1, ... in Troupe's
 * column order (see {@link Rel}); a {@code Plan.as} has no SQL counterpart beyond the derived
 * table's alias every level already has.
 *
 * <p>The output order is compared only where the plan fixes it (a sort on every output column);
 * LIMIT goes over such a sort, or at the top where any rows of the input may come back. Joins are
 * kept small (an upper bound of the rows they can produce).
 *
 * <p>With a catalog, every node is validated as it is added and Troupe's column types replace the
 * inferred ones; a plan Troupe rejects surfaces as {@link Rejected}. Not threadsafe.
 */
final class RandomPlans {

    /** How a case's results are compared. */
    enum Check {
        /** As multisets. */
        MULTISET,
        /** In order: the plan sorts on every output column. */
        ORDERED,
        /** LIMIT without ORDER BY: Troupe's rows must be that many rows of DuckDB's (the input). */
        SUBSET
    }

    /**
     * A generated case. For {@link Check#SUBSET}, {@code sql} computes the limit's input and
     * {@code expectedRows} is how many rows the limit passes given that input's size: min(count, max(0, n - offset)).
     */
    record Case(Plan plan, String sql, Check check, long limitCount, long limitOffset) {
        long expectedRows(long inputRows) {
            return Math.min(limitCount, Math.max(0, inputRows - limitOffset));
        }
    }

    /** Troupe rejected a plan the generator considers valid: a finding, unless the generator is wrong. */
    static final class Rejected extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient Plan plan;

        Rejected(Plan plan, PlanException cause) {
            super("Troupe rejected a generated plan: " + cause.getMessage(), cause);
            this.plan = plan;
        }
    }

    /** Above this bound on a join's output, the join is not generated. */
    private static final double JOIN_ROWS_LIMIT = 400_000;

    private final Random rnd;
    private final World world;
    private final FeatureSet fs;
    private final Catalog catalog;
    private final RandomExprs exprs;
    private final RandomAggregates aggregateCalls;
    private final Map<String, Integer> coverage;
    private int nextName;

    /**
     * @param catalog  validates each node and supplies Troupe's types; null to generate without Troupe
     * @param coverage counts what was generated (node kinds, join types, functions ...); may be shared
     */
    RandomPlans(long seed, World world, FeatureSet fs, Catalog catalog, Map<String, Integer> coverage) {
        this.rnd = new Random(seed);
        this.world = world;
        this.fs = fs;
        this.catalog = catalog;
        this.exprs = new RandomExprs(rnd, fs);
        this.aggregateCalls = new RandomAggregates(rnd, fs, exprs, this::count);
        this.coverage = coverage;
    }

    /** A whole case: a relation, then maybe a total sort, a top-N or a bare LIMIT on top. */
    Case generate() {
        // Mostly shallow plans, which fail readably; now and then a deep one.
        Rel rel = rel(rnd.nextInt(10) == 0 ? 5 + rnd.nextInt(3) : rnd.nextInt(5));
        int top = rnd.nextInt(10);
        if (fs.has(Feature.SORT) && top < 4 && !rel.anyFuzzy()) {
            rel = sort(rel, true);
            if (fs.has(Feature.TOP_N) && rnd.nextBoolean()) {
                rel = topN(rel);
            }
        } else if (top < 6) {
            long count = rnd.nextInt(4) == 0 ? rnd.nextInt(3) : rnd.nextInt(rnd.nextInt(4) == 0 ? 5000 : 60);
            long offset = rnd.nextBoolean() ? 0 : rnd.nextInt(rnd.nextInt(4) == 0 ? 3000 : 10);
            count("limit (no order)");
            Plan limited = offset == 0 && rnd.nextBoolean() ? rel.plan().limit(count) : rel.plan().limit(count, offset);
            Plan plan = validated(limited);
            return new Case(plan, rel.sql(), Check.SUBSET, count, offset);
        }
        Check check = rel.ordered() && rel.totalOrder() ? Check.ORDERED : Check.MULTISET;
        return new Case(rel.plan(), rel.sql(), check, 0, 0);
    }

    // ------------------------------------------------------------------ relations

    private Rel rel(int depth) {
        if (depth <= 0) {
            return leaf();
        }
        int total = 0;
        int[] weights = new int[9];
        weights[0] = 3;                                              // filter
        weights[1] = 3;                                              // project
        weights[2] = anyJoin() ? 4 : 0;                              // join
        weights[3] = aggregateCalls.any() ? 3 : 0;                   // aggregate
        weights[4] = fs.has(Feature.SORT) ? 1 : 0;                   // sort (partial or total)
        weights[5] = fs.has(Feature.DISTINCT) ? 1 : 0;               // distinct
        weights[6] = 2;                                              // union all
        weights[7] = 1;                                              // alias
        weights[8] = fs.has(Feature.TOP_N) ? 1 : 0;                  // top-N
        for (int w : weights) {
            total += w;
        }
        int pick = rnd.nextInt(total);
        int op = 0;
        while (pick >= weights[op]) {
            pick -= weights[op];
            op++;
        }
        return switch (op) {
            case 0 -> filter(rel(depth - 1));
            case 1 -> project(rel(depth - 1));
            case 2 -> join(depth);
            case 3 -> aggregate(rel(depth - 1));
            case 4 -> sort(rel(depth - 1), rnd.nextBoolean());
            case 5 -> distinct(rel(depth - 1));
            case 6 -> unionAll(rel(depth - 1), rel(depth - 1));
            case 7 -> alias(rel(depth - 1), fresh("q"));
            default -> topN(sort(rel(depth - 1), true));
        };
    }

    private boolean anyJoin() {
        for (JoinType t : JoinType.values()) {
            if (fs.has(joinFeature(t))) {
                return true;
            }
        }
        return false;
    }

    private static Feature joinFeature(JoinType t) {
        return Feature.valueOf("JOIN_" + t.name());
    }

    private Rel leaf() {
        if (rnd.nextInt(8) == 0) {
            return series();
        }
        return scan(world.tables().get(rnd.nextInt(world.tables().size())));
    }

    private Rel scan(TableSpec t) {
        boolean aliased = rnd.nextInt(3) == 0;
        String qualifier = aliased ? fresh("q") : t.name();
        Plan plan = aliased ? Plan.scan(t.name()).as(qualifier) : Plan.scan(t.name());
        List<Col> cols = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < t.columns().size(); i++) {
            ColumnSpec c = t.columns().get(i);
            cols.add(new Col(qualifier, c.name(), c.type(), true, c.bound(), c.type().id() == TypeId.FLOAT64 ? 2 : 0,
                    false));
            sql.append(i == 0 ? "" : ", ").append(c.name()).append(" AS k").append(i);
        }
        count(aliased ? "scan AS alias" : "scan");
        return finish(Rel.of(plan, sql.append(" FROM ").append(t.name()).toString(), cols, t.rows()));
    }

    private Rel series() {
        String name = fresh("g");
        long start = rnd.nextInt(16) - 5;
        long stop = start + (rnd.nextInt(10) == 0 ? rnd.nextInt(6000) : rnd.nextInt(300) - 3);
        Col col = new Col(null, name, DataType.INT64, true, Math.max(Math.abs(start), Math.abs(stop)), 0, false);
        count("series");
        return finish(Rel.of(Plan.series(name, start, stop),
                "SELECT v AS k0 FROM generate_series(" + start + ", " + stop + ") AS g(v)",
                List.of(col), Math.max(0, stop - start + 1)));
    }

    private Rel filter(Rel in) {
        String a = fresh("w");
        Term predicate = predicate(in.terms(a, false));
        count("filter");
        return finish(Rel.of(in.plan().filter(used(predicate.expr())),
                "SELECT " + in.passThrough(a) + " FROM (" + in.sql() + ") AS " + a + " WHERE " + predicate.sql(),
                in.cols(), in.maxRows()));
    }

    /** A predicate: a generated one when comparisons exist, else a boolean column or literal. */
    private Term predicate(List<Term> scope) {
        return exprs.predicate(scope, 1 + rnd.nextInt(3));
    }

    private Rel project(Rel in) {
        String a = fresh("w");
        List<Term> scope = in.terms(a, true);
        int n = 1 + rnd.nextInt(Math.min(6, scope.size() + 2));
        Set<Integer> bare = new HashSet<>();
        List<Expr> items = new ArrayList<>();
        List<Col> cols = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < n; i++) {
            int source = rnd.nextInt(in.cols().size());
            Term t;
            Col col;
            if (rnd.nextBoolean() && bare.add(source)) {
                col = in.cols().get(source);
                t = scope.get(source);
                items.add(t.expr());
                count("project column");
            } else {
                String name = fresh("e");
                t = rnd.nextInt(3) == 0 ? scope.get(source) : exprs.any(scope, rnd.nextInt(4));
                items.add(used(t.expr()).as(name));
                col = Col.of(null, name, t);
                count(t.expr() instanceof ColumnRef ? "project rename" : "project computed");
            }
            cols.add(col);
            sql.append(i == 0 ? "" : ", ").append(t.sql()).append(" AS k").append(i);
        }
        return finish(Rel.of(in.plan().project(items.toArray(new Expr[0])),
                sql.append(" FROM (").append(in.sql()).append(") AS ").append(a).toString(), cols, in.maxRows()));
    }

    /** Every column under a fresh name, so that names are unique (for an alias or a union's left side). */
    private Rel renameAll(Rel in) {
        String a = fresh("w");
        List<Expr> items = new ArrayList<>();
        List<Col> cols = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < in.cols().size(); i++) {
            Term t = in.cols().get(i).term(a, i);
            String name = fresh("e");
            items.add(t.expr().as(name));
            cols.add(Col.of(null, name, t));
            sql.append(i == 0 ? "" : ", ").append(t.sql()).append(" AS k").append(i);
        }
        count("project rename");
        return finish(Rel.of(in.plan().project(items.toArray(new Expr[0])),
                sql.append(" FROM (").append(in.sql()).append(") AS ").append(a).toString(), cols, in.maxRows()));
    }

    private Rel alias(Rel in, String qualifier) {
        Rel named = in.namesUnique() ? in : renameAll(in);
        List<Col> cols = new ArrayList<>();
        for (Col c : named.cols()) {
            cols.add(c.withQualifier(qualifier));
        }
        count("alias");
        return finish(new Rel(named.plan().as(qualifier), named.sql(), cols, named.maxRows(), named.baseSql(),
                named.orderBy(), named.totalOrder()));
    }

    // ------------------------------------------------------------------ joins

    private Rel join(int depth) {
        List<JoinType> types = new ArrayList<>();
        for (JoinType t : JoinType.values()) {
            if (fs.has(joinFeature(t))) {
                types.add(t);
            }
        }
        JoinType type = types.get(rnd.nextInt(types.size()));
        Rel left = rel(depth - 1);
        Rel right = rnd.nextBoolean() ? leaf() : rel(depth - 1);
        if (left.maxRows() * right.maxRows() > JOIN_ROWS_LIMIT) {
            right = leaf();
            if (left.maxRows() * right.maxRows() > JOIN_ROWS_LIMIT) {
                return filter(left);
            }
        }
        // Each column must stay addressable in the joined schema: alias the sides when names clash.
        List<Col> joint = new ArrayList<>(left.cols());
        joint.addAll(right.cols());
        if (!Rel.resolvable(joint) || rnd.nextInt(5) == 0) {
            left = alias(left, fresh("q"));
            right = alias(right, fresh("q"));
        }
        String la = fresh("w");
        String ra = fresh("w");
        List<Term[]> keys = joinKeys(left.terms(la, false), right.terms(ra, false));
        if (keys.isEmpty()) {
            return rnd.nextBoolean() ? filter(left) : project(left);
        }
        Expr on = null;
        StringBuilder cond = new StringBuilder();
        for (Term[] k : keys) {
            Expr eq = rnd.nextBoolean() ? k[0].expr().eq(k[1].expr()) : k[1].expr().eq(k[0].expr());
            on = on == null ? eq : on.and(eq);
            cond.append(cond.length() == 0 ? "" : " AND ").append(k[0].sql()).append(" = ").append(k[1].sql());
        }
        // Now and then a residual: a predicate over both sides that the pairs of equal keys must pass too.
        if (rnd.nextInt(4) == 0) {
            List<Term> both = new ArrayList<>(left.terms(la, false));
            both.addAll(right.terms(ra, false));
            Term residual = exprs.predicate(both, 1 + rnd.nextInt(2));
            if (!hasEquality(residual.expr())) {
                on = on.and(residual.expr());
                cond.append(" AND ").append(residual.sql());
                count("join residual");
            }
        }
        count("join " + type + " (" + keys.size() + " key" + (keys.size() > 1 ? "s)" : ")"));
        Plan plan = left.plan().join(right.plan(), type, used(on));
        String l = "(" + left.sql() + ") AS " + la;
        String r = "(" + right.sql() + ") AS " + ra;
        if (type == JoinType.RIGHT_SEMI || type == JoinType.RIGHT_ANTI) {
            String sql = "SELECT " + right.passThrough(ra) + " FROM " + r + " WHERE "
                    + (type == JoinType.RIGHT_ANTI ? "NOT " : "") + "EXISTS (SELECT 1 FROM " + l + " WHERE " + cond + ")";
            return finish(Rel.of(plan, sql, right.cols(), right.maxRows()));
        }
        if (type == JoinType.SEMI || type == JoinType.ANTI) {
            String sql;
            if (rnd.nextBoolean()) {
                sql = "SELECT " + left.passThrough(la) + " FROM " + l + " WHERE "
                        + (type == JoinType.ANTI ? "NOT " : "") + "EXISTS (SELECT 1 FROM " + r + " WHERE " + cond + ")";
            } else {
                sql = "SELECT " + left.passThrough(la) + " FROM " + l + " " + type + " JOIN " + r + " ON " + cond;
            }
            return finish(Rel.of(plan, sql, left.cols(), left.maxRows()));
        }
        StringBuilder select = new StringBuilder("SELECT ");
        int n = 0;
        for (int i = 0; i < left.cols().size(); i++, n++) {
            select.append(n == 0 ? "" : ", ").append(la).append(".k").append(i).append(" AS k").append(n);
        }
        for (int i = 0; i < right.cols().size(); i++, n++) {
            select.append(", ").append(ra).append(".k").append(i).append(" AS k").append(n);
        }
        String keyword = switch (type) {
            case INNER -> "INNER JOIN";
            case LEFT -> "LEFT JOIN";
            case RIGHT -> "RIGHT JOIN";
            default -> "FULL OUTER JOIN";
        };
        List<Col> cols = new ArrayList<>(left.cols());
        cols.addAll(right.cols());
        double rows = left.maxRows() * right.maxRows() + left.maxRows() + right.maxRows();
        return finish(Rel.of(plan, select + " FROM " + l + " " + keyword + " " + r + " ON " + cond, cols, rows));
    }

    /**
     * Whether a conjunct of {@code e} is an equality, which the join would take for a key pair (and refuse
     * when its sides differ in type) rather than a residual.
     */
    private static boolean hasEquality(Expr e) {
        if (e instanceof Call call && call.function() == Function.AND) {
            return hasEquality(call.args().get(0)) || hasEquality(call.args().get(1));
        }
        return e instanceof Call call && call.function() == Function.EQ;
    }

    /** One or two pairs (left term, right term) of equal type; cast to a common type when CAST is on. */
    private List<Term[]> joinKeys(List<Term> left, List<Term> right) {
        List<Term[]> equal = new ArrayList<>();
        List<Term[]> castable = new ArrayList<>();
        for (Term l : left) {
            for (Term r : right) {
                if (l.type().equals(r.type())) {
                    equal.add(new Term[] {l, r});
                } else if (l.kind() == r.kind() && l.kind() != Kind.DOUBLE) {
                    castable.add(new Term[] {l, r});
                }
            }
        }
        Collections.shuffle(equal, rnd);
        Collections.shuffle(castable, rnd);
        List<Term[]> keys = new ArrayList<>();
        int wanted = rnd.nextInt(3) > 0 ? 1 : rnd.nextInt(4) > 0 ? 2 : 3;
        boolean cast = fs.has(Function.CAST);
        for (int i = 0; keys.size() < wanted && i < equal.size() + castable.size(); i++) {
            Term[] pair = i < equal.size() ? equal.get(i) : castable.get(i - equal.size());
            if (cast && (i >= equal.size() || rnd.nextInt(6) == 0)) {
                pair = castPair(pair);
                if (pair == null) {
                    continue;
                }
            } else if (i >= equal.size()) {
                break;
            }
            keys.add(pair);
        }
        // Now and then a key computed on both sides (the join accepts any expression per side).
        if (cast && exprs.anyFunction() && !keys.isEmpty() && rnd.nextInt(5) == 0) {
            Kind kind = keys.get(0)[0].kind();
            Term[] computed = castPair(new Term[] {exprs.of(kind, left, 2), exprs.of(kind, right, 2)});
            if (computed != null && computed[0].sql().contains(".k") && computed[1].sql().contains(".k")) {
                keys.set(0, computed);
                count("join key computed");
            }
        }
        return keys;
    }

    /** Both sides cast to one type that holds both exactly: BIGINT, DECIMAL(18,s), or the type itself. */
    private static Term[] castPair(Term[] pair) {
        DataType target = switch (pair[0].kind()) {
            case INTEGER -> DataType.INT64;
            case DECIMAL -> DataType.decimal(18, Math.max(pair[0].type().scale(), pair[1].type().scale()));
            default -> pair[0].type();
        };
        Term l = Terms.cast(pair[0], target);
        Term r = Terms.cast(pair[1], target);
        return l == null || r == null ? null : new Term[] {l, r};
    }

    // ------------------------------------------------------------------ aggregation

    private Rel aggregate(Rel in) {
        String a = fresh("w");
        List<Term> scope = in.terms(a, true);
        List<Term> exact = Terms.exactOnly(scope);
        int keyCount = exact.isEmpty() ? 0 : rnd.nextInt(8) == 0 ? 3 + rnd.nextInt(2) : rnd.nextInt(3);
        List<Expr> keys = new ArrayList<>();
        List<Col> cols = new ArrayList<>();
        List<String> keySql = new ArrayList<>();
        Set<Term> bareKeys = new HashSet<>();
        for (int i = 0; i < keyCount; i++) {
            Term t = exact.get(rnd.nextInt(exact.size()));
            if (rnd.nextInt(3) > 0 && bareKeys.add(t)) {
                keys.add(t.expr());
                cols.add(in.cols().get(scope.indexOf(t)).representative());
            } else if (exprs.anyFunction() || rnd.nextBoolean()) {
                String name = fresh("e");
                Term computed = exprs.anyFunction() ? exprs.any(exact, 1 + rnd.nextInt(2)) : t;
                if (computed.fuzzy()) {
                    continue;
                }
                t = computed;
                keys.add(used(t.expr()).as(name));
                cols.add(Col.of(null, name, t).representative());
            } else {
                continue;
            }
            keySql.add(t.sql());
        }
        double groups = keys.isEmpty() ? 1 : in.maxRows();
        int aggregateCount = rnd.nextInt(4) + (keys.isEmpty() ? 1 : 0);
        List<Expr> aggregates = new ArrayList<>();
        List<String> aggregateSql = new ArrayList<>();
        for (int i = 0; i < aggregateCount; i++) {
            RandomAggregates.Call spec = aggregateCalls.next(scope, in.maxRows());
            if (spec == null) {
                continue;
            }
            String name = fresh("a");
            aggregates.add(used(spec.expr()).as(name));
            aggregateSql.add(spec.sql());
            cols.add(Col.of(null, name, spec.result()));
        }
        if (keys.isEmpty() && aggregates.isEmpty()) {
            RandomAggregates.Call spec = aggregateCalls.next(scope, in.maxRows());
            if (spec == null) {
                return filter(in);
            }
            String name = fresh("a");
            aggregates.add(spec.expr().as(name));
            aggregateSql.add(spec.sql());
            cols.add(Col.of(null, name, spec.result()));
        }
        StringBuilder sql = new StringBuilder("SELECT ");
        int k = 0;
        for (String s : keySql) {
            sql.append(k == 0 ? "" : ", ").append(s).append(" AS k").append(k++);
        }
        for (String s : aggregateSql) {
            sql.append(k == 0 ? "" : ", ").append(s).append(" AS k").append(k++);
        }
        sql.append(" FROM (").append(in.sql()).append(") AS ").append(a);
        if (!keySql.isEmpty()) {
            // By position: a key that is an integer literal would otherwise read as a position.
            sql.append(" GROUP BY ");
            for (int i = 1; i <= keySql.size(); i++) {
                sql.append(i == 1 ? "" : ", ").append(i);
            }
        }
        count("aggregate (" + keys.size() + " keys)");
        Plan aggregated = in.plan().aggregate(keys, aggregates.toArray(new Expr[0]));
        Rel agg = finish(Rel.of(aggregated, sql.toString(), cols, groups));
        if (rnd.nextInt(3) > 0) {
            return agg;
        }
        String h = fresh("w");
        Term predicate = predicate(agg.terms(h, false));
        count("having");
        return finish(Rel.of(agg.plan().having(used(predicate.expr())),
                "SELECT " + agg.passThrough(h) + " FROM (" + agg.sql() + ") AS " + h + " WHERE " + predicate.sql(),
                agg.cols(), groups));
    }


    // ------------------------------------------------------------------ order, limit, distinct, union

    /**
     * ORDER BY. {@code total}: every output column is a key (in a random order, after maybe a
     * computed key), so the order is fully determined; else one or two keys, and the order is not.
     */
    private Rel sort(Rel in, boolean total) {
        String a = fresh("w");
        // A partial sort may order by fuzzy columns: its order is not compared.
        total &= !in.anyFuzzy();
        List<Term> scope = in.terms(a, !total);
        List<Term> keyTerms = new ArrayList<>();
        if (exprs.anyFunction() && rnd.nextInt(4) == 0) {
            Term computed = exprs.any(Terms.exactOnly(scope), 1 + rnd.nextInt(2));
            // Over a column, not a constant: SQL reads ORDER BY 2 (and (-1)) as a column position.
            if (computed.sql().contains(a + ".k")) {
                keyTerms.add(computed);
            }
        }
        if (total) {
            List<Term> all = new ArrayList<>(scope);
            Collections.shuffle(all, rnd);
            keyTerms.addAll(all);
        } else if (keyTerms.isEmpty() || rnd.nextBoolean()) {
            for (int i = 0; i < 1 + rnd.nextInt(2); i++) {
                keyTerms.add(scope.get(rnd.nextInt(scope.size())));
            }
        }
        SortKey[] keys = new SortKey[keyTerms.size()];
        StringBuilder orderBy = new StringBuilder();
        for (int i = 0; i < keys.length; i++) {
            Term t = keyTerms.get(i);
            boolean ascending = rnd.nextBoolean();
            SortKey key = ascending ? used(t.expr()).asc() : used(t.expr()).desc();
            int nulls = rnd.nextInt(3);
            key = nulls == 0 ? key : nulls == 1 ? key.withNullsFirst() : key.withNullsLast();
            keys[i] = key;
            orderBy.append(i == 0 ? "" : ", ").append(t.sql()).append(ascending ? " ASC" : " DESC")
                    .append(key.nullsFirst() ? " NULLS FIRST" : " NULLS LAST");
        }
        count(total ? "sort (total)" : "sort (partial)");
        String base = "SELECT " + in.passThrough(a) + " FROM (" + in.sql() + ") AS " + a;
        return finish(new Rel(in.plan().sort(keys), base + " ORDER BY " + orderBy, in.cols(), in.maxRows(), base,
                orderBy.toString(), total));
    }

    /** LIMIT/OFFSET over a total sort: deterministic, so it may sit anywhere in the tree. */
    private Rel topN(Rel sorted) {
        if (!sorted.ordered() || !sorted.totalOrder()) {
            return sorted;
        }
        long count = rnd.nextInt(5) == 0 ? rnd.nextInt(2) : 1 + rnd.nextInt(rnd.nextInt(4) == 0 ? 5000 : 30);
        long offset = rnd.nextBoolean() ? 0 : rnd.nextInt(rnd.nextInt(4) == 0 ? 3000 : 8);
        count("top-N");
        String sql = sorted.baseSql() + " ORDER BY " + sorted.orderBy() + " LIMIT " + count + " OFFSET " + offset;
        return finish(new Rel(sorted.plan().limit(count, offset), sql, sorted.cols(), Math.min(count, sorted.maxRows()),
                sorted.baseSql(), sorted.orderBy(), true));
    }

    private Rel distinct(Rel in) {
        if (in.anyFuzzy()) {
            return project(in);
        }
        String a = fresh("w");
        count("distinct");
        return finish(Rel.of(in.plan().distinct(),
                "SELECT DISTINCT " + in.passThrough(a) + " FROM (" + in.sql() + ") AS " + a,
                in.cols().stream().map(Col::representative).toList(), in.maxRows()));
    }

    /**
     * UNION ALL. The right side is projected onto the left's column types: a column of the same
     * type, else a literal of it, a typed NULL or a cast.
     */
    private Rel unionAll(Rel left, Rel right) {
        Rel l = left.namesUnique() ? left : renameAll(left);
        String a = fresh("w");
        List<Term> scope = right.terms(a, true);
        List<Expr> items = new ArrayList<>();
        List<Col> rightCols = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT ");
        Set<Integer> bare = new HashSet<>();
        for (int i = 0; i < l.cols().size(); i++) {
            DataType type = l.cols().get(i).type();
            List<Integer> same = new ArrayList<>();
            for (int j = 0; j < scope.size(); j++) {
                if (scope.get(j).type().equals(type) && right.cols().get(j).exactType()) {
                    same.add(j);
                }
            }
            Term t;
            if (!same.isEmpty() && rnd.nextInt(5) > 0) {
                int j = same.get(rnd.nextInt(same.size()));
                t = scope.get(j);
                if (bare.add(j)) {
                    items.add(t.expr());
                    rightCols.add(right.cols().get(j));
                } else {
                    String name = fresh("e");
                    items.add(t.expr().as(name));
                    rightCols.add(Col.of(null, name, t));
                }
            } else {
                t = filler(type, scope);
                String name = fresh("e");
                items.add(used(t.expr()).as(name));
                rightCols.add(Col.of(null, name, t));
            }
            sql.append(i == 0 ? "" : ", ").append(t.sql()).append(" AS k").append(i);
        }
        Rel r = finish(Rel.of(right.plan().project(items.toArray(new Expr[0])),
                sql.append(" FROM (").append(right.sql()).append(") AS ").append(a).toString(), rightCols,
                right.maxRows()));
        List<Col> cols = new ArrayList<>();
        for (int i = 0; i < l.cols().size(); i++) {
            Col lc = l.cols().get(i);
            Col rc = r.cols().get(i);
            cols.add(new Col(null, lc.name(), lc.type(), lc.exactType(), Math.max(lc.bound(), rc.bound()),
                    lc.dyadic() < 0 || rc.dyadic() < 0 ? -1 : Math.max(lc.dyadic(), rc.dyadic()),
                    lc.fuzzy() || rc.fuzzy()));
        }
        count("union all");
        String ua = fresh("w");
        String ub = fresh("w");
        return finish(Rel.of(l.plan().unionAll(r.plan()),
                "SELECT * FROM (" + l.sql() + ") AS " + ua + " UNION ALL SELECT * FROM (" + r.sql() + ") AS " + ub,
                cols, l.maxRows() + r.maxRows()));
    }

    /** A value of exactly {@code type} for a union column the other side has no column for. */
    private Term filler(DataType type, List<Term> scope) {
        if (fs.has(Function.CAST) && rnd.nextBoolean()) {
            Term cast = Terms.cast(exprs.of(Kind.of(type), scope, 1), type);
            if (cast != null) {
                return cast;
            }
        }
        Term literal = exprs.literal(Kind.of(type), scope);
        return literal.type().equals(type) && rnd.nextBoolean() ? literal : Terms.nullOf(type);
    }

    // ------------------------------------------------------------------ bookkeeping

    /**
     * Validates the new node (with a catalog) and takes Troupe's column types; checks that every
     * column is named as the generator believes, which keeps the generator honest.
     */
    private Rel finish(Rel rel) {
        if (catalog == null) {
            return rel;
        }
        Schema schema = validatedSchema(rel.plan());
        if (schema.size() != rel.cols().size()) {
            throw new IllegalStateException("generator expected " + rel.cols().size() + " columns, Troupe has "
                    + schema + " for\n" + rel.plan().label());
        }
        List<Col> cols = new ArrayList<>();
        for (int i = 0; i < schema.size(); i++) {
            Field f = schema.field(i);
            Col c = rel.cols().get(i);
            if (!f.name().equalsIgnoreCase(c.name()) || (f.qualifier() == null) != (c.qualifier() == null)
                    || (f.qualifier() != null && !f.qualifier().equalsIgnoreCase(c.qualifier()))) {
                throw new IllegalStateException("generator expected column " + c.ref() + ", Troupe has "
                        + f.qualifiedName() + " in " + schema + " of " + rel.plan().label());
            }
            cols.add(c.withType(f.type()));
        }
        return new Rel(rel.plan(), rel.sql(), cols, rel.maxRows(), rel.baseSql(), rel.orderBy(), rel.totalOrder());
    }

    private Schema validatedSchema(Plan plan) {
        try {
            return plan.validate(catalog);
        } catch (PlanException e) {
            throw new Rejected(plan, e);
        }
    }

    private Plan validated(Plan plan) {
        if (catalog != null) {
            validatedSchema(plan);
        }
        return plan;
    }

    /** Counts the functions {@code e} calls (for the coverage table) and returns it. */
    private Expr used(Expr e) {
        if (e instanceof Call call) {
            count("fn " + call.function());
        } else if (e instanceof FunctionCall call) {
            count("fn " + call.name());
        }
        for (Expr child : e.children()) {
            used(child);
        }
        return e;
    }

    private String fresh(String prefix) {
        return prefix + (nextName++);
    }

    private void count(String what) {
        coverage.merge(what, 1, Integer::sum);
    }

    /** A readable coverage table: what was generated how often. */
    static String coverageReport(Map<String, Integer> coverage) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Integer> e : new TreeMap<>(coverage).entrySet()) {
            sb.append(String.format("  %-28s %6d%n", e.getKey(), e.getValue()));
        }
        return sb.toString();
    }
}
