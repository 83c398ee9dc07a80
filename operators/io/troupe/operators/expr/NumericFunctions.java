package io.troupe.operators.expr;

import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;

import java.util.List;
import java.util.function.DoublePredicate;
import java.util.function.DoubleUnaryOperator;
import java.util.function.LongBinaryOperator;

import static io.troupe.operators.expr.Signature.ResultType.argument;
import static io.troupe.operators.expr.Signature.ResultType.fixed;

/**
 * The numeric functions of the {@link FunctionRegistry}, documented for users in
 * docs/sql/functions-numeric.md and checked against DuckDB by {@code NumericFunctionsTest}: rounding,
 * logarithms and powers, trigonometry, integer arithmetic (mod, gcd, lcm, factorial) and bits,
 * random(). Result types are DuckDB's, or PostgreSQL's where they differ (gcd and lcm keep their
 * arguments' type); where DuckDB answers NaN or Infinity for a value outside a function's domain, the
 * query fails with PostgreSQL's message, and an integer result past its type fails as an overflow (its
 * test and page say which).
 *
 * <p>Stateless; threadsafe.
 */
final class NumericFunctions {

    private static final double LN_2 = Math.log(2);

    /** mod(a, b): the kernel of {@code a % b}, whose types its signatures repeat. */
    private static final Signature.Kernel MODULO = (args, type, text) -> Arithmetic.bind(Function.MODULO, args.get(0),
            args.get(1), text);

    /** mod of two decimals: their common type, which is the type {@code %} gives them ({@link Arithmetic}). */
    private static final Signature.ResultType DECIMAL_MODULO = args -> TypeRules.commonType(List.of(
            args.get(0).type(), args.get(1).type()));

    /** 0! to 20!, every factorial a BIGINT holds. */
    private static final long[] FACTORIALS = new long[21];

    static {
        FACTORIALS[0] = 1;
        for (int i = 1; i < FACTORIALS.length; i++) {
            FACTORIALS[i] = FACTORIALS[i - 1] * i;
        }
    }

    private NumericFunctions() {
    }

    static List<ScalarFunction> all() {
        return List.of(
                ScalarFunction.of("ceil",
                        Signature.of(fixed(DataType.FLOAT64), DoubleUnary.of(Math::ceil), ParamType.FLOAT64),
                        Signature.of(args -> DecimalFloorCeil.type(args.get(0).type()), DecimalFloorCeil.kernel(true),
                                ParamType.DECIMAL),
                        Signature.of(args -> DecimalFloorCeil.type(args.get(0).type()),
                                WideDecimalFunction.kernel(WideDecimalFunction.Op.CEIL), ParamType.WIDE_DECIMAL))
                        .withAliases("ceiling"),
                ScalarFunction.of("floor",
                        Signature.of(fixed(DataType.FLOAT64), DoubleUnary.of(Math::floor), ParamType.FLOAT64),
                        Signature.of(args -> DecimalFloorCeil.type(args.get(0).type()), DecimalFloorCeil.kernel(false),
                                ParamType.DECIMAL),
                        Signature.of(args -> DecimalFloorCeil.type(args.get(0).type()),
                                WideDecimalFunction.kernel(WideDecimalFunction.Op.FLOOR), ParamType.WIDE_DECIMAL)),
                ScalarFunction.of("sign",
                        Signature.of(fixed(DataType.INT32), Sign.KERNEL, ParamType.INT32),
                        Signature.of(fixed(DataType.INT32), Sign.KERNEL, ParamType.INT64),
                        Signature.of(fixed(DataType.INT32), Sign.KERNEL, ParamType.DECIMAL),
                        Signature.of(fixed(DataType.INT32), Sign.KERNEL, ParamType.FLOAT64),
                        Signature.of(fixed(DataType.INT32), WideDecimalFunction.kernel(WideDecimalFunction.Op.SIGN),
                                ParamType.WIDE_DECIMAL)),
                ScalarFunction.of("abs",
                        Signature.of(argument(0), ExactUnary.of(Math::absExact), ParamType.INT32),
                        Signature.of(argument(0), ExactUnary.of(Math::absExact), ParamType.INT64),
                        Signature.of(argument(0), ExactUnary.of(Math::absExact), ParamType.DECIMAL),
                        Signature.of(fixed(DataType.FLOAT64), DoubleUnary.of(Math::abs), ParamType.FLOAT64),
                        Signature.of(argument(0), WideDecimalFunction.kernel(WideDecimalFunction.Op.ABS),
                                ParamType.WIDE_DECIMAL)),
                ScalarFunction.of("sqrt", doubleFunction(NumericFunctions::sqrt)),
                ScalarFunction.of("cbrt", doubleFunction(Math::cbrt)),
                ScalarFunction.of("exp", doubleFunction(x -> finite(Math.exp(x), x))),
                ScalarFunction.of("ln", doubleFunction(x -> Math.log(logArgument(x)))),
                ScalarFunction.of("log10", doubleFunction(x -> Math.log10(logArgument(x)))),
                ScalarFunction.of("log",
                        doubleFunction(x -> Math.log10(logArgument(x))),
                        Signature.of(fixed(DataType.FLOAT64), DoubleBinary.of(NumericFunctions::log),
                                ParamType.FLOAT64, ParamType.FLOAT64)),
                ScalarFunction.of("log2", doubleFunction(x -> log2(logArgument(x)))),
                ScalarFunction.of("power",
                        Signature.of(fixed(DataType.FLOAT64), DoubleBinary.of(NumericFunctions::power),
                                ParamType.FLOAT64, ParamType.FLOAT64)).withAliases("pow"),
                ScalarFunction.of("greatest", Signature.variadic(argument(0), Extremum.kernel(true), ParamType.SAME)),
                ScalarFunction.of("least", Signature.variadic(argument(0), Extremum.kernel(false), ParamType.SAME)),
                rounding("round", false),
                rounding("trunc", true),
                ScalarFunction.of("mod",
                        Signature.of(fixed(DataType.INT32), MODULO, ParamType.INT32, ParamType.INT32),
                        Signature.of(fixed(DataType.INT64), MODULO, ParamType.INT64, ParamType.INT64),
                        Signature.of(DECIMAL_MODULO, MODULO, ParamType.DECIMAL, ParamType.DECIMAL),
                        Signature.of(DECIMAL_MODULO, MODULO, ParamType.WIDE_DECIMAL, ParamType.DECIMAL),
                        Signature.of(DECIMAL_MODULO, MODULO, ParamType.DECIMAL, ParamType.WIDE_DECIMAL),
                        Signature.of(DECIMAL_MODULO, MODULO, ParamType.WIDE_DECIMAL, ParamType.WIDE_DECIMAL),
                        Signature.of(fixed(DataType.FLOAT64), MODULO, ParamType.FLOAT64, ParamType.FLOAT64)),
                ScalarFunction.of("gcd", integerFunction(NumericFunctions::gcd)),
                ScalarFunction.of("lcm", integerFunction(NumericFunctions::lcm)),
                ScalarFunction.of("factorial",
                        Signature.of(fixed(DataType.INT64), ExactUnary.of(NumericFunctions::factorial),
                                ParamType.INT64)),
                ScalarFunction.of("pi", Signature.of(fixed(DataType.FLOAT64),
                        (args, type, text) -> new LiteralExpression(Math.PI, type, text))),
                ScalarFunction.of("degrees", doubleFunction(x -> finite(Math.toDegrees(x), x))),
                ScalarFunction.of("radians", doubleFunction(x -> finite(Math.toRadians(x), x))),
                ScalarFunction.of("random", Signature.of(fixed(DataType.FLOAT64), RandomDouble.KERNEL)).asVolatile(),
                ScalarFunction.of("isnan", doubleProperty(Double::isNaN)),
                ScalarFunction.of("isinf", doubleProperty(Double::isInfinite)),
                ScalarFunction.of("isfinite", doubleProperty(Double::isFinite)),
                // Trigonometric and hyperbolic: radians in and out.
                ScalarFunction.of("sin", doubleFunction(x -> Math.sin(finiteAngle(x)))),
                ScalarFunction.of("cos", doubleFunction(x -> Math.cos(finiteAngle(x)))),
                ScalarFunction.of("tan", doubleFunction(x -> Math.tan(finiteAngle(x)))),
                ScalarFunction.of("cot", doubleFunction(x -> 1 / Math.tan(finiteAngle(x)))),
                ScalarFunction.of("asin", doubleFunction(x -> Math.asin(inRange(x, -1, 1)))),
                ScalarFunction.of("acos", doubleFunction(x -> Math.acos(inRange(x, -1, 1)))),
                ScalarFunction.of("atan", doubleFunction(Math::atan)),
                ScalarFunction.of("atan2", Signature.of(fixed(DataType.FLOAT64), DoubleBinary.of(Math::atan2),
                        ParamType.FLOAT64, ParamType.FLOAT64)),
                ScalarFunction.of("sinh", doubleFunction(Math::sinh)),
                ScalarFunction.of("cosh", doubleFunction(Math::cosh)),
                ScalarFunction.of("tanh", doubleFunction(Math::tanh)),
                ScalarFunction.of("asinh", doubleFunction(NumericFunctions::asinh)),
                ScalarFunction.of("acosh", doubleFunction(x -> acosh(inRange(x, 1, Double.POSITIVE_INFINITY)))),
                ScalarFunction.of("atanh", doubleFunction(x -> atanh(inRange(x, -1, 1)))),
                // Bits of integers, two's complement.
                ScalarFunction.of("bitand", integerFunction((a, b) -> a & b)),
                ScalarFunction.of("bitor", integerFunction((a, b) -> a | b)),
                ScalarFunction.of("bitxor", integerFunction((a, b) -> a ^ b)).withAliases("xor"),
                ScalarFunction.of("bitnot",
                        Signature.of(argument(0), ExactUnary.of(x -> ~x), ParamType.INT32),
                        Signature.of(argument(0), ExactUnary.of(x -> ~x), ParamType.INT64)),
                ScalarFunction.of("leftshift", integerFunction(NumericFunctions::leftShift)),
                ScalarFunction.of("rightshift", integerFunction(NumericFunctions::rightShift)),
                ScalarFunction.of("bit_count",
                        Signature.of(fixed(DataType.INT32), ExactUnary.of(x -> Integer.bitCount((int) x)),
                                ParamType.INT32),
                        Signature.of(fixed(DataType.INT32), ExactUnary.of(Long::bitCount), ParamType.INT64)));
    }

    /** A signature {@code (DOUBLE) -> DOUBLE}. */
    static Signature doubleFunction(DoubleUnaryOperator op) {
        return Signature.of(fixed(DataType.FLOAT64), DoubleUnary.of(op), ParamType.FLOAT64);
    }

    /** Signatures {@code (INTEGER, INTEGER) -> INTEGER} and {@code (BIGINT, BIGINT) -> BIGINT}. */
    static Signature[] integerFunction(LongBinaryOperator op) {
        return new Signature[] {
                Signature.of(fixed(DataType.INT32), ExactBinary.of(op), ParamType.INT32, ParamType.INT32),
                Signature.of(fixed(DataType.INT64), ExactBinary.of(op), ParamType.INT64, ParamType.INT64)};
    }

    private static Signature doubleProperty(DoublePredicate test) {
        return Signature.of(fixed(DataType.BOOLEAN), DoubleProperty.of(test), ParamType.FLOAT64);
    }

    /** round(x [, digits]) or trunc(x [, digits]) for each numeric type; see {@link Round}. */
    private static ScalarFunction rounding(String name, boolean truncate) {
        ParamType digits = ParamType.INT32.asConstant();
        Signature.ResultType type = args -> Round.type(args.get(0).type(),
                args.size() == 1 ? 0 : args.get(1).longValue(), truncate);
        Signature.Kernel kernel = Round.kernel(truncate);
        Signature.Kernel wide = WideDecimalFunction.kernel(truncate ? WideDecimalFunction.Op.TRUNC
                : WideDecimalFunction.Op.ROUND);
        return ScalarFunction.of(name,
                Signature.of(type, kernel, ParamType.FLOAT64),
                Signature.of(type, kernel, ParamType.FLOAT64, digits),
                Signature.of(type, kernel, ParamType.DECIMAL),
                Signature.of(type, kernel, ParamType.DECIMAL, digits),
                Signature.of(type, kernel, ParamType.INT32),
                Signature.of(type, kernel, ParamType.INT32, digits),
                Signature.of(type, kernel, ParamType.INT64),
                Signature.of(type, kernel, ParamType.INT64, digits),
                Signature.of(type, wide, ParamType.WIDE_DECIMAL),
                Signature.of(type, wide, ParamType.WIDE_DECIMAL, digits));
    }

    static double sqrt(double x) {
        if (x < 0) {
            throw new DomainException("cannot take square root of a negative number (" + x + ")");
        }
        return Math.sqrt(x);
    }

    /** {@code x}, which a logarithm takes: 0 and negative numbers fail, as in PostgreSQL (DuckDB: -Infinity, NaN). */
    static double logArgument(double x) {
        if (x == 0) {
            throw new DomainException("cannot take logarithm of zero");
        }
        if (x < 0) {
            throw new DomainException("cannot take logarithm of a negative number (" + x + ")");
        }
        return x;
    }

    /**
     * The logarithm of {@code x} to base {@code b}, PostgreSQL's argument order; as DuckDB computes it,
     * {@code log10(x) / log10(b)}, exact for powers of ten. Base 1 divides by zero (PostgreSQL's error).
     */
    static double log(double b, double x) {
        double base = Math.log10(logArgument(b));
        double value = Math.log10(logArgument(x));
        if (base == 0) {
            throw new DomainException(QueryDataException.Kind.DIVISION_BY_ZERO, "division by zero (logarithm to base "
                    + b + ")");
        }
        return value / base;
    }

    /**
     * The base-2 logarithm of a positive {@code x}: its binary exponent plus the logarithm of its mantissa, so exact
     * for powers of two (where {@code ln(x) / ln(2)} misses 441 of them).
     */
    static double log2(double x) {
        if (!Double.isFinite(x)) {
            return Math.log(x);
        }
        int exponent = Math.getExponent(x);
        if (exponent < Double.MIN_EXPONENT) {
            // Subnormal: scale into the normal range first.
            return log2(Math.scalb(x, 64)) - 64;
        }
        return exponent + Math.log(Math.scalb(x, -exponent)) / LN_2;
    }

    /**
     * {@code result} of a function of a finite {@code x}, as PostgreSQL checks it: Infinity is an overflow and 0
     * (from an {@code x} that is not 0) an underflow (DuckDB: Infinity and 0).
     */
    static double finite(double result, double x) {
        if (Double.isFinite(x)) {
            if (Double.isInfinite(result)) {
                throw new DomainException(QueryDataException.Kind.OVERFLOW, "value out of range: overflow (" + x + ")");
            }
            if (result == 0 && x != 0) {
                throw new DomainException(QueryDataException.Kind.OVERFLOW, "value out of range: underflow (" + x
                        + ")");
            }
        }
        return result;
    }

    /** {@code x} for sin, cos, tan and cot: an infinity fails, as in PostgreSQL (DuckDB: NaN). */
    static double finiteAngle(double x) {
        if (Double.isInfinite(x)) {
            throw new DomainException("input is out of range (" + x + ")");
        }
        return x;
    }

    /** {@code x} when it lies in [low, high] or is NaN, as PostgreSQL's asin, acos, acosh and atanh take it. */
    static double inRange(double x, double low, double high) {
        if (x < low || x > high) {
            throw new DomainException("input is out of range (" + x + ")");
        }
        return x;
    }

    /** The inverse hyperbolic sine, accurate near 0 (log1p) and far from it (no overflow of x * x). */
    static double asinh(double x) {
        double a = Math.abs(x);
        double r = a > 1e8 ? Math.log(a) + LN_2 : Math.log1p(a + a * a / (1 + Math.sqrt(1 + a * a)));
        return Math.copySign(r, x);
    }

    /** The inverse hyperbolic cosine of {@code x} &gt;= 1, accurate near 1 (log1p) and far from it. */
    static double acosh(double x) {
        if (x > 1e8) {
            return Math.log(x) + LN_2;
        }
        double t = x - 1;
        return Math.log1p(t + Math.sqrt(2 * t + t * t));
    }

    /** The inverse hyperbolic tangent of {@code x} in [-1, 1]; ±1 give ±Infinity, as in PostgreSQL and DuckDB. */
    static double atanh(double x) {
        double a = Math.abs(x);
        return Math.copySign(0.5 * Math.log1p(2 * a / (1 - a)), x);
    }

    /**
     * {@code a << n}: {@code a} times 2^n, which overflows where the bits shifted out are not all copies of the
     * sign (Troupe's arithmetic fails; PostgreSQL wraps, DuckDB fails and also refuses a negative {@code a}).
     */
    static long leftShift(long a, long n) {
        requireShift(n);
        if (n >= Long.SIZE) {
            if (a != 0) {
                throw new ArithmeticException();
            }
            return 0;
        }
        long r = a << n;
        if (r >> n != a) {
            throw new ArithmeticException();
        }
        return r;
    }

    /** {@code a >> n}: {@code a} divided by 2^n, rounded down (the sign shifted in), so -1 or 0 past the width. */
    static long rightShift(long a, long n) {
        requireShift(n);
        return a >> Math.min(n, Long.SIZE - 1);
    }

    private static void requireShift(long n) {
        if (n < 0) {
            throw new DomainException("cannot shift by a negative number (" + n + ")");
        }
    }

    /** The greatest common divisor, never negative; 2^63 (gcd(MIN, 0)) overflows. */
    static long gcd(long a, long b) {
        long x = a;
        long y = b;
        while (y != 0) {
            long t = x % y;
            x = y;
            y = t;
        }
        return Math.absExact(x);
    }

    /** The least common multiple, never negative; 0 when either is 0. */
    static long lcm(long a, long b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        return Math.absExact(Math.multiplyExact(a / gcd(a, b), b));
    }

    /** {@code n!} as PostgreSQL words its errors; past 20! a BIGINT overflows. */
    static long factorial(long n) {
        if (n < 0) {
            throw new DomainException("factorial of a negative number is undefined (" + n + ")");
        }
        if (n >= FACTORIALS.length) {
            throw new ArithmeticException();
        }
        return FACTORIALS[(int) n];
    }

    /**
     * {@code x} to the power {@code y}, as PostgreSQL's float8 power: NaN ^ 0 and 1 ^ anything are 1
     * and (-1) ^ ±Infinity is 1 (Java's Math.pow says NaN); 0 to a negative power, a negative
     * number to a fraction, and a finite result too large or too small for a DOUBLE fail.
     */
    static double power(double x, double y) {
        if (x == 1 || Math.abs(x) == 1 && Double.isInfinite(y)) {
            return 1;
        }
        if (x == 0 && y < 0) {
            throw new DomainException("zero raised to a negative power is undefined (" + x + " ^ " + y + ")");
        }
        if (x < 0 && Math.floor(y) != y && !Double.isNaN(y)) {
            throw new DomainException("a negative number raised to a non-integer power yields a complex result ("
                    + x + " ^ " + y + ")");
        }
        double p = Math.pow(x, y);
        if (Double.isFinite(x) && Double.isFinite(y)) {
            if (Double.isInfinite(p)) {
                throw new DomainException(QueryDataException.Kind.OVERFLOW, "value out of range: overflow (" + x + " ^ "
                        + y + ")");
            }
            if (p == 0 && x != 0) {
                throw new DomainException(QueryDataException.Kind.OVERFLOW, "value out of range: underflow (" + x
                        + " ^ " + y + ")");
            }
        }
        return p;
    }
}
