/**
 * CSV and TSV files with their dialect, header and column types detected as DuckDB's sniffer detects them
 * (docs/files.md). {@link io.troupe.formats.csv.CsvSniffer} reads a sample and returns a
 * {@link io.troupe.formats.csv.CsvDetection}: the {@link io.troupe.operators.table.DelimitedFormat} and the
 * {@link io.troupe.operators.types.Schema} under which {@link io.troupe.operators.table.DelimitedFileLoader}
 * then loads the whole file in one pass; {@link io.troupe.formats.csv.CsvOptions} overrides any detected choice.
 *
 * <pre>
 *   sample     the first sampleRows records (20,480, or the whole file) as text
 *   dialect    delimiter , | ; TAB x quote " ' none: the most rows of one field count, then more fields
 *   types      per column from the most specific down: BOOLEAN TIME DATE TIMESTAMP TIMESTAMP_TZ BIGINT
 *              HUGEINT DOUBLE VARCHAR; a non-ISO date takes the first spelling that parses, for the file
 *   header     row 0 is a header when every column is VARCHAR or one of its values does not cast
 *   overrides  every option the caller set replaces what was detected
 * </pre>
 */
package io.troupe.formats.csv;
