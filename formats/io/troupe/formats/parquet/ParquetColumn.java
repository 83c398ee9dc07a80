package io.troupe.formats.parquet;

import io.troupe.operators.types.Field;
import org.apache.parquet.column.ColumnDescriptor;

/**
 * One flat Parquet column as Troupe reads it: its Troupe field, where it is in the file, and how its values
 * convert. Immutable and threadsafe.
 */
record ParquetColumn(Field field, ColumnDescriptor descriptor, ColumnDecoder decoder) {
}
