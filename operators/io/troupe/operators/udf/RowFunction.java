package io.troupe.operators.udf;

/**
 * A scalar function of one's own, one row at a time: its arguments as Java values of their registered types
 * ({@link JavaValues#classOf}), its result one of the registered result type, or null for NULL. It is not called
 * for a row with a NULL argument, whose result is NULL (PostgreSQL's STRICT). Registered with
 * {@link UserFunctions#scalar}.
 *
 * <p>Called by many workers at once: it must be threadsafe, and give the same result for the same arguments
 * (Troupe may call it once for a call of constants).
 */
@FunctionalInterface
public interface RowFunction {

    /**
     * The result for one row.
     *
     * @param arguments the row's arguments, none of them null; the array is the call's own
     * @throws Exception any: the query fails with it, naming the function and the arguments
     */
    Object apply(Object[] arguments) throws Exception;
}
