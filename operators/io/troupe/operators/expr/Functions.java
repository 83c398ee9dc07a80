package io.troupe.operators.expr;

import io.troupe.operators.types.DataType;

import java.util.List;

/**
 * Types and builds the physical expression of each {@link Function}.
 */
public final class Functions {

    private Functions() {
    }

    /**
     * @param args     bound arguments
     * @param castType the target of CAST, null otherwise
     * @param text     the call's SQL-like text, for runtime error messages
     * @throws ExpressionTypeException when the arguments do not fit the function
     */
    public static Expression bind(Function function, List<Expression> args, DataType castType, String text) {
        throw new ExpressionTypeException("function " + function + " is not implemented yet: " + text);
    }
}
