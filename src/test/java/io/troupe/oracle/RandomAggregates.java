package io.troupe.oracle;

import io.troupe.oracle.FeatureSet.Feature;
import io.troupe.oracle.Term.Kind;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * Generates aggregate calls (count(*), count, count(DISTINCT), sum, min, max, avg) as pairs of
 * Troupe {@code Expr} and SQL, with what their results are. Sums and averages are generated only
 * where the sum fits its type (Troupe's sum and avg accumulate in INT64 or DECIMAL(18,s) and call
 * an overflow an error; DuckDB's in 128 bits); a float sum is fuzzy unless its inputs make it
 * exact in any order.
 *
 * <p>Not threadsafe (it draws from the plan generator's Random).
 */
final class RandomAggregates {

    private static final List<Feature> FUNCTIONS = List.of(Feature.COUNT_STAR, Feature.COUNT, Feature.COUNT_DISTINCT,
            Feature.SUM, Feature.MIN, Feature.MAX, Feature.AVG, Feature.MEDIAN, Feature.PERCENTILE_CONT,
            Feature.PERCENTILE_DISC, Feature.STRING_AGG, Feature.BOOL_AND, Feature.BOOL_OR, Feature.CORR,
            Feature.COVARIANCE, Feature.REGRESSION);
    /** Fractions a double holds exactly, so that percentile_disc's rank is one number in both engines. */
    private static final double[] FRACTIONS = {0, 0.125, 0.25, 0.5, 0.75, 0.875, 1};
    /** Largest argument of the covariances and regressions: their cancellation stays within the tolerance. */
    private static final double MOMENT_BOUND = 1000;
    private static final List<String> SEPARATORS = List.of(",", "", " | ", "é");
    private static final List<String> REGRESSIONS = List.of("regr_slope", "regr_intercept", "regr_r2", "regr_count",
            "regr_avgx", "regr_avgy", "regr_sxx", "regr_syy", "regr_sxy");

    private final Random rnd;
    private final FeatureSet fs;
    private final RandomExprs exprs;
    private final Consumer<String> counter;

    RandomAggregates(Random rnd, FeatureSet fs, RandomExprs exprs, Consumer<String> counter) {
        this.rnd = rnd;
        this.fs = fs;
        this.exprs = exprs;
        this.counter = counter;
    }

    /** An aggregate call in both languages and what its result is. */
    record Call(Expr expr, String sql, Term result) {
    }

    /** True when some aggregate function is implemented. */
    boolean any() {
        for (Feature f : FUNCTIONS) {
            if (fs.has(f)) {
                return true;
            }
        }
        return false;
    }

    /** A random aggregate call over {@code scope} (of at most {@code rows} rows), or null when none fits. */
    Call next(List<Term> scope, double rows) {
        List<Feature> functions = new ArrayList<>();
        for (Feature f : FUNCTIONS) {
            if (fs.has(f)) {
                functions.add(f);
            }
        }
        if (functions.isEmpty()) {
            return null;
        }
        Feature f = functions.get(rnd.nextInt(functions.size()));
        counter.accept("aggregate " + f);
        if (f == Feature.COUNT_STAR) {
            return new Call(Expr.count(), "count(*)", countResult(rows));
        }
        if (f.ordinal() >= Feature.MEDIAN.ordinal()) {
            return ordinalOrMoment(f, scope, rows);
        }
        boolean numeric = f == Feature.SUM || f == Feature.AVG;
        Term arg = argument(numeric, f == Feature.COUNT_DISTINCT || f == Feature.MIN || f == Feature.MAX, scope);
        switch (f) {
            case COUNT -> {
                return new Call(Expr.count(arg.expr()), "count(" + arg.sql() + ")", countResult(rows));
            }
            case COUNT_DISTINCT -> {
                return new Call(Expr.countDistinct(arg.expr()), "count(DISTINCT " + arg.sql() + ")", countResult(rows));
            }
            case MIN, MAX -> {
                Expr e = f == Feature.MIN ? Expr.min(arg.expr()) : Expr.max(arg.expr());
                String name = f == Feature.MIN ? "min" : "max";
                // Of equal intervals ('1 month', '30 days') either engine may keep either: output only.
                Term result = arg.type().id() != TypeId.INTERVAL ? arg : new Term(arg.expr(), arg.sql(), arg.type(),
                        arg.exactType(), 0, 0, true);
                return new Call(e, name + "(" + arg.sql() + ")", result);
            }
            case SUM -> {
                double bound = arg.bound() * Math.max(1, rows);
                DataType type = switch (arg.type().id()) {
                    case INT32, INT64 -> DataType.INT64;
                    case DECIMAL -> DataType.decimal(18, arg.type().scale());
                    default -> DataType.FLOAT64;
                };
                if (!Terms.fits(type, bound)) {
                    return null;
                }
                boolean exactSum = type.id() != TypeId.FLOAT64
                        || (!arg.fuzzy() && arg.dyadic() >= 0 && bound * Math.pow(2, arg.dyadic()) < 0x1p52);
                // DuckDB sums a decimal as DECIMAL(38,s): cast to Troupe's type, or a later coalesce or CASE
                // of it and another scale would lose digits there (its width passes 38) and not here.
                String sql = type.id() == TypeId.DECIMAL
                        ? "CAST(sum(" + arg.sql() + ") AS " + DuckDbOracle.sqlType(type) + ")" : "sum(" + arg.sql() + ")";
                Term result = new Term(Expr.sum(arg.expr()), sql, type,
                        arg.type().id() != TypeId.DECIMAL || arg.exactType(), bound,
                        type.id() == TypeId.FLOAT64 ? (exactSum ? arg.dyadic() : -1) : 0, !exactSum);
                return new Call(result.expr(), result.sql(), result);
            }
            default -> {
                // Troupe's avg sums in the argument's own type (an overflow is an error), DuckDB's in 128 bits.
                DataType sumType = arg.type().id() == TypeId.DECIMAL ? DataType.decimal(18, arg.type().scale())
                        : arg.type().id() == TypeId.FLOAT64 ? DataType.FLOAT64 : DataType.INT64;
                if (!Terms.fits(sumType, arg.bound() * Math.max(1, rows))) {
                    return null;
                }
                Term result = new Term(Expr.avg(arg.expr()), "avg(" + arg.sql() + ")", DataType.FLOAT64, true,
                        arg.bound(), -1, true);
                return new Call(result.expr(), result.sql(), result);
            }
        }
    }

    /**
     * The statistical and ordered aggregates: median, percentiles, string_agg, bool_and and bool_or, corr, the covariances
     * and regressions. mode is not drawn: of values equally frequent Troupe gives the first in order and DuckDB
     * any. Where they differ by design the SQL says so: percentile_cont is a DOUBLE in Troupe (PostgreSQL) and of
     * a DECIMAL's type in DuckDB, so DuckDB's reads its argument as a DOUBLE; corr and regr_slope are NULL in
     * Troupe where x is constant (PostgreSQL) and NaN in DuckDB, which the SQL makes NULL.
     */
    /**
     * Whether {@code arg} is a DECIMAL, which the ordered-set aggregates refuse by name past 18 digits (they keep one
     * word a value). The terms' own types do not tell: the engine types a BIGINT among decimals as 19 digits, as
     * DuckDB does, where the terms count its value's digits, so no DECIMAL is drawn for them.
     */
    private static boolean isWide(Term arg) {
        return arg.type().id() == TypeId.DECIMAL;
    }

    private Call ordinalOrMoment(Feature f, List<Term> scope, double rows) {
        switch (f) {
            case MEDIAN -> {
                Term arg = argument(rnd.nextInt(4) == 0 ? Kind.STRING : numericKind(), scope);
                DataType type = arg.kind() == Kind.INTEGER ? DataType.FLOAT64 : arg.type();
                if (type.id() == TypeId.DECIMAL && !arg.exactType() || !Terms.fits(type, 2 * arg.bound())
                        || isWide(arg)) {
                    return null;
                }
                Term result = new Term(Expr.median(arg.expr()), "median(" + arg.sql() + ")", type, true, arg.bound(),
                        -1, type.id() == TypeId.FLOAT64);
                return new Call(result.expr(), result.sql(), result);
            }
            case PERCENTILE_CONT, PERCENTILE_DISC -> {
                boolean cont = f == Feature.PERCENTILE_CONT;
                Kind kind = cont ? numericKind() : Kind.values()[rnd.nextInt(Kind.values().length)];
                if (kind == Kind.INTERVAL) {
                    // percentile_disc refuses an INTERVAL by name (its values are kept one word each).
                    kind = Kind.DATE;
                }
                Term arg = orderedArgument(kind, scope);
                if (arg == null || isWide(arg)) {
                    return null;
                }
                double fraction = FRACTIONS[rnd.nextInt(FRACTIONS.length)];
                boolean ascending = rnd.nextBoolean();
                String order = ascending ? "" : " DESC";
                if (cont) {
                    Expr e = Expr.percentileCont(fraction, ascending ? arg.expr().asc() : arg.expr().desc());
                    String sql = "percentile_cont(" + fraction + ") WITHIN GROUP (ORDER BY CAST(" + arg.sql()
                            + " AS DOUBLE)" + order + ")";
                    Term result = new Term(e, sql, DataType.FLOAT64, true, arg.bound(), -1, true);
                    return new Call(e, sql, result);
                }
                Expr e = Expr.percentileDisc(fraction, ascending ? arg.expr().asc() : arg.expr().desc());
                String sql = "percentile_disc(" + fraction + ") WITHIN GROUP (ORDER BY " + arg.sql() + order + ")";
                return new Call(e, sql, arg.withExpr(e, sql));
            }
            case STRING_AGG -> {
                Term arg = orderedArgument(Kind.STRING, scope);
                if (arg == null) {
                    return null;
                }
                String separator = SEPARATORS.get(rnd.nextInt(SEPARATORS.size()));
                boolean ascending = rnd.nextBoolean();
                Expr e = Expr.stringAgg(arg.expr(), separator, ascending ? arg.expr().asc() : arg.expr().desc());
                String sql = "string_agg(" + arg.sql() + ", " + Terms.stringLiteral(separator).sql() + " ORDER BY "
                        + arg.sql() + (ascending ? "" : " DESC") + ")";
                return new Call(e, sql, Term.plain(e, sql, DataType.VARCHAR));
            }
            case BOOL_AND, BOOL_OR -> {
                Term arg = argument(Kind.BOOLEAN, scope);
                boolean and = f == Feature.BOOL_AND;
                Expr e = and ? Expr.boolAnd(arg.expr()) : Expr.boolOr(arg.expr());
                String sql = (and ? "bool_and(" : "bool_or(") + arg.sql() + ")";
                return new Call(e, sql, Term.plain(e, sql, DataType.BOOLEAN));
            }
            default -> {
                return moment(f, scope, rows);
            }
        }
    }

    /** corr, covar_pop or covar_samp, or one of the regressions, of two numbers: a DOUBLE (regr_count a BIGINT). */
    private Call moment(Feature f, List<Term> scope, double rows) {
        Term y = argument(numericKind(), scope);
        Term x = argument(numericKind(), scope);
        if (y.bound() > MOMENT_BOUND || x.bound() > MOMENT_BOUND) {
            return null;
        }
        String name = switch (f) {
            case CORR -> "corr";
            case COVARIANCE -> rnd.nextBoolean() ? "covar_pop" : "covar_samp";
            default -> REGRESSIONS.get(rnd.nextInt(REGRESSIONS.size()));
        };
        Expr e = switch (name) {
            case "corr" -> Expr.corr(y.expr(), x.expr());
            case "covar_pop" -> Expr.covarPop(y.expr(), x.expr());
            case "covar_samp" -> Expr.covarSamp(y.expr(), x.expr());
            case "regr_slope" -> Expr.regrSlope(y.expr(), x.expr());
            case "regr_intercept" -> Expr.regrIntercept(y.expr(), x.expr());
            case "regr_r2" -> Expr.regrR2(y.expr(), x.expr());
            case "regr_count" -> Expr.regrCount(y.expr(), x.expr());
            case "regr_avgx" -> Expr.regrAvgx(y.expr(), x.expr());
            case "regr_avgy" -> Expr.regrAvgy(y.expr(), x.expr());
            case "regr_sxx" -> Expr.regrSxx(y.expr(), x.expr());
            case "regr_syy" -> Expr.regrSyy(y.expr(), x.expr());
            default -> Expr.regrSxy(y.expr(), x.expr());
        };
        String call = name + "(" + y.sql() + ", " + x.sql() + ")";
        if (name.equals("regr_count")) {
            return new Call(e, call, new Term(e, call, DataType.INT64, true, Math.max(1, rows), 0, false));
        }
        String sql = "(CASE WHEN isnan(" + call + ") THEN NULL ELSE " + call + " END)";
        // Unbounded (a slope over an x that hardly varies): output only.
        return new Call(e, sql, new Term(e, sql, DataType.FLOAT64, true, Double.MAX_VALUE, -1, true));
    }

    /** An argument an aggregate also orders by: over a column, since DuckDB refuses to ORDER BY a literal. */
    private Term orderedArgument(Kind kind, List<Term> scope) {
        Term arg = argument(kind, scope);
        return arg.sql().contains(".k") ? arg : null;
    }

    private Kind numericKind() {
        return new Kind[] {Kind.INTEGER, Kind.DECIMAL, Kind.DOUBLE}[rnd.nextInt(3)];
    }

    /** An exact argument of {@code kind}: a column (mostly) or a computed expression. */
    private Term argument(Kind kind, List<Term> scope) {
        List<Term> candidates = new ArrayList<>();
        for (Term t : Terms.exactOnly(scope)) {
            if (t.kind() == kind) {
                candidates.add(t);
            }
        }
        if (!candidates.isEmpty() && (!exprs.anyFunction() || rnd.nextInt(3) > 0)) {
            return candidates.get(rnd.nextInt(candidates.size()));
        }
        Term t = exprs.of(kind, Terms.exactOnly(scope), rnd.nextInt(3));
        return t.fuzzy() || t.kind() != kind ? exprs.literal(kind, List.of()) : t;
    }

    private static Term countResult(double rows) {
        return new Term(Expr.count(), "count(*)", DataType.INT64, true, Math.max(1, rows), 0, false);
    }

    /** An aggregate's argument: a column (mostly) or a computed expression; numeric when asked. */
    private Term argument(boolean numeric, boolean exactOnly, List<Term> scope) {
        List<Term> usable = exactOnly ? Terms.exactOnly(scope) : scope;
        List<Term> candidates = new ArrayList<>();
        for (Term t : usable) {
            if (!numeric || t.kind().isNumeric()) {
                candidates.add(t);
            }
        }
        if (!candidates.isEmpty() && (!exprs.anyFunction() || rnd.nextInt(3) > 0)) {
            return candidates.get(rnd.nextInt(candidates.size()));
        }
        Kind kind = numeric ? new Kind[] {Kind.INTEGER, Kind.DECIMAL, Kind.DOUBLE}[rnd.nextInt(3)]
                : Kind.values()[rnd.nextInt(Kind.values().length)];
        Term t = exprs.of(kind, usable, rnd.nextInt(3));
        return exactOnly && t.fuzzy() ? exprs.literal(kind, List.of()) : t;
    }
}
