package io.troupe.operators.expr;

import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;

import java.util.List;

import static io.troupe.operators.expr.Signature.ResultType.argument;
import static io.troupe.operators.expr.Signature.ResultType.fixed;

/**
 * The numeric functions of the {@link FunctionRegistry}, documented for users in
 * docs/sql/functions-numeric.md and checked against DuckDB by {@code NumericFunctionsTest}. Result
 * types are DuckDB's; where DuckDB answers NaN or Infinity for a value outside a function's domain,
 * the query fails with PostgreSQL's message (its test and page say which).
 *
 * <p>Stateless; threadsafe.
 */
final class NumericFunctions {

    private NumericFunctions() {
    }

    static List<ScalarFunction> all() {
        return List.of(
                ScalarFunction.of("ceil",
                        Signature.of(fixed(DataType.FLOAT64), DoubleUnary.of(Math::ceil), ParamType.FLOAT64),
                        Signature.of(args -> DecimalFloorCeil.type(args.get(0).type()), DecimalFloorCeil.kernel(true),
                                ParamType.DECIMAL)).withAliases("ceiling"),
                ScalarFunction.of("floor",
                        Signature.of(fixed(DataType.FLOAT64), DoubleUnary.of(Math::floor), ParamType.FLOAT64),
                        Signature.of(args -> DecimalFloorCeil.type(args.get(0).type()), DecimalFloorCeil.kernel(false),
                                ParamType.DECIMAL)),
                ScalarFunction.of("sign",
                        Signature.of(fixed(DataType.INT32), Sign.KERNEL, ParamType.INT32),
                        Signature.of(fixed(DataType.INT32), Sign.KERNEL, ParamType.INT64),
                        Signature.of(fixed(DataType.INT32), Sign.KERNEL, ParamType.DECIMAL),
                        Signature.of(fixed(DataType.INT32), Sign.KERNEL, ParamType.FLOAT64)),
                ScalarFunction.of("sqrt",
                        Signature.of(fixed(DataType.FLOAT64), DoubleUnary.of(NumericFunctions::sqrt), ParamType.FLOAT64)),
                ScalarFunction.of("ln",
                        Signature.of(fixed(DataType.FLOAT64), DoubleUnary.of(NumericFunctions::ln), ParamType.FLOAT64)),
                ScalarFunction.of("power",
                        Signature.of(fixed(DataType.FLOAT64), DoubleBinary.of(NumericFunctions::power),
                                ParamType.FLOAT64, ParamType.FLOAT64)).withAliases("pow"),
                ScalarFunction.of("greatest", Signature.variadic(argument(0), Extremum.kernel(true), ParamType.SAME)),
                ScalarFunction.of("least", Signature.variadic(argument(0), Extremum.kernel(false), ParamType.SAME)),
                round());
    }

    /** round(x [, digits]) for each numeric type; see {@link Round}. */
    private static ScalarFunction round() {
        ParamType digits = ParamType.INT32.asConstant();
        Signature.ResultType type = args -> Round.type(args.get(0).type(), args.size() == 1 ? 0 : args.get(1).longValue());
        return ScalarFunction.of("round",
                Signature.of(type, Round.KERNEL, ParamType.FLOAT64),
                Signature.of(type, Round.KERNEL, ParamType.FLOAT64, digits),
                Signature.of(type, Round.KERNEL, ParamType.DECIMAL),
                Signature.of(type, Round.KERNEL, ParamType.DECIMAL, digits),
                Signature.of(type, Round.KERNEL, ParamType.INT32),
                Signature.of(type, Round.KERNEL, ParamType.INT32, digits),
                Signature.of(type, Round.KERNEL, ParamType.INT64),
                Signature.of(type, Round.KERNEL, ParamType.INT64, digits));
    }

    static double sqrt(double x) {
        if (x < 0) {
            throw new DomainException("cannot take square root of a negative number (" + x + ")");
        }
        return Math.sqrt(x);
    }

    static double ln(double x) {
        if (x == 0) {
            throw new DomainException("cannot take logarithm of zero");
        }
        if (x < 0) {
            throw new DomainException("cannot take logarithm of a negative number (" + x + ")");
        }
        return Math.log(x);
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
