package io.troupe.oracle;

import io.troupe.config.TroupeSettings;
import io.troupe.actors.api.Troupe;
import io.troupe.operators.expr.Function;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.types.DataType;

import java.time.LocalDate;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;

/**
 * Which parts of the plan API the generator may use. Operators and functions land one by one
 * (until then they throw "not implemented yet"), so by default each is probed with a tiny plan
 * and used once it runs: the differential test stays green on what exists and covers each
 * feature as soon as it is merged, with no edit here. {@code -Dtroupe.features=all} uses
 * everything (a missing feature then fails the run); a comma-separated list of {@link Feature}
 * and {@link Function} names uses just those.
 *
 * <p>Immutable and threadsafe.
 */
record FeatureSet(Set<Feature> features, Set<Function> functions) {

    /** The operators beyond scan, alias, project, filter, limit, union all and series, which always work. */
    enum Feature {
        JOIN_INNER, JOIN_LEFT, JOIN_RIGHT, JOIN_FULL, JOIN_SEMI, JOIN_ANTI, JOIN_RIGHT_SEMI, JOIN_RIGHT_ANTI,
        COUNT_STAR, COUNT, COUNT_DISTINCT, SUM, MIN, MAX, AVG,
        MEDIAN, PERCENTILE_CONT, PERCENTILE_DISC, STRING_AGG, BOOL_AND, BOOL_OR, CORR, COVARIANCE, REGRESSION,
        SORT, TOP_N, DISTINCT;

        /** A minimal plan that runs only when this feature is implemented. */
        Plan probe() {
            Plan a = Plan.series("a", 1, 3);
            Plan b = Plan.series("b", 2, 4);
            List<Expr> keys = List.of(col("a"));
            return switch (this) {
                case JOIN_INNER -> a.join(b, JoinType.INNER, col("a").eq(col("b")));
                case JOIN_LEFT -> a.join(b, JoinType.LEFT, col("a").eq(col("b")));
                case JOIN_RIGHT -> a.join(b, JoinType.RIGHT, col("a").eq(col("b")));
                case JOIN_FULL -> a.join(b, JoinType.FULL, col("a").eq(col("b")));
                case JOIN_SEMI -> a.join(b, JoinType.SEMI, col("a").eq(col("b")));
                case JOIN_ANTI -> a.join(b, JoinType.ANTI, col("a").eq(col("b")));
                case JOIN_RIGHT_SEMI -> a.join(b, JoinType.RIGHT_SEMI, col("a").eq(col("b")));
                case JOIN_RIGHT_ANTI -> a.join(b, JoinType.RIGHT_ANTI, col("a").eq(col("b")));
                case COUNT_STAR -> a.aggregate(keys, Expr.count().as("n"));
                case COUNT -> a.aggregate(keys, Expr.count(col("a")).as("n"));
                case COUNT_DISTINCT -> a.aggregate(keys, Expr.countDistinct(col("a")).as("n"));
                case SUM -> a.aggregate(keys, Expr.sum(col("a")).as("n"));
                case MIN -> a.aggregate(keys, Expr.min(col("a")).as("n"));
                case MAX -> a.aggregate(keys, Expr.max(col("a")).as("n"));
                case AVG -> a.aggregate(keys, Expr.avg(col("a")).as("n"));
                case MEDIAN -> a.aggregate(keys, Expr.median(col("a")).as("n"));
                case PERCENTILE_CONT -> a.aggregate(keys, Expr.percentileCont(0.5, col("a").asc()).as("n"));
                case PERCENTILE_DISC -> a.aggregate(keys, Expr.percentileDisc(0.5, col("a").asc()).as("n"));
                case STRING_AGG -> a.aggregate(keys, Expr.stringAgg(col("a").cast(DataType.VARCHAR), ",").as("n"));
                case BOOL_AND -> a.aggregate(keys, Expr.boolAnd(col("a").gt(lit(1))).as("n"));
                case BOOL_OR -> a.aggregate(keys, Expr.boolOr(col("a").gt(lit(1))).as("n"));
                case CORR -> a.aggregate(keys, Expr.corr(col("a"), col("a")).as("n"));
                case COVARIANCE -> a.aggregate(keys, Expr.covarSamp(col("a"), col("a")).as("n"));
                case REGRESSION -> a.aggregate(keys, Expr.regrSlope(col("a"), col("a")).as("n"));
                case SORT -> a.sort(col("a").desc());
                case TOP_N -> a.sort(col("a").desc()).limit(2, 1);
                case DISTINCT -> a.distinct();
            };
        }
    }

    FeatureSet {
        features = Set.copyOf(features);
        functions = Set.copyOf(functions);
    }

    static FeatureSet all() {
        return new FeatureSet(EnumSet.allOf(Feature.class), EnumSet.allOf(Function.class));
    }

    static FeatureSet none() {
        return new FeatureSet(EnumSet.noneOf(Feature.class), EnumSet.noneOf(Function.class));
    }

    /** "detect" (or blank): probe; "all": everything; else a comma-separated list of names. */
    static FeatureSet fromSpec(String spec) {
        String s = spec == null ? "" : spec.trim();
        if (s.isEmpty() || s.equalsIgnoreCase("detect")) {
            return detect();
        }
        if (s.equalsIgnoreCase("all")) {
            return all();
        }
        EnumSet<Feature> features = EnumSet.noneOf(Feature.class);
        EnumSet<Function> functions = EnumSet.noneOf(Function.class);
        for (String name : s.split(",")) {
            String n = name.trim().toUpperCase(Locale.ROOT);
            if (n.isEmpty()) {
                continue;
            }
            try {
                features.add(Feature.valueOf(n));
            } catch (IllegalArgumentException notAFeature) {
                functions.add(Function.valueOf(n));
            }
        }
        return new FeatureSet(features, functions);
    }

    /** Runs each probe in a fresh Troupe; a feature is on unless its probe says "not implemented". */
    static FeatureSet detect() {
        EnumSet<Feature> features = EnumSet.noneOf(Feature.class);
        EnumSet<Function> functions = EnumSet.noneOf(Function.class);
        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0))) {
            for (Feature f : Feature.values()) {
                if (implemented(troupe, f.probe())) {
                    features.add(f);
                }
            }
            for (Function f : Function.values()) {
                if (implemented(troupe, Plan.series("x", 1, 3).project(probe(f).as("p")))) {
                    functions.add(f);
                }
            }
        }
        return new FeatureSet(features, functions);
    }

    private static boolean implemented(Troupe troupe, Plan probe) {
        try {
            troupe.execute(probe);
            return true;
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t.getMessage() != null && t.getMessage().contains("not implemented")) {
                    return false;
                }
            }
            // Implemented but failing: keep it on so the differential test shows the failure.
            return true;
        }
    }

    /** A minimal call of {@code f} over the INT64 column x. */
    private static Expr probe(Function f) {
        Expr x = col("x");
        return switch (f) {
            case ADD -> x.plus(lit(1L));
            case SUBTRACT -> x.minus(lit(1L));
            case MULTIPLY -> x.times(lit(2L));
            case DIVIDE -> x.div(lit(2L));
            case MODULO -> x.mod(lit(2L));
            case NEGATE -> x.negate();
            case EQ -> x.eq(lit(2L));
            case NE -> x.ne(lit(2L));
            case LT -> x.lt(lit(2L));
            case LE -> x.le(lit(2L));
            case GT -> x.gt(lit(2L));
            case GE -> x.ge(lit(2L));
            case AND -> lit(true).and(lit(false));
            case OR -> lit(true).or(lit(false));
            case NOT -> lit(true).not();
            case IS_NULL -> x.isNull();
            case IS_NOT_NULL -> x.isNotNull();
            case IN -> x.in(lit(1L), lit(3L));
            case BETWEEN -> x.between(lit(1L), lit(2L));
            case LIKE -> lit("abc").like("a%");
            case CASE -> Expr.caseWhen(lit(true), lit(1)).otherwise(lit(2));
            case COALESCE -> Expr.coalesce(x, lit(0L));
            case CAST -> x.cast(DataType.FLOAT64);
            case SUBSTRING -> Expr.substring(lit("abc"), 1, 2);
            case UPPER -> Expr.upper(lit("abc"));
            case LOWER -> Expr.lower(lit("ABC"));
            case LENGTH -> Expr.length(lit("abc"));
            case EXTRACT_YEAR -> Expr.year(lit(LocalDate.of(2020, 3, 4)));
            case EXTRACT_MONTH -> Expr.month(lit(LocalDate.of(2020, 3, 4)));
            case EXTRACT_DAY -> Expr.day(lit(LocalDate.of(2020, 3, 4)));
            case DATE_PART -> Expr.datePart("dow", lit(LocalDate.of(2020, 3, 4)));
            case ADD_DAYS -> Expr.addDays(lit(LocalDate.of(2020, 3, 4)), lit(-10));
            case ADD_MONTHS -> Expr.addMonths(lit(LocalDate.of(2020, 3, 31)), lit(11L));
            case ADD_MICROS -> Expr.addMicros(lit(java.time.LocalDateTime.of(2020, 3, 31, 10, 0)), lit(11L));
            case ADD_INTERVAL -> Expr.addInterval(lit(java.time.Instant.parse("2024-03-09T12:00:00Z")),
                    lit(io.troupe.operators.types.Interval.ofDays(1)), "America/New_York");
            case CONCAT -> lit("ab").concatenate(lit("c"));
            case CONCAT_FUNCTION -> Expr.concat(lit("ab"), Expr.nullOf(DataType.VARCHAR));
        };
    }

    boolean has(Feature f) {
        return features.contains(f);
    }

    boolean has(Function f) {
        return functions.contains(f);
    }

    boolean hasAny(Function... fs) {
        for (Function f : fs) {
            if (functions.contains(f)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "operators " + (features.isEmpty() ? "[]" : EnumSet.copyOf(features))
                + ", functions " + (functions.isEmpty() ? "[]" : EnumSet.copyOf(functions));
    }
}
