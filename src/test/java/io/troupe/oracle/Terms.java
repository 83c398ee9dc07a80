package io.troupe.oracle;

import io.troupe.operators.expr.Function;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Literal;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * The deterministic half of expression generation: {@link Term} factories for literals and
 * operators, written in both languages at once, and the typing and bounds rules they follow
 * (the brief's arithmetic types; magnitudes that keep every result from overflowing). A factory
 * returns null where the rules forbid the term. {@link RandomExprs} makes the random choices.
 *
 * <p>Stateless and threadsafe.
 */
final class Terms {

    /** Largest magnitudes allowed per result type, with a margin below the real limits. */
    static final double INT32_LIMIT = 2.0e9;
    static final double INT64_LIMIT = 4.0e18;
    static final double DECIMAL_UNSCALED_LIMIT = 1.0e17;
    static final double DOUBLE_LIMIT = 1.0e15;
    /** Largest decimal scale a product may reach (Troupe's hard limit is 18). */
    static final int MAX_PRODUCT_SCALE = 12;

    private Terms() {
    }

    static List<Term> exactOnly(List<Term> scope) {
        List<Term> out = new ArrayList<>();
        for (Term t : scope) {
            if (!t.fuzzy()) {
                out.add(t);
            }
        }
        return out;
    }

    /** An INTEGER: DuckDB types a bare integer literal by its value (-915 a SMALLINT), so its SQL names the type. */
    static Term intLiteral(int v) {
        return new Term(Expr.lit(v), "CAST(" + v + " AS INTEGER)", DataType.INT32, true, Math.abs((double) v), 0, false);
    }

    static Term longLiteral(long v) {
        return new Term(Expr.lit(v), "CAST(" + v + " AS BIGINT)", DataType.INT64, true, Math.abs((double) v), 0, false);
    }

    static Term doubleLiteral(double v) {
        return new Term(Expr.lit(v), "CAST(" + v + " AS DOUBLE)", DataType.FLOAT64, true, Math.abs(v), 2, false);
    }

    static Term decimalLiteral(BigDecimal v) {
        Expr e = Expr.lit(v);
        DataType type = DataType.decimal(Math.max(1, Math.max(v.precision(), v.scale())), v.scale());
        return new Term(e, "CAST('" + v.toPlainString() + "' AS " + DuckDbOracle.sqlType(type) + ")", type, true,
                v.abs().doubleValue(), 0, false);
    }

    static Term stringLiteral(String s) {
        return Term.plain(Expr.lit(s), "'" + s.replace("'", "''") + "'", DataType.VARCHAR);
    }

    static Term dateLiteral(LocalDate d) {
        return Term.plain(Expr.lit(d), "DATE '" + d + "'", DataType.DATE);
    }

    /** A typed NULL. */
    static Term nullOf(DataType type) {
        return new Term(Expr.nullOf(type), "CAST(NULL AS " + DuckDbOracle.sqlType(type) + ")", type, true, 0, 0, false);
    }

    /** {@code a f b} for ADD, SUBTRACT, MULTIPLY; null when the result could overflow. */
    static Term arithmetic(Function f, Term a, Term b) {
        DataType type = arithmeticType(f, a.type(), b.type());
        if (type == null) {
            return null;
        }
        double bound = f == Function.MULTIPLY ? a.bound() * b.bound() : a.bound() + b.bound();
        if (!fits(type, bound)) {
            return null;
        }
        int dyadic = 0;
        if (type.id() == TypeId.FLOAT64) {
            int da = dyadicOf(a);
            int db = dyadicOf(b);
            dyadic = da < 0 || db < 0 ? -1 : f == Function.MULTIPLY ? da + db : Math.max(da, db);
        }
        Expr e;
        String op;
        if (f == Function.ADD) {
            e = a.expr().plus(b.expr());
            op = " + ";
        } else if (f == Function.SUBTRACT) {
            e = a.expr().minus(b.expr());
            op = " - ";
        } else {
            e = a.expr().times(b.expr());
            op = " * ";
        }
        boolean exact = type.id() == TypeId.FLOAT64 || (type.id() != TypeId.DECIMAL && a.exactType() && b.exactType());
        return new Term(e, "(" + a.sql() + op + b.sql() + ")", type, exact, bound, dyadic, a.fuzzy() || b.fuzzy());
    }

    /** The brief's result type of integer/decimal/double arithmetic; null past the decimal scale limit. */
    static DataType arithmeticType(Function f, DataType a, DataType b) {
        if (a.id() == TypeId.FLOAT64 || b.id() == TypeId.FLOAT64) {
            return DataType.FLOAT64;
        }
        if (a.id() == TypeId.DECIMAL || b.id() == TypeId.DECIMAL) {
            DataType x = asDecimal(a);
            DataType y = asDecimal(b);
            if (f == Function.MULTIPLY) {
                int scale = x.scale() + y.scale();
                return scale > MAX_PRODUCT_SCALE ? null
                        : DataType.decimal(Math.min(18, Math.max(scale, x.precision() + y.precision())), scale);
            }
            int scale = Math.max(x.scale(), y.scale());
            int precision = Math.min(18, Math.max(x.precision() - x.scale(), y.precision() - y.scale()) + scale + 1);
            return DataType.decimal(Math.max(precision, scale), scale);
        }
        // The wider of the two, as in PostgreSQL and DuckDB (SMALLINT + SMALLINT a SMALLINT).
        return widerInteger(a, b);
    }

    /** The wider of two integer types: TINYINT &lt; SMALLINT &lt; INTEGER &lt; BIGINT. */
    static DataType widerInteger(DataType a, DataType b) {
        List<TypeId> order = List.of(TypeId.INT8, TypeId.INT16, TypeId.INT32, TypeId.INT64);
        return order.indexOf(a.id()) >= order.indexOf(b.id()) ? a : b;
    }

    static DataType asDecimal(DataType t) {
        return switch (t.id()) {
            case INT32 -> DataType.decimal(10, 0);
            case INT16 -> DataType.decimal(5, 0);
            case INT8 -> DataType.decimal(3, 0);
            case INT64 -> DataType.decimal(18, 0);
            default -> t;
        };
    }

    static boolean fits(DataType type, double bound) {
        return switch (type.id()) {
            case INT32 -> bound <= INT32_LIMIT;
            case INT16 -> bound <= Short.MAX_VALUE;
            case INT8 -> bound <= Byte.MAX_VALUE;
            case INT64 -> bound <= INT64_LIMIT;
            case DECIMAL -> bound * Math.pow(10, type.scale()) <= DECIMAL_UNSCALED_LIMIT;
            case FLOAT64 -> bound <= DOUBLE_LIMIT;
            default -> true;
        };
    }

    /** Fraction bits of a double-valued operand: integers need none, decimals are not dyadic. */
    static int dyadicOf(Term t) {
        return switch (t.type().id()) {
            case INT32, INT64, INT16, INT8 -> 0;
            case DECIMAL -> t.type().scale() == 0 ? 0 : -1;
            default -> t.dyadic();
        };
    }

    static double divisorValue(Term literal) {
        return ((Number) ((Literal) literal.expr()).value()).doubleValue();
    }

    static Term negate(Term a) {
        if (!fits(a.type(), a.bound())) {
            return null;
        }
        return new Term(a.expr().negate(), "(-" + a.sql() + ")", a.type(), a.exactType(), a.bound(), a.dyadic(),
                a.fuzzy());
    }

    /** An integer-valued function of a string or date: length, year, month, day. */
    static Term call(Function f, Term a, double bound) {
        Expr e = switch (f) {
            case LENGTH -> Expr.length(a.expr());
            case EXTRACT_YEAR -> Expr.year(a.expr());
            case EXTRACT_MONTH -> Expr.month(a.expr());
            default -> Expr.day(a.expr());
        };
        String name = f == Function.LENGTH ? "length" : f.symbol();
        // INT32 for the overflow bounds; Troupe may return INT64 (as DuckDB does), so the type is not exact.
        return new Term(e, name + "(" + a.sql() + ")", DataType.INT32, false, bound, 0, false);
    }

    /** {@code CAST(a AS target)} when that cannot fail on a's values; else null. */
    static Term cast(Term a, DataType target) {
        TypeId from = a.type().id();
        boolean numeric = a.type().isNumeric();
        double bound = a.bound() + 1;
        boolean ok = switch (target.id()) {
            case INT32 -> numeric && bound <= INT32_LIMIT;
            case INT64 -> numeric && bound <= INT64_LIMIT;
            case FLOAT64 -> numeric;
            case DECIMAL -> numeric && bound < Math.pow(10, target.precision() - target.scale());
            case VARCHAR -> true;
            case DATE -> from == TypeId.DATE || from == TypeId.VARCHAR || from == TypeId.TIMESTAMP
                    || from == TypeId.TIMESTAMP_TZ;
            case BOOLEAN -> from == TypeId.BOOLEAN || from == TypeId.VARCHAR;
            // Text to a time could fail. Between the times, every conversion: a plan reads an instant's local
            // time in UTC, and the oracle's session runs in UTC.
            case TIMESTAMP, TIMESTAMP_TZ -> from == TypeId.DATE || from == TypeId.TIMESTAMP || from == TypeId.TIMESTAMP_TZ;
            case TIME -> from == TypeId.TIMESTAMP || from == TypeId.TIMESTAMP_TZ || from == TypeId.TIME;
            case INTERVAL -> from == TypeId.INTERVAL;
            // Not drawn as targets: their bounds are not tracked here.
            case INT16, INT8, FLOAT32 -> false;
            // Text to either could fail; BLOB's text differs between the engines (PostgreSQL's hex form).
            case UUID -> from == TypeId.UUID;
            case BLOB -> from == TypeId.BLOB;
        };
        if (!ok) {
            return null;
        }
        int dyadic = target.id() != TypeId.FLOAT64 ? 0 : from == TypeId.FLOAT64 ? a.dyadic() : dyadicOf(a);
        double newBound = target.isNumeric() ? (target.id() == TypeId.FLOAT64 ? a.bound() : bound) : 0;
        return new Term(a.expr().cast(target), "CAST(" + a.sql() + " AS " + DuckDbOracle.sqlType(target) + ")",
                target, true, newBound, dyadic, a.fuzzy());
    }

    static Term stringCall(Function f, Term a) {
        Expr e = f == Function.UPPER ? Expr.upper(a.expr()) : Expr.lower(a.expr());
        return Term.plain(e, f.symbol() + "(" + a.sql() + ")", DataType.VARCHAR);
    }

    static Term logical(Function f, Term a, Term b) {
        Expr e = f == Function.AND ? a.expr().and(b.expr()) : a.expr().or(b.expr());
        return Term.plain(e, "(" + a.sql() + " " + f.symbol() + " " + b.sql() + ")", DataType.BOOLEAN);
    }

    /**
     * A term whose value is one of {@code parts} (CASE results, COALESCE arguments): the widest
     * bound, the coarsest fractions. When the parts' types differ, the result has the common
     * type of {@code first}'s kind (the widest kind among them), known only up to its width.
     */
    static Term merged(Expr e, String sql, Term first, List<Term> parts) {
        double bound = 0;
        int dyadic = 0;
        boolean fuzzy = false;
        boolean sameType = true;
        DataType integer = DataType.INT8;
        int scale = 0;
        for (Term t : parts) {
            bound = Math.max(bound, t.bound());
            int d = first.kind() == Term.Kind.DOUBLE ? dyadicOf(t) : t.dyadic();
            dyadic = dyadic < 0 || d < 0 ? -1 : Math.max(dyadic, d);
            fuzzy |= t.fuzzy();
            sameType &= t.type().equals(first.type()) && t.exactType();
            integer = t.kind() == Term.Kind.INTEGER ? widerInteger(integer, t.type()) : integer;
            scale = Math.max(scale, t.type().id() == TypeId.DECIMAL ? t.type().scale() : 0);
        }
        if (sameType) {
            return new Term(e, sql, first.type(), true, bound, dyadic, fuzzy);
        }
        return switch (first.kind()) {
            case INTEGER -> new Term(e, sql, integer, false, bound, 0, fuzzy);
            case DECIMAL -> new Term(e, sql, DataType.decimal(18, scale), false, bound, 0, fuzzy);
            default -> new Term(e, sql, DataType.FLOAT64, true, bound, dyadic, fuzzy);
        };
    }
}
