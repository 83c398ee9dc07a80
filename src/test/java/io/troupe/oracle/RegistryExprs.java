package io.troupe.oracle;

import io.troupe.operators.plan.Expr;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;
import io.troupe.oracle.Term.Kind;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * The registry's numeric and string functions for {@link RandomExprs}, in both languages: abs, sign, ceil, floor,
 * trunc, sqrt, cbrt, exp, ln, log10, log2, sin, atan, atan2, degrees, radians, power, gcd, bit_count, bitand,
 * bitor, xor, bitnot, isfinite; lpad, rpad, left, right, reverse, replace, repeat, ltrim, rtrim, btrim (DuckDB's
 * trim of characters), split_part, translate, concat_ws, strpos, ascii, starts_with, ends_with, md5, sha256, regexp_matches, regexp_replace and regexp_extract.
 *
 * <p>Where the engines differ by design (docs/sql/functions-*.md) the generator keeps clear:
 * <ul>
 *   <li>a domain error (sqrt or ln of a negative, log of zero) fails in Troupe, as in PostgreSQL, where DuckDB
 *       answers NaN or NULL: their arguments are made positive;</li>
 *   <li>split_part with an empty delimiter keeps the string whole in Troupe (PostgreSQL) and splits it into
 *       characters in DuckDB, and a field of 0 fails in Troupe: delimiters are not empty, fields not 0;</li>
 *   <li>an empty fill leaves lpad's string as it is in Troupe and fails in DuckDB: fills are not empty;</li>
 *   <li>a regular expression's alternation is leftmost-first in Troupe (java.util.regex) and in DuckDB (RE2),
 *       longest in PostgreSQL: patterns hold no {@code |} (and nothing else Troupe refuses);</li>
 *   <li>gcd and sign take their argument's type in Troupe (PostgreSQL) and BIGINT and TINYINT in DuckDB: both
 *       exact numbers, compared by value.</li>
 * </ul>
 * Transcendental functions may differ in the last bit between Java and DuckDB's C library: fuzzy.
 *
 * <p>Not threadsafe (it draws from the generator's Random).
 */
final class RegistryExprs {

    private static final List<String> FILLS = List.of("x", "ab", "é", " ", "日本", "😀");
    private static final List<String> PIECES = List.of("a", "b", "ab", " ", "é", "x_y", "%", "日", "😀", "zz");
    private static final List<String> PATTERNS = List.of("a", "a+", "[ab]", "b.", "^a", "é", "[^a ]+", "a*b?",
            "[0-9]", "\\s", "(a)(b)?", ".$");
    private static final List<String> REPLACEMENTS = List.of("X", "", "-", "éé");

    private final Random rnd;
    private final RandomExprs exprs;

    RegistryExprs(Random rnd, RandomExprs exprs) {
        this.rnd = rnd;
        this.exprs = exprs;
    }

    /** Adds the calls of {@code kind} this class makes to {@code o}. */
    void addOptions(List<Supplier<Term>> o, Kind kind, List<Term> scope, int d) {
        switch (kind) {
            case INTEGER -> {
                o.add(() -> abs(Kind.INTEGER, scope, d));
                o.add(() -> sign(scope, d));
                o.add(() -> gcd(scope, d));
                o.add(() -> {
                    Term s = string(scope, d);
                    Term sub = piece();
                    return call("strpos", DataType.INT64, 64, s, sub);
                });
                o.add(() -> call("ascii", DataType.INT32, 0x10FFFF, string(scope, d)));
                o.add(() -> bitwise(scope, d));
                o.add(() -> {
                    // Of a value's magnitude: DuckDB's sum of BIGINTs is a HUGEINT, whose negatives have 128 bits.
                    Term a = abs(Kind.INTEGER, scope, d);
                    return a == null ? null : call("bit_count", DataType.INT32, 64, a);
                });
            }
            case DECIMAL -> {
                o.add(() -> abs(Kind.DECIMAL, scope, d));
                o.add(() -> rounding(Kind.DECIMAL, scope, d));
            }
            case DOUBLE -> {
                o.add(() -> abs(Kind.DOUBLE, scope, d));
                o.add(() -> rounding(Kind.DOUBLE, scope, d));
                o.add(() -> transcendental(scope, d));
            }
            case BOOLEAN -> {
                o.add(() -> {
                    String f = rnd.nextBoolean() ? "starts_with" : "ends_with";
                    return call(f, DataType.BOOLEAN, 0, string(scope, d), piece());
                });
                o.add(() -> call("regexp_matches", DataType.BOOLEAN, 0, string(scope, d), pattern()));
                o.add(() -> call("isfinite", DataType.BOOLEAN, 0, exprs.of(Kind.DOUBLE, scope, d)));
            }
            case STRING -> addStringOptions(o, scope, d);
            default -> {
            }
        }
    }

    private void addStringOptions(List<Supplier<Term>> o, List<Term> scope, int d) {
        o.add(() -> {
            String f = rnd.nextBoolean() ? "lpad" : "rpad";
            Term fill = Terms.stringLiteral(FILLS.get(rnd.nextInt(FILLS.size())));
            return call(f, DataType.VARCHAR, 0, string(scope, d), Terms.intLiteral(rnd.nextInt(9)), fill);
        });
        o.add(() -> call(rnd.nextBoolean() ? "left" : "right", DataType.VARCHAR, 0, string(scope, d),
                Terms.intLiteral(rnd.nextInt(9) - 3)));
        o.add(() -> call("reverse", DataType.VARCHAR, 0, string(scope, d)));
        o.add(() -> call("replace", DataType.VARCHAR, 0, string(scope, d), piece(), piece()));
        o.add(() -> call("repeat", DataType.VARCHAR, 0, string(scope, d), Terms.intLiteral(rnd.nextInt(5) - 1)));
        o.add(() -> {
            Term s = string(scope, d);
            int which = rnd.nextInt(3);
            String f = new String[] {"ltrim", "rtrim", "btrim"}[which];
            if (rnd.nextBoolean()) {
                Term t = call(f, DataType.VARCHAR, 0, s);
                return which == 2 ? t.withExpr(t.expr(), "trim(" + s.sql() + ")") : t;
            }
            Term chars = piece();
            Term t = call(f, DataType.VARCHAR, 0, s, chars);
            // DuckDB has no btrim: its trim takes the characters.
            return which == 2 ? t.withExpr(t.expr(), "trim(" + s.sql() + ", " + chars.sql() + ")") : t;
        });
        o.add(() -> {
            int field = rnd.nextInt(7) - 2;
            return call("split_part", DataType.VARCHAR, 0, string(scope, d), piece(),
                    Terms.intLiteral(field == 0 ? 1 : field));
        });
        o.add(() -> call("translate", DataType.VARCHAR, 0, string(scope, d), piece(), piece()));
        o.add(() -> {
            List<Term> args = new ArrayList<>();
            args.add(rnd.nextInt(4) == 0 ? string(scope, d) : piece());
            for (int i = rnd.nextInt(3); i >= 0; i--) {
                args.add(string(scope, d));
            }
            return call("concat_ws", DataType.VARCHAR, 0, args.toArray(Term[]::new));
        });
        o.add(() -> call(rnd.nextBoolean() ? "md5" : "sha256", DataType.VARCHAR, 0, string(scope, d)));
        o.add(() -> rnd.nextBoolean()
                ? call("regexp_replace", DataType.VARCHAR, 0, string(scope, d), pattern(), replacement())
                : call("regexp_replace", DataType.VARCHAR, 0, string(scope, d), pattern(), replacement(),
                        Terms.stringLiteral("g")));
        o.add(() -> call("regexp_extract", DataType.VARCHAR, 0, string(scope, d), pattern()));
    }

    private Term string(List<Term> scope, int d) {
        return exprs.of(Kind.STRING, scope, d);
    }

    private Term piece() {
        return Terms.stringLiteral(PIECES.get(rnd.nextInt(PIECES.size())));
    }

    private Term pattern() {
        return Terms.stringLiteral(PATTERNS.get(rnd.nextInt(PATTERNS.size())));
    }

    private Term replacement() {
        return Terms.stringLiteral(REPLACEMENTS.get(rnd.nextInt(REPLACEMENTS.size())));
    }

    /** {@code f(args)} in both languages; {@code bound} for a number. */
    private static Term call(String f, DataType type, double bound, Term... args) {
        Expr[] exprs = new Expr[args.length];
        StringBuilder sql = new StringBuilder(f).append('(');
        boolean fuzzy = false;
        for (int i = 0; i < args.length; i++) {
            exprs[i] = args[i].expr();
            sql.append(i == 0 ? "" : ", ").append(args[i].sql());
            fuzzy |= args[i].fuzzy();
        }
        return new Term(Expr.call(f, exprs), sql.append(')').toString(), type, true, bound, 0, fuzzy);
    }

    /**
     * abs of a number: its own type, but an INTEGER of a SMALLINT or TINYINT in Troupe, where DuckDB keeps the
     * narrow type (and overflows adding two): its text for DuckDB casts such an argument to INTEGER.
     */
    private Term abs(Kind kind, List<Term> scope, int d) {
        Term a = exprs.of(kind, scope, d);
        if (!Terms.fits(a.type(), a.bound())) {
            return null;
        }
        boolean narrow = a.type().id() == TypeId.INT8 || a.type().id() == TypeId.INT16;
        return new Term(Expr.call("abs", a.expr()), narrow ? "abs(CAST(" + a.sql() + " AS INTEGER))"
                : "abs(" + a.sql() + ")", narrow ? DataType.INT32 : a.type(), a.exactType(), a.bound(), a.dyadic(),
                a.fuzzy());
    }

    /** sign: -1, 0 or 1 (an INTEGER in Troupe, a TINYINT in DuckDB, whose text casts it). */
    private Term sign(List<Term> scope, int d) {
        Term a = exprs.of(new Kind[] {Kind.INTEGER, Kind.DECIMAL, Kind.DOUBLE}[rnd.nextInt(3)], scope, d);
        return a.fuzzy() ? null : new Term(Expr.call("sign", a.expr()), "CAST(sign(" + a.sql() + ") AS INTEGER)",
                DataType.INT32, false, 1, 0, false);
    }

    /** gcd of two integers (their type in Troupe, BIGINT in DuckDB). */
    private Term gcd(List<Term> scope, int d) {
        Term a = exprs.of(Kind.INTEGER, scope, d);
        Term b = exprs.of(Kind.INTEGER, scope, d);
        DataType type = Terms.arithmeticType(io.troupe.operators.expr.Function.ADD, a.type(), b.type());
        double bound = Math.max(a.bound(), b.bound());
        if (!Terms.fits(type, bound)) {
            return null;
        }
        return new Term(Expr.call("gcd", a.expr(), b.expr()), "gcd(" + a.sql() + ", " + b.sql() + ")", type, false,
                bound, 0, false);
    }

    /**
     * bitand, bitor or xor of two integers (DuckDB's {@code &}, {@code |} and xor), or bitnot of one (DuckDB's
     * {@code ~}): of the wider type in both, over values that fit it as two's complement.
     */
    private Term bitwise(List<Term> scope, int d) {
        Term a = exprs.of(Kind.INTEGER, scope, d);
        Term b = exprs.of(Kind.INTEGER, scope, d);
        DataType type = Terms.arithmeticType(io.troupe.operators.expr.Function.ADD, a.type(), b.type());
        // The result of a | b or a ^ b is below twice the larger magnitude.
        double bound = 2 * Math.max(a.bound(), b.bound()) + 1;
        if (!Terms.fits(type, bound)) {
            return null;
        }
        String f = new String[] {"bitand", "bitor", "xor", "bitnot"}[rnd.nextInt(4)];
        if (f.equals("bitnot")) {
            return new Term(Expr.call(f, a.expr()), "(~" + a.sql() + ")", a.type(), a.exactType(), a.bound() + 1, 0,
                    false);
        }
        String sql = f.equals("xor") ? "xor(" + a.sql() + ", " + b.sql() + ")"
                : "(" + a.sql() + (f.equals("bitand") ? " & " : " | ") + b.sql() + ")";
        return new Term(Expr.call(f, a.expr(), b.expr()), sql, type, a.exactType() && b.exactType(), bound, 0,
                false);
    }

    /** ceil, floor or trunc: a DECIMAL's of scale 0 (its precision may differ), a DOUBLE's whole. */
    private Term rounding(Kind kind, List<Term> scope, int d) {
        Term a = exprs.of(kind, scope, d);
        if (a.fuzzy() || !Terms.fits(a.type(), a.bound() + 1)) {
            return null;
        }
        String f = new String[] {"ceil", "floor", "trunc"}[rnd.nextInt(3)];
        DataType type = kind == Kind.DOUBLE ? DataType.FLOAT64 : DataType.decimal(18, 0);
        return new Term(Expr.call(f, a.expr()), f + "(" + a.sql() + ")", type, kind == Kind.DOUBLE, a.bound() + 1,
                0, false);
    }

    /** A function of libm: sqrt, cbrt, exp, ln, log10, sin, atan or degrees, over an argument in its domain. */
    private Term transcendental(List<Term> scope, int d) {
        Term a = exprs.of(new Kind[] {Kind.INTEGER, Kind.DECIMAL, Kind.DOUBLE}[rnd.nextInt(3)], scope, d);
        if (a.bound() > 1e12) {
            return null;
        }
        String f = new String[] {"sqrt", "cbrt", "exp", "ln", "log10", "log2", "sin", "atan", "degrees", "radians",
            "power", "atan2"}[rnd.nextInt(12)];
        String arg;
        Expr e;
        double bound;
        switch (f) {
            case "power" -> {
                int n = rnd.nextInt(4);
                e = Expr.call(f, a.expr(), Expr.lit(n));
                arg = a.sql() + ", " + n;
                bound = Math.pow(Math.max(1, a.bound()), n);
            }
            case "atan2" -> {
                Term x = exprs.of(Kind.DOUBLE, scope, d);
                e = Expr.call(f, a.expr(), x.expr());
                arg = a.sql() + ", " + x.sql();
                bound = 4;
            }
            case "sqrt", "ln", "log10", "log2" -> {
                // Positive: abs(a) + 1 (PostgreSQL's domain errors, DuckDB's NaN and NULL, stay out), of an INTEGER
                // for DuckDB, which keeps abs of a TINYINT a TINYINT (abs(127) + 1 overflows there).
                e = Expr.call(f, Expr.call("abs", a.expr()).plus(Expr.lit(1)));
                boolean narrow = a.type().id() == TypeId.INT8 || a.type().id() == TypeId.INT16;
                arg = narrow ? "abs(CAST(" + a.sql() + " AS INTEGER)) + 1" : "abs(" + a.sql() + ") + 1";
                bound = f.equals("sqrt") ? Math.sqrt(a.bound() + 1) : Math.log(a.bound() + 1) + 1;
            }
            case "exp" -> {
                if (a.bound() > 600) {
                    return null;
                }
                e = Expr.call(f, a.expr());
                arg = a.sql();
                bound = Math.exp(a.bound());
            }
            default -> {
                e = Expr.call(f, a.expr());
                arg = a.sql();
                bound = f.equals("degrees") ? a.bound() * 60 : f.equals("cbrt") ? Math.cbrt(a.bound()) + 1 : 2;
            }
        }
        return bound > Terms.DOUBLE_LIMIT ? null
                : new Term(e, f + "(" + arg + ")", DataType.FLOAT64, true, bound, -1, true);
    }
}
