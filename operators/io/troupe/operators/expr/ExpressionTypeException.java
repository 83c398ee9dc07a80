package io.troupe.operators.expr;

/**
 * An expression that cannot be typed: wrong argument types, a bad literal argument. Thrown by
 * {@link Functions#bind}; the plan layer adds the plan node and rethrows it as a plan error.
 */
public final class ExpressionTypeException extends RuntimeException {

    public ExpressionTypeException(String message) {
        super(message);
    }
}
