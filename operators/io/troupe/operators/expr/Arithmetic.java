package io.troupe.operators.expr;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.TypeId;

/**
 * Types + - * / % and unary minus and picks their kernel ({@link IntArithmetic},
 * {@link LongArithmetic}, {@link DoubleArithmetic}, {@link NegateExpression}); where a time or an interval
 * takes part, {@link TimeArithmetic} does.
 *
 * <p>INT32 op INT32 is INT32; an INT64 makes it INT64; a DECIMAL makes it DECIMAL, an integer
 * counting as DECIMAL(10,0) (INT32) or DECIMAL(19,0) (INT64, held as is and checked); a FLOAT64
 * makes it FLOAT64. DECIMAL + and -: scale max(s1,s2), precision min(18, max(p1-s1,p2-s2) +
 * max(s1,s2) + 1); *: scale s1+s2 (at most 18), precision min(18, p1+p2); %: scale max(s1,s2),
 * precision min(18, max(p1-s1,p2-s2) + max(s1,s2)); / with a DECIMAL or FLOAT64 is FLOAT64
 * division, between integers it truncates toward zero (DuckDB's {@code //}). When the
 * uncapped precision is at most 18 a decimal result cannot overflow and its kernel runs
 * unchecked; otherwise every value is checked against 10^18.
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
        if (a.id() == TypeId.FLOAT64 || b.id() == TypeId.FLOAT64
                || (op == Function.DIVIDE && (a.id() == TypeId.DECIMAL || b.id() == TypeId.DECIMAL))) {
            return new DoubleArithmetic(op, CastExpression.of(left, DataType.FLOAT64, text),
                    CastExpression.of(right, DataType.FLOAT64, text), text);
        }
        if (a.id() == TypeId.DECIMAL || b.id() == TypeId.DECIMAL) {
            return decimal(op, left, right, text);
        }
        if (a.id() == TypeId.INT32 && b.id() == TypeId.INT32) {
            return new IntArithmetic(op, left, right, text);
        }
        return LongArithmetic.integer(op, CastExpression.of(left, DataType.INT64, text),
                CastExpression.of(right, DataType.INT64, text), text);
    }

    static Expression negate(Expression value, String text) {
        if (value.type().id() == TypeId.INTERVAL) {
            return TimeArithmetic.negate(value, text);
        }
        if (!value.type().isNumeric()) {
            throw new ExpressionTypeException("cannot apply - to " + value.type() + " in " + text);
        }
        return new NegateExpression(value, text);
    }

    private static Expression decimal(Function op, Expression left, Expression right, String text) {
        // INT32 operands become DECIMAL(10,0) longs; INT64 operands stay longs at scale 0.
        Expression l = left.type().id() == TypeId.INT32 ? CastExpression.of(left, DataType.decimal(10, 0), text) : left;
        Expression r = right.type().id() == TypeId.INT32 ? CastExpression.of(right, DataType.decimal(10, 0), text) : right;
        DataType a = left.type();
        DataType b = right.type();
        int s1 = TypeRules.scale(a);
        int s2 = TypeRules.scale(b);
        int d1 = TypeRules.integerDigits(a);
        int d2 = TypeRules.integerDigits(b);
        int scale;
        int natural;
        boolean checked;
        switch (op) {
            case ADD, SUBTRACT -> {
                scale = Math.max(s1, s2);
                natural = Math.max(d1, d2) + scale + 1;
                checked = natural > DataType.MAX_DECIMAL_PRECISION;
            }
            case MULTIPLY -> {
                scale = s1 + s2;
                if (scale > DataType.MAX_DECIMAL_PRECISION) {
                    throw new ExpressionTypeException("cannot multiply " + a + " by " + b + " in " + text
                            + ": the product needs scale " + scale + ", more than " + DataType.MAX_DECIMAL_PRECISION);
                }
                natural = d1 + s1 + d2 + s2;
                checked = natural > DataType.MAX_DECIMAL_PRECISION;
            }
            case MODULO -> {
                scale = Math.max(s1, s2);
                natural = Math.max(d1, d2) + scale;
                // The remainder is smaller than both operands; only their rescaling can overflow.
                checked = Math.max(d1, d2) + scale > DataType.MAX_DECIMAL_PRECISION;
            }
            default -> throw new IllegalArgumentException("not a decimal operator: " + op);
        }
        DataType type = DataType.decimal(Math.min(DataType.MAX_DECIMAL_PRECISION, natural), scale);
        long ma = op == Function.MULTIPLY ? 1 : Decimals.pow10(scale - s1);
        long mb = op == Function.MULTIPLY ? 1 : Decimals.pow10(scale - s2);
        return LongArithmetic.decimal(op, l, r, ma, mb, checked, type, text);
    }
}
