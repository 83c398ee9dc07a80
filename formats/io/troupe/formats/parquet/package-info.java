/**
 * Parquet files as Troupe tables: {@link io.troupe.formats.parquet.ParquetFiles} loads a file (or the columns of
 * it a caller names) into an {@link io.troupe.operators.table.Table}; {@code bin/troupe sql --load DIR} registers
 * each {@code .parquet} file of the folder through it.
 *
 * <p>It reads with parquet-java's file reader and column decoders (footer, pages, dictionary and the standard
 * encodings), without Hadoop: {@code ReadOptions} makes the read options Hadoop-free and {@code PureJavaCodecs}
 * decompresses pages with aircompressor's pure-Java codecs and the JDK's GZIP, so that no native code is loaded.
 * {@code ParquetTypes} maps Parquet's types to Troupe's and refuses, naming the column, what has no Troupe type.
 * {@code ParquetFile} reads one row group at a time, the unit of work of a parallel read. docs/parquet.md is the
 * user's page.
 *
 * <p>This package depends on operators' batches, types and tables; operators never on it.
 */
package io.troupe.formats.parquet;
