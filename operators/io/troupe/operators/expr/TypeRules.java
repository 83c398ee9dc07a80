package io.troupe.operators.expr;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import java.util.List;

/**
 * The typing rules shared by the functions: numeric promotion for arithmetic, comparison and
 * for the values of CASE, COALESCE and IN. See the class Javadoc of {@link Functions}.
 *
 * <p>Stateless; threadsafe.
 */
final class TypeRules {

    /** Digits an INT32 needs as a DECIMAL (DuckDB's DECIMAL(10,0)). */
    static final int INT32_DIGITS = 10;
    /** Digits an INT16 needs as a DECIMAL (DuckDB's DECIMAL(5,0)). */
    static final int INT16_DIGITS = 5;
    /** Digits an INT8 needs as a DECIMAL (DuckDB's DECIMAL(3,0)). */
    static final int INT8_DIGITS = 3;
    /** Digits an INT64 may need: one more than a DECIMAL holds, so its overflow is checked. */
    static final int INT64_DIGITS = 19;

    private TypeRules() {
    }

    /** Integer digits (precision - scale) of an integer or decimal type. */
    static int integerDigits(DataType t) {
        return switch (t.id()) {
            case INT32 -> INT32_DIGITS;
            case INT16 -> INT16_DIGITS;
            case INT8 -> INT8_DIGITS;
            case INT64 -> INT64_DIGITS;
            case DECIMAL -> t.precision() - t.scale();
            default -> throw new IllegalArgumentException("not an exact numeric type: " + t);
        };
    }

    /** Decimal scale of an integer (0) or decimal type. */
    static int scale(DataType t) {
        return t.id() == TypeId.DECIMAL ? t.scale() : 0;
    }

    private static boolean isDateAndTimestamp(DataType a, DataType b) {
        return a.id() == TypeId.DATE && b.id() == TypeId.TIMESTAMP || a.id() == TypeId.TIMESTAMP && b.id() == TypeId.DATE;
    }

    static boolean isInteger(DataType t) {
        return isIntInteger(t) || t.id() == TypeId.INT64;
    }

    /** True for the integers held in ints: INT32, INT16, INT8. */
    static boolean isIntInteger(DataType t) {
        return t.id() == TypeId.INT32 || t.id() == TypeId.INT16 || t.id() == TypeId.INT8;
    }

    /** The wider of two integers held in ints: INT8 &lt; INT16 &lt; INT32. */
    static DataType wider(DataType a, DataType b) {
        return rank(a) >= rank(b) ? a : b;
    }

    private static int rank(DataType t) {
        return switch (t.id()) {
            case INT8 -> 0;
            case INT16 -> 1;
            default -> 2;
        };
    }

    /**
     * The type two values are compared in, or null when they cannot be compared: equal types
     * compare as they are; numerics promote INT8 &lt; INT16 &lt; INT32 &lt; INT64 &lt; DECIMAL &lt; FLOAT32 &lt;
     * FLOAT64 (a FLOAT32 with anything else compares as FLOAT64, exactly), where
     * a DECIMAL comparison type only names the common scale (its precision is 18, or 38 when a side is
     * wider than 18 digits); a DATE and a
     * TIMESTAMP compare as TIMESTAMPs (a date is its midnight). A TIMESTAMP_TZ compares with itself
     * only: the other side's local time needs a zone, which a CAST names.
     */
    static DataType comparisonType(DataType a, DataType b) {
        if (isDateAndTimestamp(a, b)) {
            return DataType.TIMESTAMP;
        }
        if (a.isNumeric() && b.isNumeric()) {
            if (isFloating(a) || isFloating(b)) {
                return DataType.FLOAT64;
            }
            if (a.id() == TypeId.DECIMAL || b.id() == TypeId.DECIMAL) {
                boolean wide = a.isWideDecimal() || b.isWideDecimal();
                return DataType.decimal(wide ? DataType.MAX_DECIMAL_PRECISION : DataType.MAX_LONG_PRECISION,
                        Math.max(scale(a), scale(b)));
            }
            return a.id() == TypeId.INT64 || b.id() == TypeId.INT64 ? DataType.INT64 : wider(a, b);
        }
        return a.id() == b.id() ? a : null;
    }

    private static boolean isFloating(DataType t) {
        return t.id() == TypeId.FLOAT64 || t.id() == TypeId.FLOAT32;
    }

    /**
     * The one type that a list of values (CASE results, COALESCE arguments) take: all equal, or
     * all numeric and promoted (decimals keep the largest scale and integer part, up to 38
     * digits), or DATEs and TIMESTAMPs as TIMESTAMPs. Null entries (untyped NULLs) are skipped.
     * Null when there is no such type.
     */
    static DataType commonType(List<DataType> types) {
        DataType common = null;
        for (DataType t : types) {
            if (t == null) {
                continue;
            }
            if (common == null) {
                common = t;
            } else if (!common.equals(t)) {
                common = promote(common, t);
                if (common == null) {
                    return null;
                }
            }
        }
        return common;
    }

    private static DataType promote(DataType a, DataType b) {
        if (isDateAndTimestamp(a, b)) {
            return DataType.TIMESTAMP;
        }
        if (!a.isNumeric() || !b.isNumeric()) {
            return null;
        }
        if (a.id() == TypeId.FLOAT64 || b.id() == TypeId.FLOAT64) {
            return DataType.FLOAT64;
        }
        if (a.id() == TypeId.FLOAT32 || b.id() == TypeId.FLOAT32) {
            return DataType.FLOAT32;
        }
        if (a.id() == TypeId.DECIMAL || b.id() == TypeId.DECIMAL) {
            int s = Math.max(scale(a), scale(b));
            int digits = Math.max(a.id() == TypeId.INT64 ? 18 : integerDigits(a),
                    b.id() == TypeId.INT64 ? 18 : integerDigits(b));
            int p = Math.min(DataType.MAX_DECIMAL_PRECISION, digits + s);
            return DataType.decimal(Math.max(p, s), s);
        }
        return a.id() == TypeId.INT64 || b.id() == TypeId.INT64 ? DataType.INT64 : wider(a, b);
    }
}
