package io.troupe.operators;

import java.util.Collection;

/**
 * Checks of the public API's arguments, made where the caller passed them, so that a null is an
 * {@link IllegalArgumentException} naming the method and the argument ("Plan.scan: table must not be
 * null") instead of a NullPointerException from deep inside a later call. Stateless.
 */
public final class Arguments {

    private Arguments() {
    }

    /**
     * @return {@code value}
     * @throws IllegalArgumentException naming {@code method} and {@code argument} when it is null
     */
    public static <T> T notNull(T value, String method, String argument) {
        if (value == null) {
            throw new IllegalArgumentException(method + ": " + argument + " must not be null");
        }
        return value;
    }

    /**
     * @return {@code values}
     * @throws IllegalArgumentException naming {@code method} and {@code argument}, with the index of
     *         the first null element, when the array or an element is null
     */
    public static <T> T[] noNulls(T[] values, String method, String argument) {
        notNull(values, method, argument);
        for (int i = 0; i < values.length; i++) {
            notNull(values[i], method, argument + "[" + i + "]");
        }
        return values;
    }

    /** As {@link #noNulls(Object[], String, String)}, for a collection (its elements in iteration order). */
    public static <C extends Collection<?>> C noNulls(C values, String method, String argument) {
        notNull(values, method, argument);
        int i = 0;
        for (Object value : values) {
            notNull(value, method, argument + "[" + i++ + "]");
        }
        return values;
    }
}
