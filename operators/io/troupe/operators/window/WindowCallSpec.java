package io.troupe.operators.window;

import io.troupe.operators.types.DataType;

/**
 * One window function bound to the columns of the rows a window holds ({@link WindowSpec}): what it
 * computes, from which column, and how its result is typed.
 *
 * @param function    the function
 * @param value       the column of its value argument, or -1
 * @param fallback    LAG and LEAD: the column of the default, or -1 for NULL
 * @param offset      LAG and LEAD: how many rows back or ahead (at least 0); NTILE: the buckets (at least 1);
 *                    NTH_VALUE: which row of the frame (at least 1)
 * @param frame       the rows a framed function reads ({@link WindowFunction#framed})
 * @param ignoreNulls LAG, LEAD, FIRST_VALUE, LAST_VALUE and NTH_VALUE: skip the rows whose value is NULL
 * @param type        the result's type
 * @param text        the call as EXPLAIN and errors name it
 */
public record WindowCallSpec(WindowFunction function, int value, int fallback, long offset, WindowFrame frame,
                             boolean ignoreNulls, DataType type, String text) {
}
