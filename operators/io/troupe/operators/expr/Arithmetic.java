package io.troupe.operators.expr;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.TypeId;

/**
 * Types + - * / % and unary minus and picks their kernel ({@link IntArithmetic},
 * {@link LongArithmetic}, {@link DoubleArithmetic}, {@link NegateExpression}); where a time or an interval
 * takes part, {@link TimeArithmetic} does.
 *
 * <p>Integers held in ints give the wider of their types (INT8 &lt; INT16 &lt; INT32: SMALLINT + SMALLINT is a
 * SMALLINT, checked against its range, as PostgreSQL's; SMALLINT + INTEGER an INTEGER); an INT64 makes it INT64; a
 * DECIMAL makes it DECIMAL, an integer counting as DECIMAL(3,0) (INT8), DECIMAL(5,0) (INT16), DECIMAL(10,0) (INT32)
 * or DECIMAL(19,0) (INT64, held as is and checked); a FLOAT64 makes it FLOAT64; otherwise a FLOAT32 makes it FLOAT32
 * (DuckDB's and the SQL validator's typing; PostgreSQL makes an integer or numeric with a real a double), computed
 * in double and rounded to float, which is the float operation's result (a double holds more than twice a float's
 * digits, so the second rounding changes nothing). The DECIMAL types are DuckDB's: + and -: scale max(s1,s2), precision min(38,
 * max(p1-s1,p2-s2) + max(s1,s2) + 1); *: scale s1+s2 (at most 38), precision min(38, p1+p2), except that two
 * operands of at most 18 digits give at most 18 (checked) while the scale stays below 18; %: scale max(s1,s2),
 * precision min(38, max(p1-s1,p2-s2) + max(s1,s2)); / with a DECIMAL or FLOAT64 is FLOAT64
 * division, between integers it truncates toward zero (DuckDB's {@code //}). A result of at most 18 digits
 * runs on longs ({@link LongArithmetic}): unchecked when the uncapped precision is at most 18, otherwise every
 * value is checked against 10^18; a wider one on 128-bit words ({@link WideDecimalArithmetic}), checked against
 * its precision.
 *
 * <p>Stateless; threadsafe.
 */
final class Arithmetic {

    private Arithmetic() {
    }

    static Expression bind(Function op, Expression left, Expression right, String text) {
        return Functions.fold(kernel(op, left, right, text), left, right);
    }

    private static Expression kernel(Function op, Expression left, Expression right, String text) {
        DataType a = left.type();
        DataType b = right.type();
        if (TimeArithmetic.applies(a, b)) {
            return TimeArithmetic.kernel(op, left, right, text);
        }
        boolean float32 = a.id() == TypeId.FLOAT32 || b.id() == TypeId.FLOAT32;
        if (float32 || a.id() == TypeId.FLOAT64 || b.id() == TypeId.FLOAT64
                || (op == Function.DIVIDE && (a.id() == TypeId.DECIMAL || b.id() == TypeId.DECIMAL))) {
            boolean single = float32 && a.id() != TypeId.FLOAT64 && b.id() != TypeId.FLOAT64;
            // Both operands of a REAL operation are REALs first (0.1 the float nearest it), then exact doubles.
            DataType operands = single ? DataType.FLOAT32 : DataType.FLOAT64;
            Expression doubles = new DoubleArithmetic(op,
                    CastExpression.of(CastExpression.of(left, operands, text), DataType.FLOAT64, text),
                    CastExpression.of(CastExpression.of(right, operands, text), DataType.FLOAT64, text), text);
            return single ? CastExpression.of(doubles, DataType.FLOAT32, text) : doubles;
        }
        if (a.id() == TypeId.DECIMAL || b.id() == TypeId.DECIMAL) {
            return decimal(op, left, right, text);
        }
        if (TypeRules.isIntInteger(a) && TypeRules.isIntInteger(b)) {
            return new IntArithmetic(op, left, right, TypeRules.wider(a, b), text);
        }
        return LongArithmetic.integer(op, CastExpression.of(left, DataType.INT64, text),
                CastExpression.of(right, DataType.INT64, text), text);
    }

    static Expression negate(Expression value, String text) {
        if (value.type().id() == TypeId.INTERVAL) {
            return TimeArithmetic.negate(value, text);
        }
        if (value.type().isWideDecimal()) {
            return WideDecimalArithmetic.negate(value, text);
        }
        if (!value.type().isNumeric()) {
            throw new ExpressionTypeException("cannot apply - to " + value.type() + " in " + text);
        }
        return new NegateExpression(value, text);
    }

    private static Expression decimal(Function op, Expression left, Expression right, String text) {
        DataType a = left.type();
        DataType b = right.type();
        int s1 = TypeRules.scale(a);
        int s2 = TypeRules.scale(b);
        int d1 = TypeRules.integerDigits(a);
        int d2 = TypeRules.integerDigits(b);
        int scale;
        int natural;
        boolean narrow;
        switch (op) {
            case ADD, SUBTRACT -> {
                scale = Math.max(s1, s2);
                natural = Math.max(d1, d2) + scale + 1;
                narrow = natural <= DataType.MAX_LONG_PRECISION;
            }
            case MULTIPLY -> {
                scale = s1 + s2;
                if (scale > DataType.MAX_DECIMAL_PRECISION) {
                    throw new ExpressionTypeException("cannot multiply " + a + " by " + b + " in " + text
                            + ": the product needs scale " + scale + ", more than " + DataType.MAX_DECIMAL_PRECISION);
                }
                natural = d1 + s1 + d2 + s2;
                // DuckDB's: two operands of a long each keep a product of a long, checked, while its scale fits.
                narrow = natural <= DataType.MAX_LONG_PRECISION || d1 + s1 <= DataType.MAX_LONG_PRECISION
                        && d2 + s2 <= DataType.MAX_LONG_PRECISION && scale < DataType.MAX_LONG_PRECISION;
            }
            case MODULO -> {
                scale = Math.max(s1, s2);
                natural = Math.max(d1, d2) + scale;
                narrow = natural <= DataType.MAX_LONG_PRECISION;
            }
            default -> throw new IllegalArgumentException("not a decimal operator: " + op);
        }
        if (!narrow) {
            DataType type = DataType.decimal(Math.min(DataType.MAX_DECIMAL_PRECISION, natural), scale);
            return WideDecimalArithmetic.binary(op, left, right, type, text);
        }
        // Integers held in ints become DECIMAL(d,0) longs; INT64 operands stay longs at scale 0.
        Expression l = TypeRules.isIntInteger(a) ? CastExpression.of(left, DataType.decimal(d1, 0), text) : left;
        Expression r = TypeRules.isIntInteger(b) ? CastExpression.of(right, DataType.decimal(d2, 0), text) : right;
        boolean checked = natural > DataType.MAX_LONG_PRECISION;
        DataType type = DataType.decimal(Math.min(DataType.MAX_LONG_PRECISION, natural), scale);
        long ma = op == Function.MULTIPLY ? 1 : Decimals.pow10(scale - s1);
        long mb = op == Function.MULTIPLY ? 1 : Decimals.pow10(scale - s2);
        return LongArithmetic.decimal(op, l, r, ma, mb, checked, type, text);
    }
}
