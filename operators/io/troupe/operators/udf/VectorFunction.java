package io.troupe.operators.udf;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;

/**
 * A scalar function of one's own over a whole batch: its arguments' columns in, its result column out, as
 * Troupe's own kernels compute ({@code io.troupe.operators.expr.Expression#evaluate}). Registered with
 * {@link UserFunctions#vectorised}.
 *
 * <p>Called by many workers at once, each with its own batches: it must be threadsafe, and give the same result
 * for the same arguments (Troupe may call it once for a call of constants).
 */
@FunctionalInterface
public interface VectorFunction {

    /**
     * The result column of one batch.
     *
     * @param arguments the arguments' columns, of the registered types, aligned with {@code batch}: row
     *                  {@code batch.row(i)} of each holds the arguments of the batch's {@code i}-th live row, NULLs
     *                  included ({@link ColumnVector#isNull}); read only
     * @param batch     the rows: {@link Batch#size()} live ones at {@link Batch#row}, {@link Batch#rowCount()} in all
     * @return a new column of the registered result type with room for {@link Batch#rowCount()} rows, aligned
     *         with {@code batch}: its values (and NULLs) at the live rows are the results; the others are not read
     * @throws Exception any: the query fails with it, naming the function
     */
    ColumnVector apply(ColumnVector[] arguments, Batch batch) throws Exception;
}
