package io.troupe.formats.parquet;

import io.troupe.operators.batch.VectorBuilder;
import org.apache.parquet.column.ColumnReader;

/**
 * Appends the current (non-NULL) value of a Parquet column reader to a Troupe vector, converted to the column's
 * Troupe type ({@link ParquetTypes}). Stateless; implementations are threadsafe.
 */
@FunctionalInterface
interface ColumnDecoder {

    /**
     * @throws IllegalArgumentException naming what is wrong with a value that has no Troupe value (an INTERVAL that
     *                                  is past Troupe's, a timestamp out of range)
     */
    void append(ColumnReader values, VectorBuilder out);
}
