package io.troupe.operators.expr;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import java.util.Objects;

/**
 * What one parameter of a {@link Signature} takes, and what an argument there is converted to.
 * <ul>
 *   <li>{@link #of}: one type. A number of another numeric type is promoted to it as SQL does
 *       implicitly: SMALLINT and TINYINT to INTEGER, an integer to BIGINT, any integer or DECIMAL to DOUBLE, an integer to DECIMAL; and a DATE
 *       to a TIMESTAMP, its midnight.</li>
 *   <li>{@link #DECIMAL}: a DECIMAL of at most 18 digits, kept as it is; a wider one of a scale of at most 18
 *       narrows to DECIMAL(18, scale), a value that does not fit failing as the cast does (the kernels behind
 *       such a parameter work on longs); an integer becomes DECIMAL(10,0) (INTEGER) or DECIMAL(18,0)
 *       (BIGINT).</li>
 *   <li>{@link #WIDE_DECIMAL}: a DECIMAL of more than 18 digits, kept as it is, for the kernels that take one;
 *       listed after a {@link #DECIMAL} signature, it wins for such an argument (cost 0 against 1).</li>
 *   <li>{@link #SAME}: every SAME parameter of a call takes one type, the common type of their
 *       arguments (numbers promoted, as CASE and COALESCE do; any other type only with itself).</li>
 * </ul>
 * {@link #constant()} asks for a constant argument (a literal, after folding), for a kernel that
 * reads its value once (round's digits).
 *
 * <h2>Cost of a conversion</h2>
 * Among a function's signatures, a call takes the one whose conversions cost least ({@link #cost}):
 * 0 for the type itself, 1 for SMALLINT or TINYINT to INTEGER, an integer to BIGINT, between decimals or DATE to TIMESTAMP, 2 for a number to DOUBLE, 3
 * for an integer to DECIMAL. An integer therefore goes to DOUBLE before DECIMAL, as it does in
 * DuckDB and PostgreSQL ({@code ceil(INTEGER)} is a DOUBLE); ties go to the signature listed first.
 *
 * <p>Immutable and threadsafe.
 */
public record ParamType(Kind kind, DataType type, boolean constant) {

    /** How a parameter matches its argument. */
    public enum Kind {
        /** {@link #type}, or a number promoted to it. */
        EXACT,
        /** Any DECIMAL; {@link #type} is null. */
        ANY_DECIMAL,
        /** A DECIMAL of more than 18 digits, kept as it is; {@link #type} is null. */
        WIDE_DECIMAL,
        /** The call's common type of all SAME arguments; {@link #type} is null. */
        SAME
    }

    public static final ParamType INT32 = of(DataType.INT32);
    public static final ParamType INT64 = of(DataType.INT64);
    public static final ParamType FLOAT64 = of(DataType.FLOAT64);
    public static final ParamType VARCHAR = of(DataType.VARCHAR);
    public static final ParamType DATE = of(DataType.DATE);
    public static final ParamType BOOLEAN = of(DataType.BOOLEAN);
    public static final ParamType DECIMAL = new ParamType(Kind.ANY_DECIMAL, null, false);
    public static final ParamType WIDE_DECIMAL = new ParamType(Kind.WIDE_DECIMAL, null, false);
    public static final ParamType SAME = new ParamType(Kind.SAME, null, false);

    /** No conversion fits. */
    static final int NO_MATCH = -1;

    public ParamType {
        Objects.requireNonNull(kind, "kind");
        if ((kind == Kind.EXACT) != (type != null)) {
            throw new IllegalArgumentException("ParamType: an EXACT parameter has a type, the others none: "
                    + kind + " " + type);
        }
    }

    public static ParamType of(DataType type) {
        return new ParamType(Kind.EXACT, Objects.requireNonNull(type, "type"), false);
    }

    /** This parameter, taking constants only. */
    public ParamType asConstant() {
        return new ParamType(kind, type, true);
    }

    /**
     * What an argument of type {@code actual} costs here (see the class comment), or
     * {@link #NO_MATCH}. A null {@code actual} is an argument of no known type yet (SQL's NULL or
     * {@code ?}), which fits anything at no cost. Not for {@link Kind#SAME}, which the signature
     * resolves over all its arguments.
     */
    int cost(DataType actual) {
        if (actual == null) {
            return 0;
        }
        if (kind == Kind.WIDE_DECIMAL) {
            return actual.isWideDecimal() ? 0 : NO_MATCH;
        }
        if (kind == Kind.ANY_DECIMAL) {
            if (actual.isWideDecimal()) {
                return actual.scale() <= DataType.MAX_LONG_PRECISION ? 1 : NO_MATCH;
            }
            return actual.id() == TypeId.DECIMAL ? 0 : TypeRules.isInteger(actual) ? 3 : NO_MATCH;
        }
        return promotionCost(actual, type);
    }

    /** The type an argument of {@code actual} is converted to here; for an unknown one, this parameter's own. */
    DataType target(DataType actual) {
        if (kind == Kind.EXACT) {
            return type;
        }
        if (actual == null) {
            return DataType.decimal(kind == Kind.WIDE_DECIMAL ? DataType.MAX_DECIMAL_PRECISION
                    : DataType.MAX_LONG_PRECISION, 0);
        }
        if (actual.id() == TypeId.DECIMAL) {
            return actual.isWideDecimal() && kind == Kind.ANY_DECIMAL
                    ? DataType.decimal(DataType.MAX_LONG_PRECISION, actual.scale()) : actual;
        }
        return TypeRules.isIntInteger(actual) ? DataType.decimal(TypeRules.integerDigits(actual), 0)
                : DataType.decimal(DataType.MAX_LONG_PRECISION, 0);
    }

    /** The cost of passing a value of {@code from} where {@code to} is declared, or {@link #NO_MATCH}. */
    static int promotionCost(DataType from, DataType to) {
        if (from.equals(to)) {
            return 0;
        }
        if (from.id() == TypeId.DATE && to.id() == TypeId.TIMESTAMP) {
            return 1;
        }
        if (!from.isNumeric() || !to.isNumeric()) {
            return NO_MATCH;
        }
        return switch (to.id()) {
            case INT64 -> TypeRules.isIntInteger(from) ? 1 : NO_MATCH;
            case INT32 -> from.id() == TypeId.INT16 || from.id() == TypeId.INT8 ? 1 : NO_MATCH;
            case INT16 -> from.id() == TypeId.INT8 ? 1 : NO_MATCH;
            // A REAL takes what is REAL in a common type (numbers but DOUBLE); a DOUBLE does not narrow to it.
            case FLOAT32 -> from.id() == TypeId.FLOAT64 ? NO_MATCH : 2;
            case FLOAT64 -> 2;
            case DECIMAL -> from.id() == TypeId.DECIMAL ? 1 : TypeRules.isInteger(from) ? 3 : NO_MATCH;
            default -> NO_MATCH;
        };
    }

    /** As signatures print it: the type's SQL name, DECIMAL, or T for SAME. */
    @Override
    public String toString() {
        return switch (kind) {
            case EXACT -> type.sqlName();
            case ANY_DECIMAL -> "DECIMAL";
            case WIDE_DECIMAL -> "DECIMAL(p > 18)";
            case SAME -> "T";
        };
    }
}
