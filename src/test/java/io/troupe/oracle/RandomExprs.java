package io.troupe.oracle;

import io.troupe.oracle.Term.Kind;
import io.troupe.operators.expr.Function;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import static io.troupe.oracle.Terms.arithmeticType;
import static io.troupe.oracle.Terms.call;
import static io.troupe.oracle.Terms.cast;
import static io.troupe.oracle.Terms.dateLiteral;
import static io.troupe.oracle.Terms.decimalLiteral;
import static io.troupe.oracle.Terms.divisorValue;
import static io.troupe.oracle.Terms.doubleLiteral;
import static io.troupe.oracle.Terms.exactOnly;
import static io.troupe.oracle.Terms.fits;
import static io.troupe.oracle.Terms.intLiteral;
import static io.troupe.oracle.Terms.logical;
import static io.troupe.oracle.Terms.longLiteral;
import static io.troupe.oracle.Terms.merged;
import static io.troupe.oracle.Terms.negate;
import static io.troupe.oracle.Terms.nullOf;
import static io.troupe.oracle.Terms.stringCall;
import static io.troupe.oracle.Terms.stringLiteral;

/**
 * Generates random scalar expressions as {@link Term}s: a Troupe {@code Expr} and the DuckDB SQL
 * that computes the same value, typed by the brief's rules. Uses only the functions the
 * {@link FeatureSet} allows, and keeps clear of the places where the engines may legitimately
 * differ: no division or modulo by zero (divisors are non-zero literals), no overflow (every
 * number carries a magnitude bound), no order-dependent float rounding in predicates.
 *
 * <p>Integer division renders as DuckDB's {@code //} (DuckDB's {@code /} on integers yields a
 * double); every other division as {@code /}, which yields a double in both engines.
 *
 * <p>Not threadsafe (it draws from one Random).
 */
final class RandomExprs {

    private static final List<String> WORDS = List.of(
            "", "a", "A", "ab", "abc", "b", "x_y", "50%", "é", "été", "日本", "zebra", "Zebra", " a", "hello world",
            "aaa", "Ab", "a😀b", "a common prefix of thirty-two bytes: 1");
    private static final String PATTERN_CHARS = "abAxé日 😀";

    private final Random rnd;
    private final FeatureSet fs;
    private final TemporalExprs temporal;
    private final RegistryExprs registry;

    RandomExprs(Random rnd, FeatureSet fs) {
        this.rnd = rnd;
        this.fs = fs;
        this.temporal = new TemporalExprs(rnd, this);
        this.registry = new RegistryExprs(rnd, this);
    }

    // ------------------------------------------------------------------ entry points

    /** An expression of {@code kind} over {@code scope}, nested at most {@code depth} deep. */
    Term of(Kind kind, List<Term> scope, int depth) {
        // Only doubles may be fuzzy: anything else computed from a fuzzy value could flip.
        List<Term> usable = kind == Kind.DOUBLE ? scope : exactOnly(scope);
        if (depth <= 0 || rnd.nextInt(4) == 0) {
            return leaf(kind, usable);
        }
        List<Supplier<Term>> options = options(kind, usable, depth);
        for (int attempt = 0; attempt < 4 && !options.isEmpty(); attempt++) {
            Term t = options.get(rnd.nextInt(options.size())).get();
            if (t != null) {
                return t;
            }
        }
        return leaf(kind, usable);
    }

    /** A predicate over the non-fuzzy terms of {@code scope}. */
    Term predicate(List<Term> scope, int depth) {
        return of(Kind.BOOLEAN, exactOnly(scope), depth);
    }

    /** An expression of a random kind, favouring kinds {@code scope} has columns of. */
    Term any(List<Term> scope, int depth) {
        Kind kind = !scope.isEmpty() && rnd.nextInt(3) > 0
                ? scope.get(rnd.nextInt(scope.size())).kind()
                : Kind.values()[rnd.nextInt(Kind.values().length)];
        return of(kind, scope, depth);
    }

    /** True when some function is enabled, so that computed expressions are more than literals. */
    boolean anyFunction() {
        return !fs.functions().isEmpty();
    }

    /** A column of {@code kind} from {@code scope} (mostly) or a literal. */
    Term leaf(Kind kind, List<Term> scope) {
        List<Term> columns = new ArrayList<>();
        for (Term t : scope) {
            if (t.kind() == kind) {
                columns.add(t);
            }
        }
        if (!columns.isEmpty() && rnd.nextInt(4) > 0) {
            return columns.get(rnd.nextInt(columns.size()));
        }
        return literal(kind, scope);
    }

    // ------------------------------------------------------------------ literals

    /** A literal of {@code kind}, often within the range of a column of that kind in scope. */
    Term literal(Kind kind, List<Term> scope) {
        double near = 0;
        for (Term t : scope) {
            if (t.kind() == kind && t.bound() > near && rnd.nextBoolean()) {
                near = t.bound();
            }
        }
        switch (kind) {
            case INTEGER -> {
                long range = near > 0 && rnd.nextBoolean() ? (long) Math.min(near, 1e9) : 12;
                long v = (long) ((rnd.nextDouble() * 2 - 1) * range);
                return v == (int) v && rnd.nextInt(3) > 0 ? intLiteral((int) v) : longLiteral(v);
            }
            case DECIMAL -> {
                int scale = rnd.nextInt(4);
                long range = near > 0 && rnd.nextBoolean() ? (long) Math.min(near * Math.pow(10, scale), 1e12) : 999;
                return decimalLiteral(BigDecimal.valueOf((long) ((rnd.nextDouble() * 2 - 1) * range), scale));
            }
            case DOUBLE -> {
                long range = near > 0 && rnd.nextBoolean() ? (long) Math.min(near * 4, 1e12) : 40;
                return doubleLiteral((long) ((rnd.nextDouble() * 2 - 1) * range) / 4.0);
            }
            case STRING -> {
                return stringLiteral(WORDS.get(rnd.nextInt(WORDS.size())));
            }
            case DATE -> {
                LocalDate d = rnd.nextInt(6) == 0 ? LocalDate.of(1970, 1, 1).plusDays(rnd.nextInt(20000))
                        : LocalDate.of(2000, 1, 1).plusDays(rnd.nextInt(80) - 10);
                return dateLiteral(d);
            }
            case BOOLEAN -> {
                boolean b = rnd.nextBoolean();
                return Term.plain(Expr.lit(b), b ? "TRUE" : "FALSE", DataType.BOOLEAN);
            }
            default -> {
                return temporal.literal(kind);
            }
        }
    }

    /** A literal whose type is exactly {@code type}, or null when no literal has that type. */
    private Term literalOfType(DataType type, List<Term> scope) {
        switch (type.id()) {
            case INT32 -> {
                int v = rnd.nextInt(25) - 12;
                return intLiteral(v);
            }
            case INT64 -> {
                return longLiteral(rnd.nextInt(25) - 12);
            }
            case DECIMAL -> {
                if (type.precision() > 6) {
                    return null;
                }
                // A literal's type is DECIMAL(digits, scale): exactly the type's digits make the type.
                long low = RandomTables.pow10(type.precision() - 1);
                long unscaled = low + (long) (rnd.nextDouble() * (9 * low - 1));
                return decimalLiteral(BigDecimal.valueOf(rnd.nextBoolean() ? unscaled : -unscaled, type.scale()));
            }
            default -> {
                return literal(Kind.of(type), scope);
            }
        }
    }

    // ------------------------------------------------------------------ options per kind

    private List<Supplier<Term>> options(Kind kind, List<Term> scope, int depth) {
        List<Supplier<Term>> o = new ArrayList<>();
        int d = depth - 1;
        if (kind.isNumeric()) {
            for (Function f : List.of(Function.ADD, Function.SUBTRACT, Function.MULTIPLY)) {
                if (fs.has(f)) {
                    o.add(() -> randomArithmetic(f, kind, scope, d));
                }
            }
            if (fs.has(Function.DIVIDE)) {
                o.add(() -> divide(kind, scope, d));
            }
            if (fs.has(Function.MODULO)) {
                o.add(() -> modulo(kind, scope, d));
            }
            if (fs.has(Function.NEGATE)) {
                o.add(() -> negate(of(kind, scope, d)));
            }
            if (fs.has(Function.CAST)) {
                o.add(() -> castToKind(kind, scope, d));
            }
            if (kind != Kind.INTEGER) {
                o.add(() -> round(of(kind, scope, d)));
            }
        }
        if (kind == Kind.INTEGER) {
            if (fs.has(Function.LENGTH)) {
                o.add(() -> call(Function.LENGTH, of(Kind.STRING, scope, d), 64));
            }
            if (fs.has(Function.EXTRACT_YEAR)) {
                o.add(() -> call(Function.EXTRACT_YEAR, of(Kind.DATE, scope, d), 9999));
            }
            if (fs.has(Function.EXTRACT_MONTH)) {
                o.add(() -> call(Function.EXTRACT_MONTH, of(Kind.DATE, scope, d), 12));
            }
            if (fs.has(Function.EXTRACT_DAY)) {
                o.add(() -> call(Function.EXTRACT_DAY, of(Kind.DATE, scope, d), 31));
            }
        }
        if (kind == Kind.STRING) {
            if (fs.has(Function.UPPER)) {
                o.add(() -> stringCall(Function.UPPER, of(Kind.STRING, scope, d)));
            }
            if (fs.has(Function.LOWER)) {
                o.add(() -> stringCall(Function.LOWER, of(Kind.STRING, scope, d)));
            }
            if (fs.has(Function.SUBSTRING)) {
                o.add(() -> substring(of(Kind.STRING, scope, d)));
            }
            if (fs.has(Function.CONCAT)) {
                o.add(() -> concatenation(Function.CONCAT, List.of(of(Kind.STRING, scope, d),
                        of(Kind.STRING, scope, d))));
            }
            if (fs.has(Function.CONCAT_FUNCTION)) {
                o.add(() -> {
                    List<Term> parts = new ArrayList<>();
                    for (int k = rnd.nextInt(3); k >= 0; k--) {
                        parts.add(of(Kind.STRING, scope, d));
                    }
                    return concatenation(Function.CONCAT_FUNCTION, parts);
                });
            }
            if (fs.has(Function.CAST)) {
                o.add(() -> castToVarchar(scope, d));
            }
        }
        if (!kind.isNumeric() && kind != Kind.STRING && fs.has(Function.CAST)) {
            o.add(() -> castThroughText(kind, scope, d));
        }
        for (Function shift : List.of(Function.ADD_DAYS, Function.ADD_MONTHS)) {
            if (kind == Kind.DATE && fs.has(shift)) {
                o.add(() -> dateShift(shift, scope, d));
            }
        }
        if (kind == Kind.DATE && fs.has(Function.CAST)) {
            o.add(() -> {
                LocalDate date = LocalDate.of(2000, 1, 1).plusDays(rnd.nextInt(80) - 10);
                return Term.plain(Expr.lit(date.toString()).cast(DataType.DATE), "CAST('" + date + "' AS DATE)",
                        DataType.DATE);
            });
        }
        if (kind == Kind.BOOLEAN) {
            addPredicateOptions(o, scope, d);
        }
        if (anyFunction()) {
            temporal.addOptions(o, kind, scope, d);
            registry.addOptions(o, kind, scope, d);
            o.add(() -> variadic(rnd.nextBoolean() ? "greatest" : "least", kind, scope, d));
        }
        if (fs.has(Function.CASE)) {
            o.add(() -> caseWhen(kind, scope, d));
        }
        if (fs.has(Function.COALESCE)) {
            o.add(() -> coalesce(kind, scope, d));
        }
        return o;
    }

    /**
     * A date moved by a literal count of days (DuckDB: {@code date + integer}) or months ({@code date +
     * to_months(n)} is a TIMESTAMP there: cast back to DATE); month ends clamp alike in both.
     */
    private Term dateShift(Function f, List<Term> scope, int d) {
        Term date = of(Kind.DATE, scope, d);
        boolean days = f == Function.ADD_DAYS;
        int n = days ? rnd.nextInt(2001) - 1000 : rnd.nextInt(241) - 120;
        Expr e = days ? Expr.addDays(date.expr(), Expr.lit(n)) : Expr.addMonths(date.expr(), Expr.lit(n));
        String sql = days ? "(" + date.sql() + " + " + n + ")" : "CAST(" + date.sql() + " + to_months(" + n + ") AS DATE)";
        return Term.plain(e, sql, DataType.DATE);
    }

    private void addPredicateOptions(List<Supplier<Term>> o, List<Term> scope, int d) {
        for (Function f : List.of(Function.EQ, Function.NE, Function.LT, Function.LE, Function.GT, Function.GE)) {
            if (fs.has(f)) {
                o.add(() -> compare(f, scope, d));
            }
        }
        if (fs.has(Function.AND)) {
            o.add(() -> logical(Function.AND, of(Kind.BOOLEAN, scope, d), of(Kind.BOOLEAN, scope, d)));
        }
        if (fs.has(Function.OR)) {
            o.add(() -> logical(Function.OR, of(Kind.BOOLEAN, scope, d), of(Kind.BOOLEAN, scope, d)));
        }
        if (fs.has(Function.NOT)) {
            o.add(() -> {
                Term a = of(Kind.BOOLEAN, scope, d);
                return Term.plain(a.expr().not(), "(NOT " + a.sql() + ")", DataType.BOOLEAN);
            });
        }
        if (fs.has(Function.IS_NULL)) {
            o.add(() -> {
                Term a = any(scope, d);
                return Term.plain(a.expr().isNull(), "(" + a.sql() + " IS NULL)", DataType.BOOLEAN);
            });
        }
        if (fs.has(Function.IS_NOT_NULL)) {
            o.add(() -> {
                Term a = any(scope, d);
                return Term.plain(a.expr().isNotNull(), "(" + a.sql() + " IS NOT NULL)", DataType.BOOLEAN);
            });
        }
        if (fs.has(Function.IN)) {
            o.add(() -> in(scope, d));
        }
        if (fs.has(Function.BETWEEN)) {
            o.add(() -> between(scope, d));
        }
        if (fs.has(Function.LIKE)) {
            o.add(() -> like(of(Kind.STRING, scope, d)));
        }
    }

    // ------------------------------------------------------------------ arithmetic

    private Term randomArithmetic(Function f, Kind kind, List<Term> scope, int d) {
        Term a;
        Term b;
        if (kind == Kind.INTEGER) {
            a = of(Kind.INTEGER, scope, d);
            b = of(Kind.INTEGER, scope, d);
        } else {
            // One operand of the kind, the other of the kind or a narrower one (integer op decimal -> decimal ...).
            a = of(kind, scope, d);
            b = of(narrowerOrSame(kind), scope, d);
            if (rnd.nextBoolean()) {
                Term t = a;
                a = b;
                b = t;
            }
        }
        return Terms.arithmetic(f, a, b);
    }

    private Kind narrowerOrSame(Kind kind) {
        if (kind == Kind.DOUBLE) {
            return new Kind[] {Kind.INTEGER, Kind.DECIMAL, Kind.DOUBLE, Kind.DOUBLE}[rnd.nextInt(4)];
        }
        return rnd.nextBoolean() ? Kind.INTEGER : Kind.DECIMAL;
    }

    /** Division by a non-zero literal: {@code //} between integers, else a double {@code /}. */
    private Term divide(Kind kind, List<Term> scope, int d) {
        if (kind == Kind.INTEGER) {
            Term a = of(Kind.INTEGER, scope, d);
            Term divisor = nonZeroIntLiteral();
            DataType type = arithmeticType(Function.ADD, a.type(), divisor.type());
            if (!fits(type, a.bound())) {
                return null;
            }
            return new Term(a.expr().div(divisor.expr()), "(" + a.sql() + " // " + divisor.sql() + ")", type,
                    a.exactType(), a.bound(), 0, a.fuzzy());
        }
        if (kind == Kind.DECIMAL) {
            return null;
        }
        // A double quotient: at least one side DECIMAL or FLOAT64.
        Term a = of(new Kind[] {Kind.INTEGER, Kind.DECIMAL, Kind.DOUBLE}[rnd.nextInt(3)], scope, d);
        Term divisor = a.kind() == Kind.INTEGER || rnd.nextBoolean() ? nonZeroFractionLiteral() : nonZeroIntLiteral();
        double bound = a.bound() / Math.abs(divisorValue(divisor));
        if (bound > Terms.DOUBLE_LIMIT) {
            return null;
        }
        return new Term(a.expr().div(divisor.expr()), "(" + a.sql() + " / " + divisor.sql() + ")", DataType.FLOAT64,
                true, bound, -1, a.fuzzy());
    }

    private Term modulo(Kind kind, List<Term> scope, int d) {
        Term a = of(kind == Kind.DECIMAL && rnd.nextBoolean() ? Kind.INTEGER : kind, scope, d);
        // Also keeps MIN_VALUE % -1 out, which DuckDB calls an overflow and Java answers 0.
        if (a.fuzzy() || !fits(a.type(), a.bound())) {
            return null;
        }
        Term m = switch (kind) {
            case INTEGER -> nonZeroIntLiteral();
            case DECIMAL -> a.kind() == Kind.INTEGER || rnd.nextBoolean()
                    ? nonZeroDecimalLiteral() : nonZeroIntLiteral();
            default -> nonZeroDoubleLiteral();
        };
        if (!fits(arithmeticType(Function.ADD, a.type(), m.type()), a.bound())) {
            return null;
        }
        // A divisor of a finer scale rescales the dividend: past DuckDB's 38 digits DuckDB answers a
        // DOUBLE, Troupe a DECIMAL. A sum is 38 digits there (DECIMAL(38), or a HUGEINT of integers)
        // and 18 in Troupe (DECIMAL(18), BIGINT), so no BIGINT or DECIMAL dividend may be rescaled.
        boolean wideThere = a.type().id() == TypeId.DECIMAL || a.type().id() == TypeId.INT64;
        int scale = a.type().id() == TypeId.DECIMAL ? a.type().scale() : 0;
        if (wideThere && m.type().id() == TypeId.DECIMAL && m.type().scale() > scale) {
            return null;
        }
        DataType type = arithmeticType(Function.ADD, a.type(), m.type());
        double bound = Math.min(a.bound(), Math.abs(divisorValue(m)));
        int dyadic = kind == Kind.DOUBLE ? (a.dyadic() < 0 ? -1 : Math.max(a.dyadic(), 2)) : 0;
        return new Term(a.expr().mod(m.expr()), "(" + a.sql() + " % " + m.sql() + ")", type,
                a.exactType() || kind == Kind.DOUBLE, bound, dyadic, a.fuzzy());
    }

    private Term nonZeroIntLiteral() {
        int v = 1 + rnd.nextInt(9);
        return rnd.nextInt(4) == 0 ? longLiteral(rnd.nextBoolean() ? v : -v) : intLiteral(rnd.nextBoolean() ? v : -v);
    }

    private Term nonZeroDoubleLiteral() {
        double v = (1 + rnd.nextInt(20)) / 4.0;
        return doubleLiteral(rnd.nextBoolean() ? v : -v);
    }

    private Term nonZeroFractionLiteral() {
        return rnd.nextBoolean() ? nonZeroDoubleLiteral() : nonZeroDecimalLiteral();
    }

    private Term nonZeroDecimalLiteral() {
        long unscaled = 1 + rnd.nextInt(99);
        return decimalLiteral(BigDecimal.valueOf(rnd.nextBoolean() ? unscaled : -unscaled, 1 + rnd.nextInt(2)));
    }

    private Term round(Term a) {
        if (a.fuzzy() || !fits(a.type(), a.bound() + 1)) {
            return null;
        }
        if (a.kind() == Kind.DOUBLE) {
            int digits = rnd.nextInt(3);
            return new Term(Expr.round(a.expr(), digits), "round(" + a.sql() + ", " + digits + ")", DataType.FLOAT64,
                    true, a.bound() + 1, digits == 0 ? 0 : -1, false);
        }
        // DECIMAL: round to at most its scale; Troupe and DuckDB may differ in the result's precision.
        int digits = Math.min(a.type().scale(), 2);
        return new Term(Expr.round(a.expr(), digits), "round(" + a.sql() + ", " + digits + ")", a.type(), false,
                a.bound() + 1, 0, a.fuzzy());
    }

    // ------------------------------------------------------------------ casts

    private Term castToKind(Kind kind, List<Term> scope, int d) {
        if (rnd.nextInt(4) == 0) {
            return castThroughText(kind, scope, d);
        }
        Term a = of(new Kind[] {Kind.INTEGER, Kind.DECIMAL, Kind.DOUBLE}[rnd.nextInt(3)], scope, d);
        DataType target = switch (kind) {
            case INTEGER -> rnd.nextBoolean() ? DataType.INT32 : DataType.INT64;
            case DOUBLE -> DataType.FLOAT64;
            default -> decimalFor(a.bound());
        };
        return target == null || (a.fuzzy() && target.id() != TypeId.FLOAT64) ? null : cast(a, target);
    }

    /**
     * A value of {@code kind} cast to VARCHAR and parsed back (to a type of the same kind, maybe
     * another decimal scale): the text each engine writes must be text it reads.
     */
    private Term castThroughText(Kind kind, List<Term> scope, int d) {
        Term a = of(kind == Kind.DOUBLE ? numericKind() : kind, scope, d);
        if (a.fuzzy() || !a.exactType()) {
            return null;
        }
        DataType target = switch (kind) {
            case INTEGER -> a.type().id() == TypeId.INT32 || rnd.nextBoolean() ? DataType.INT64 : DataType.INT32;
            case DECIMAL -> decimalFor(a.bound());
            case DOUBLE -> DataType.FLOAT64;
            default -> a.type();
        };
        Term text = cast(a, DataType.VARCHAR);
        // The parsed value is a's (maybe rounded to the target's scale): a's bounds, checked as a cast's.
        Term asNumber = target == null || text == null ? null : cast(a, target);
        if (asNumber == null) {
            return null;
        }
        return new Term(text.expr().cast(target), "CAST(" + text.sql() + " AS " + DuckDbOracle.sqlType(target) + ")",
                target, true, asNumber.bound(), asNumber.dyadic(), false);
    }

    /** A decimal type that holds values up to {@code bound} (after rounding), or null. */
    private DataType decimalFor(double bound) {
        int scale = rnd.nextInt(5);
        int digits = 1;
        while (Math.pow(10, digits) <= bound + 1) {
            digits++;
        }
        int precision = scale + digits + rnd.nextInt(3);
        return precision > 18 ? null : DataType.decimal(precision, scale);
    }

    private Term castToVarchar(List<Term> scope, int d) {
        Kind from = Kind.values()[rnd.nextInt(Kind.values().length)];
        Term a = of(from, scope, d);
        // Only exact types: a decimal's text shows its scale, which Troupe may choose differently.
        // Not DECIMAL(p,p): DuckDB prints those without the leading zero ('-.5'), Troupe with it.
        // A double plus 0.0: its text shows the sign of a zero ('-0.0'), and a group or DISTINCT of 0.0 and
        // -0.0 (one value in SQL) shows whichever it met first, in either engine; -0.0 + 0.0 is 0.0.
        boolean allFraction = a.type().id() == TypeId.DECIMAL && a.type().precision() == a.type().scale();
        Term unsigned = a.type().id() != TypeId.FLOAT64 ? a : new Term(a.expr().plus(Expr.lit(0.0)),
                "(" + a.sql() + " + CAST(0.0 AS DOUBLE))", a.type(), a.exactType(), a.bound(), a.dyadic(), a.fuzzy());
        return a.exactType() && !a.fuzzy() && !allFraction ? cast(unsigned, DataType.VARCHAR) : null;
    }

    // ------------------------------------------------------------------ strings

    private Term substring(Term a) {
        // Also starts at or before 0 and negative lengths, where DuckDB has its own rules.
        int start = rnd.nextInt(5) == 0 ? -3 + rnd.nextInt(4) : 1 + rnd.nextInt(4);
        int length = rnd.nextInt(6) == 0 ? -2 + rnd.nextInt(2) : rnd.nextInt(5);
        return Term.plain(Expr.substring(a.expr(), start, length),
                "substring(" + a.sql() + ", " + start + ", " + length + ")", DataType.VARCHAR);
    }

    /** {@code a || b} (NULL when either is) or {@code concat(...)} (NULLs skipped), the same in DuckDB. */
    private static Term concatenation(Function f, List<Term> parts) {
        List<Expr> exprs = new ArrayList<>();
        List<String> sql = new ArrayList<>();
        for (Term t : parts) {
            exprs.add(t.expr());
            sql.add(t.sql());
        }
        return f == Function.CONCAT
                ? Term.plain(exprs.get(0).concatenate(exprs.get(1)), "(" + sql.get(0) + " || " + sql.get(1) + ")",
                        DataType.VARCHAR)
                : Term.plain(Expr.concat(exprs.toArray(Expr[]::new)), "concat(" + String.join(", ", sql) + ")",
                        DataType.VARCHAR);
    }

    private Term like(Term a) {
        StringBuilder p = new StringBuilder();
        int n = rnd.nextInt(5);
        for (int i = 0; i < n; i++) {
            int c = rnd.nextInt(10);
            int[] chars = PATTERN_CHARS.codePoints().toArray();
            p.appendCodePoint(c < 3 ? '%' : c < 5 ? '_' : chars[rnd.nextInt(chars.length)]);
        }
        String pattern = p.toString();
        return Term.plain(a.expr().like(pattern), "(" + a.sql() + " LIKE '" + pattern.replace("'", "''") + "')",
                DataType.BOOLEAN);
    }

    // ------------------------------------------------------------------ predicates

    private Term compare(Function f, List<Term> scope, int d) {
        Kind kind = comparableKind(scope);
        Term a = of(kind, scope, d);
        Kind other = kind.isNumeric() && rnd.nextInt(3) == 0 ? numericKind() : kind;
        Term b = rnd.nextInt(5) < 3 ? literal(other, scope) : of(other, scope, d);
        if (rnd.nextBoolean()) {
            Term t = a;
            a = b;
            b = t;
        }
        Expr e = switch (f) {
            case EQ -> a.expr().eq(b.expr());
            case NE -> a.expr().ne(b.expr());
            case LT -> a.expr().lt(b.expr());
            case LE -> a.expr().le(b.expr());
            case GT -> a.expr().gt(b.expr());
            default -> a.expr().ge(b.expr());
        };
        return Term.plain(e, "(" + a.sql() + " " + f.symbol() + " " + b.sql() + ")", DataType.BOOLEAN);
    }

    /** A kind to compare: mostly one the scope has columns of. */
    private Kind comparableKind(List<Term> scope) {
        if (!scope.isEmpty() && rnd.nextInt(5) > 0) {
            return scope.get(rnd.nextInt(scope.size())).kind();
        }
        return Kind.values()[rnd.nextInt(Kind.values().length)];
    }

    private Kind numericKind() {
        return new Kind[] {Kind.INTEGER, Kind.DECIMAL, Kind.DOUBLE}[rnd.nextInt(3)];
    }

    private Term in(List<Term> scope, int d) {
        Kind kind = comparableKind(scope);
        Term a = of(kind, scope, d);
        int n = 1 + rnd.nextInt(4);
        Expr[] candidates = new Expr[n];
        StringBuilder sql = new StringBuilder("(").append(a.sql()).append(" IN (");
        for (int i = 0; i < n; i++) {
            Term c = rnd.nextInt(8) == 0 ? nullOf(basicType(kind, a)) : rnd.nextInt(4) == 0 ? of(kind, scope, d - 1)
                    : literal(kind, scope);
            candidates[i] = c.expr();
            sql.append(i == 0 ? "" : ", ").append(c.sql());
        }
        return Term.plain(a.expr().in(candidates), sql.append("))").toString(), DataType.BOOLEAN);
    }

    /** A type of {@code kind} for a typed NULL next to {@code a}. */
    private static DataType basicType(Kind kind, Term a) {
        return a.exactType() ? a.type() : switch (kind) {
            case INTEGER -> DataType.INT64;
            case DECIMAL -> DataType.decimal(18, 2);
            default -> a.type();
        };
    }

    private Term between(List<Term> scope, int d) {
        Kind kind = comparableKind(scope);
        if (kind == Kind.BOOLEAN) {
            kind = Kind.INTEGER;
        }
        Term a = of(kind, scope, d);
        Term low = rnd.nextInt(3) > 0 ? literal(kind, scope) : of(kind, scope, d);
        Term high = rnd.nextInt(3) > 0 ? literal(kind, scope) : of(kind, scope, d);
        return Term.plain(a.expr().between(low.expr(), high.expr()),
                "(" + a.sql() + " BETWEEN " + low.sql() + " AND " + high.sql() + ")", DataType.BOOLEAN);
    }

    // ------------------------------------------------------------------ CASE and COALESCE

    /** A first result whose type is certain, so the other arms can match it exactly. */
    private Term firstArm(Kind kind, List<Term> scope, int d) {
        Term t = of(kind, scope, d);
        if (t.exactType()) {
            return t;
        }
        Term cast = fs.has(Function.CAST) ? cast(t, t.type()) : null;
        return cast != null ? cast : leafExact(kind, scope);
    }

    private Term leafExact(Kind kind, List<Term> scope) {
        for (int i = 0; i < 4; i++) {
            Term t = leaf(kind, scope);
            if (t.exactType()) {
                return t;
            }
        }
        return literal(kind, scope);
    }

    /** A term of exactly {@code type}: a column of it, a literal of it, a typed NULL or a cast. */
    private Term sameType(DataType type, List<Term> scope, int d) {
        List<Term> columns = new ArrayList<>();
        for (Term t : scope) {
            if (t.type().equals(type) && t.exactType()) {
                columns.add(t);
            }
        }
        int choice = rnd.nextInt(6);
        if (choice < 2 && !columns.isEmpty()) {
            return columns.get(rnd.nextInt(columns.size()));
        }
        if (choice < 4 && fs.has(Function.CAST) && d > 0) {
            Term cast = cast(of(Kind.of(type), scope, d), type);
            if (cast != null) {
                return cast;
            }
        }
        if (choice < 5) {
            Term lit = literalOfType(type, scope);
            if (lit != null && lit.type().equals(type)) {
                return lit;
            }
        }
        return nullOf(type);
    }

    /**
     * Another CASE result or COALESCE argument: mostly of exactly the first one's type, now and
     * then of a narrower numeric type (INT32 next to INT64, an integer next to a decimal or a
     * double), which both engines promote to a common type.
     */
    private Term otherArm(Term first, List<Term> scope, int d) {
        if (first.kind().isNumeric() && rnd.nextInt(3) == 0) {
            Term arm = of(first.kind() == Kind.INTEGER ? Kind.INTEGER : narrowerOrSame(first.kind()), scope, d);
            if (first.kind() != Kind.DECIMAL) {
                return arm;
            }
            // The common type is a DECIMAL(18, largest scale): every arm's values must fit it.
            int scale = Math.max(first.type().scale(), arm.type().id() == TypeId.DECIMAL ? arm.type().scale() : 0);
            if (fits(DataType.decimal(18, scale), Math.max(first.bound(), arm.bound()))) {
                return arm;
            }
        }
        return sameType(first.type(), scope, d);
    }

    private Term caseWhen(Kind kind, List<Term> scope, int d) {
        Term first = firstArm(kind, scope, d);
        int arms = 1 + rnd.nextInt(3);
        List<Term> conditions = new ArrayList<>();
        List<Term> results = new ArrayList<>();
        conditions.add(predicate(scope, d));
        results.add(first);
        for (int i = 1; i < arms; i++) {
            conditions.add(predicate(scope, d));
            results.add(otherArm(first, scope, d));
        }
        Term otherwise = rnd.nextInt(10) < 7 ? otherArm(first, scope, d) : null;
        Expr.CaseBuilder builder = Expr.caseWhen(conditions.get(0).expr(), results.get(0).expr());
        StringBuilder sql = new StringBuilder("(CASE");
        for (int i = 0; i < arms; i++) {
            if (i > 0) {
                builder = builder.when(conditions.get(i).expr(), results.get(i).expr());
            }
            sql.append(" WHEN ").append(conditions.get(i).sql()).append(" THEN ").append(results.get(i).sql());
        }
        Expr e;
        if (otherwise != null) {
            results.add(otherwise);
            e = builder.otherwise(otherwise.expr());
            sql.append(" ELSE ").append(otherwise.sql());
        } else {
            e = builder.end();
        }
        return merged(e, sql.append(" END)").toString(), first, results);
    }

    private Term coalesce(Kind kind, List<Term> scope, int d) {
        return variadic("coalesce", kind, scope, d);
    }

    /**
     * {@code coalesce}, {@code greatest} or {@code least} of two or three values of one kind (NULLs skipped, in
     * PostgreSQL and DuckDB alike). Not of an INTERVAL for greatest and least: of '1 month' and '30 days' either
     * engine may answer either.
     */
    private Term variadic(String f, Kind kind, List<Term> scope, int d) {
        if (kind == Kind.INTERVAL && !f.equals("coalesce")) {
            return null;
        }
        Term first = firstArm(kind, scope, d);
        int n = 2 + rnd.nextInt(2);
        List<Term> args = new ArrayList<>();
        args.add(first);
        for (int i = 1; i < n; i++) {
            args.add(otherArm(first, scope, d));
        }
        Expr[] exprs = new Expr[n];
        StringBuilder sql = new StringBuilder(f).append('(');
        for (int i = 0; i < n; i++) {
            exprs[i] = args.get(i).expr();
            sql.append(i == 0 ? "" : ", ").append(args.get(i).sql());
        }
        Expr e = f.equals("coalesce") ? Expr.coalesce(exprs) : Expr.call(f, exprs);
        return merged(e, sql.append(")").toString(), first, args);
    }

}
