package io.troupe.operators.table;

/**
 * What the planner knows of one column of a table ({@link TableStatistics}).
 *
 * @param distinct how many distinct non-NULL values it holds: a HyperLogLog estimate (0.8% standard
 *                 error, nearly exact below some 40,000), never more than its non-NULL rows
 * @param nulls    how many rows are NULL, exactly
 * @param min      its least non-NULL value as a query returns it (Integer, Long, BigDecimal, Double,
 *                 LocalDate, Boolean or String), null when every row is NULL
 * @param max      its greatest, likewise
 * @param unique   true when no two rows hold the same value and none is NULL, checked exactly; the
 *                 planner may rely on it (a key)
 * @param repeats  the share of non-NULL rows equal to the non-NULL row before them in the table's order
 *                 (within each of its chunks):
 *                 how clustered the column is (TPC-DS store_sales.ss_sold_date_sk 0.91, a ticket's lines
 *                 sharing a date; about 1/distinct in random order); 0 for fewer than two such rows
 */
public record ColumnStatistics(long distinct, long nulls, Object min, Object max, boolean unique, double repeats) {
}
