package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.DataType;

/**
 * A bound, typed expression that computes one column from a batch: the physical form of a plan's
 * {@code Expr}, with column names resolved to indexes and types checked.
 *
 * <p>Immutable and threadsafe: one instance is shared by every worker of a query.
 */
public interface Expression {

    DataType type();

    /**
     * Computes this expression at the batch's live rows. The result has the batch's physical row
     * count and is aligned with it (row r of the result belongs to row r of the batch); values at
     * rows that are not live are unspecified. The result may be a column of the batch itself, so
     * callers must not modify it.
     *
     * @throws io.troupe.operators.exec.QueryFailedException on a runtime error (division by zero,
     *         overflow, a failed cast), naming this expression
     */
    ColumnVector evaluate(Batch batch);

    /**
     * For a BOOLEAN expression: writes the live rows of {@code batch} where it is TRUE (neither
     * FALSE nor NULL) to {@code out}, in ascending order, and returns how many there are: the
     * selection a filter keeps. Kernels that can decide it without building a BOOLEAN vector
     * override this; the default evaluates and scans.
     *
     * @param out room for at least {@code batch.size()} rows; not the batch's own selection array
     * @throws io.troupe.operators.exec.QueryFailedException as {@link #evaluate} does
     */
    default int select(Batch batch, int[] out) {
        return Kernels.select((BooleanVector) evaluate(batch), batch, out);
    }
}
