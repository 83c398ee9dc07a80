package io.troupe.operators.udf;

/**
 * An aggregate function of one's own: a state per group, made by {@link #init}, to which {@link #accumulate} adds
 * each row, {@link #merge} adds another state (another worker's or node's share of the group, or one read back
 * from a spill file), and from which {@link #finish} makes the group's value. Registered with
 * {@link UserFunctions#aggregate}, with the types of its arguments, its result and its state's fields.
 *
 * <p>A state is an {@code Object[]} of those fields' Java values ({@link JavaValues#classOf}; null for NULL), so that
 * Troupe can write it as a row of partial results and read it back the same: a partial aggregation runs on every
 * worker, and the states are merged as sum's are. A state must hold nothing but its fields.
 *
 * <p>Called by many workers at once, each on states of its own: it must be threadsafe. {@code merge} with a state
 * fresh from {@code init} must leave the state as it was, and merging must not depend on the order of the shares
 * (as for sum or count), since the rows are shared out among workers in no fixed order.
 */
public interface UserAggregate {

    /** A new state of no rows: its fields' values, in the registered order. */
    Object[] init();

    /**
     * Adds one row to {@code state}, in place. Not called for a row with a NULL argument (PostgreSQL's STRICT).
     *
     * @param arguments the row's arguments, none of them null; the array is the call's own
     * @throws Exception any: the query fails with it, naming the function and the arguments
     */
    void accumulate(Object[] state, Object[] arguments) throws Exception;

    /**
     * Adds {@code other}'s rows to {@code state}, in place.
     *
     * @throws Exception any: the query fails with it, naming the function
     */
    void merge(Object[] state, Object[] other) throws Exception;

    /**
     * The group's value, of the registered result type, or null for NULL; {@code state} is not used again.
     *
     * @throws Exception any: the query fails with it, naming the function
     */
    Object finish(Object[] state) throws Exception;
}
