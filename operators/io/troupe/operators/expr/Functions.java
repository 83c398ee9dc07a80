package io.troupe.operators.expr;

import io.troupe.config.TimeZones;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

/**
 * Types each {@link Function} over its bound arguments and builds its physical kernel; the
 * kernels are the package's other classes, one per family. The named functions of the
 * {@link FunctionRegistry} bind there. Type errors name the expression and
 * the types ({@link ExpressionTypeException}); runtime errors name the expression and, for a
 * failed cast, the value ({@link io.troupe.operators.exec.QueryFailedException}).
 *
 * <h2>Semantics</h2>
 * DuckDB is the reference, and {@code ExpressionsVersusDuckDbTest} checks it over random data.
 * <ul>
 *   <li>Arithmetic: result types in {@link Arithmetic}. Integer overflow fails; DECIMAL % works
 *       as in DuckDB.</li>
 *   <li>Comparison ({@link Comparison}): numbers after promotion, exactly; VARCHAR in code point
 *       order; DATE, BOOLEAN with themselves.</li>
 *   <li>AND, OR, NOT three-valued; IS [NOT] NULL never NULL; IN and BETWEEN with SQL's NULL rules.
 *       The right side of AND/OR, each CASE branch and each COALESCE argument run only at the
 *       rows that need them, so a guarded division cannot fail.</li>
 *   <li>CASE and COALESCE results share one type after numeric promotion ({@link TypeRules#commonType}).</li>
 *   <li>CAST: {@link CastExpression}, {@link TextParser}, {@link TextFormat}. FLOAT64 to an integer
 *       rounds half to even, as DuckDB does (it uses {@code nearbyint}); DECIMAL rescaling and
 *       FLOAT64 to DECIMAL round half away from zero.</li>
 *   <li>LIKE: {@code %} and {@code _}, case-sensitive; a backslash escapes the character after it, as in
 *       PostgreSQL (DuckDB has no escape character unless ESCAPE names one).</li>
 *   <li>substring, length count code points; substring follows DuckDB for start &lt;= 0 and for
 *       negative lengths; length is INT64 (as DuckDB).</li>
 *   <li>{@code a || b} is NULL where either is; {@code concat(...)} skips NULLs ({@link Concatenation}).</li>
 * </ul>
 *
 * <h2>Where Troupe differs from DuckDB, on purpose</h2>
 * <ul>
 *   <li>Integer / truncates toward zero (DuckDB's {@code //}); DuckDB's {@code /} gives a FLOAT64.</li>
 *   <li>/ and % by zero fail also for FLOAT64 (DuckDB: Infinity or NaN).</li>
 *   <li>{@code MIN % -1} is 0 (DuckDB fails it as an overflow of the division).</li>
 *   <li>DECIMAL holds at most 18 digits: a result past them fails as an overflow where DuckDB
 *       would widen to DECIMAL(38); a product's scale above 18 is a type error.</li>
 *   <li>FLOAT64 compares by IEEE rules: NaN equals nothing (DuckDB: NaN = NaN, and it sorts last).</li>
 *   <li>year, month, day are INT32 (DuckDB: BIGINT).</li>
 *   <li>upper and lower map single code points, locale-independently: {@code upper('ß')} stays
 *       {@code ß} (DuckDB: {@code ẞ}).</li>
 *   <li>VARCHAR to a number takes no hex or digit separators ({@code '0x10'}, {@code '1_000'});
 *       VARCHAR to DATE takes no trailing time.</li>
 * </ul>
 *
 * <h2>Evaluation</h2>
 * A call whose arguments are all literals is folded into a literal at bind time, unless it
 * fails (a division by zero then fails when a row reaches it, as any other would).
 *
 * <p>Stateless; threadsafe.
 */
public final class Functions {

    /** One live row and no columns: where constant calls are folded. */
    private static final Batch ONE_ROW = Batch.of(1);

    private Functions() {
    }

    /**
     * @param args     bound arguments; a null entry is an untyped NULL (only the ELSE of a CASE)
     * @param castType the target of CAST, null otherwise
     * @param text     the call's SQL-like text, for error messages
     * @throws ExpressionTypeException when the arguments do not fit the function, naming the
     *         expression and the types
     */
    public static Expression bind(Function function, List<Expression> args, DataType castType, String text) {
        checkArity(function, args, text);
        if (function != Function.CASE) {
            requireTyped(args, text);
        }
        return switch (function) {
            case ADD, SUBTRACT, MULTIPLY, DIVIDE, MODULO -> Arithmetic.bind(function, args.get(0), args.get(1), text);
            case NEGATE -> fold(Arithmetic.negate(args.get(0), text), args);
            case EQ, NE, LT, LE, GT, GE -> Comparison.bind(function, args.get(0), args.get(1), text);
            case AND, OR -> Conjunction.bind(function, args.get(0), args.get(1), text);
            case NOT -> NotExpression.bind(args.get(0), text);
            case IS_NULL, IS_NOT_NULL -> fold(new NullTest(args.get(0), function == Function.IS_NULL, text), args);
            case IN -> InList.bind(args.get(0), args.subList(1, args.size()), text);
            case BETWEEN -> Between.bind(args.get(0), args.get(1), args.get(2), text);
            case LIKE -> LikeExpression.bind(args.get(0), args.get(1), text);
            case CASE -> CaseExpression.bind(args, text);
            case COALESCE -> Coalesce.bind(args, text);
            case CAST -> bindCast(args, castType, text);
            case SUBSTRING -> Substring.bind(args.get(0), args.get(1), args.get(2), text);
            case UPPER, LOWER -> CaseMapping.bind(args.get(0), function == Function.UPPER, text);
            case LENGTH -> Length.bind(args.get(0), text);
            case EXTRACT_YEAR, EXTRACT_MONTH, EXTRACT_DAY -> DatePart.bind(function, args.get(0), text);
            case DATE_PART -> DatePart.bindNamed(args.get(0), args.get(1), text);
            case ADD_DAYS, ADD_MONTHS, ADD_MICROS -> DateShift.bind(function, args.get(0), args.get(1), text);
            case ADD_INTERVAL -> TimeArithmetic.addInterval(args.get(0), args.get(1),
                    args.size() == 3 ? zone(args.get(2), text) : null, text);
            case CONCAT, CONCAT_FUNCTION -> Concatenation.bind(args, function == Function.CONCAT_FUNCTION, text);
        };
    }

    /** @throws ExpressionTypeException when an argument is an untyped NULL (a null entry) */
    static void requireTyped(List<Expression> args, String text) {
        for (Expression arg : args) {
            if (arg == null) {
                throw new ExpressionTypeException("an untyped NULL needs a type in " + text + ": use Expr.nullOf(type)");
            }
        }
    }

    /** CAST's args: the value, and the time zone of a conversion between local and absolute time (UTC if none). */
    private static Expression bindCast(List<Expression> args, DataType target, String text) {
        if (target == null) {
            throw new ExpressionTypeException("CAST needs a target type in " + text);
        }
        Expression value = args.get(0);
        ZoneId zone = args.size() == 2 ? zone(args.get(1), text) : ZoneOffset.UTC;
        Expression cast = CastExpression.of(value, target, zone, text);
        // A no-op CAST still names itself, so that EXPLAIN and errors show the user's text.
        return cast == value && value instanceof LiteralExpression lit
                ? new LiteralExpression(lit.value(), lit.type(), text) : cast;
    }

    /** The zone a VARCHAR literal names, for CAST and add_interval. */
    private static ZoneId zone(Expression arg, String text) {
        if (!(arg instanceof LiteralExpression z) || z.type().id() != TypeId.VARCHAR || z.isNull()) {
            throw new ExpressionTypeException("a time zone must be a VARCHAR literal, got " + arg + " in " + text);
        }
        try {
            return TimeZones.zone((String) z.value());
        } catch (IllegalArgumentException e) {
            throw new ExpressionTypeException(e.getMessage() + " in " + text);
        }
    }

    private static void checkArity(Function function, List<Expression> args, String text) {
        int n = args.size();
        boolean ok = switch (function) {
            case NEGATE, NOT, IS_NULL, IS_NOT_NULL, UPPER, LOWER, LENGTH, EXTRACT_YEAR, EXTRACT_MONTH,
                    EXTRACT_DAY -> n == 1;
            case CAST -> n == 1 || n == 2;
            case ADD_INTERVAL -> n == 2 || n == 3;
            case BETWEEN, SUBSTRING -> n == 3;
            case IN -> n >= 2;
            case CASE -> n >= 3 && n % 2 == 1;
            case COALESCE, CONCAT_FUNCTION -> n >= 1;
            default -> n == 2;
        };
        if (!ok) {
            throw new ExpressionTypeException(function.symbol() + " cannot take " + n + " argument"
                    + (n == 1 ? "" : "s") + " in " + text);
        }
    }

    /**
     * {@code e} as a literal when all its {@code inputs} are literals (null entries, untyped
     * NULLs, count as literals): evaluated once on a one-row batch. A call that fails there
     * (division by zero, a bad cast) is kept, to fail when a row reaches it.
     */
    static Expression fold(Expression e, List<Expression> inputs) {
        if (e instanceof LiteralExpression) {
            return e;
        }
        for (Expression input : inputs) {
            if (input != null && !(input instanceof LiteralExpression)) {
                return e;
            }
        }
        try {
            ColumnVector v = e.evaluate(ONE_ROW);
            return LiteralExpression.of(v, 0, e.type(), e.toString());
        } catch (QueryFailedException failed) {
            return e;
        }
    }

    static Expression fold(Expression e, Expression... inputs) {
        return fold(e, Arrays.asList(inputs));
    }
}
