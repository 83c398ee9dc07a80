package io.troupe.operators.expr;

import io.troupe.operators.types.DataType;

/**
 * One argument of a call as a {@link Signature.ResultType} sees it: its type after conversion to
 * the signature's parameter, whether it is a constant and, if so, its value ({@link
 * io.troupe.operators.batch.ColumnVector#getObject}'s Java form, null for NULL). The plan side
 * builds it from bound expressions, SQL's validator from Calcite's operands, so both derive the
 * same result type.
 *
 * <p>Immutable and threadsafe.
 */
public record ArgumentType(DataType type, boolean constant, Object value) {

    /** A non-constant argument of {@code type}. */
    public static ArgumentType of(DataType type) {
        return new ArgumentType(type, false, null);
    }

    /** The value of a constant INTEGER or BIGINT argument, 0 for NULL. */
    long longValue() {
        return value == null ? 0 : ((Number) value).longValue();
    }
}
