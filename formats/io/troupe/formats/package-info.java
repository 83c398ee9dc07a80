/**
 * Readers (and, later, writers) of the file formats that analytic data comes in: CSV and TSV as their publishers
 * write them ({@link io.troupe.formats.csv}), and in time Parquet, Arrow and JSON. A layer of its own, as DuckDB
 * keeps Parquet in an extension and Trino keeps its connectors apart: it turns a file into a
 * {@link io.troupe.operators.table.Table} of the engine's batches and types, depends on operators for those
 * (and for the table loaders), and nothing in operators or transport imports it (ArchitectureTest says so), so
 * that the engine grows no format's weight. {@link io.troupe.formats.FileTables} picks the reader by the file's
 * name; the facade ({@code Troupe.register(name, path)}) and the command line ({@code sql --load DIR}) call it.
 */
package io.troupe.formats;
