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
            Feature.SUM, Feature.MIN, Feature.MAX, Feature.AVG);

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
                return new Call(e, name + "(" + arg.sql() + ")", arg);
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
