package io.troupe.operators.plan;

import io.troupe.operators.agg.AggregateFunction;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.expr.Function;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Schema;
import io.troupe.operators.window.WindowFrame;
import io.troupe.operators.window.WindowFunction;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.troupe.operators.Arguments.noNulls;
import static io.troupe.operators.Arguments.notNull;

/**
 * A scalar expression of a plan, over named columns: the user-facing, unbound form. Build one
 * with the static factories ({@link #col}, {@link #lit}, {@link #sum} ...) and the fluent
 * operators ({@code col("a").plus(lit(1)).as("b")}). Validation binds it to a {@link Schema},
 * checking names and types, and yields the physical {@link Expression} that runs.
 *
 * <p>A null argument is rejected at once, naming it (an {@link IllegalArgumentException}); a SQL NULL
 * is {@link #nullOf}. Immutable and threadsafe. {@link #toString()} is SQL-like text, used by EXPLAIN and in
 * error messages.
 */
public sealed interface Expr permits ColumnRef, Literal, Parameter, Call, FunctionCall, UserCall, AggregateCall,
        WindowCall, Alias {

    /**
     * Resolves column names against {@code input} and checks types.
     *
     * @param where the plan node being validated, named in errors
     * @throws PlanException naming the column or expression and {@code where}
     */
    Expression bind(Schema input, String where);

    /** The sub-expressions, in order. */
    List<Expr> children();

    /** The name of the column this expression produces in a projection. */
    default String outputName() {
        return toString();
    }

    // ------------------------------------------------------------------ leaves

    /** A column, by {@code name} or {@code qualifier.name}; names match case-insensitively. */
    static Expr col(String reference) {
        return new ColumnRef(notNull(reference, "Expr.col", "reference"));
    }

    static Expr lit(int value) {
        return new Literal(value, DataType.INT32);
    }

    static Expr lit(long value) {
        return new Literal(value, DataType.INT64);
    }

    static Expr lit(double value) {
        return new Literal(value, DataType.FLOAT64);
    }

    /** A SMALLINT ({@link DataType#INT16}). */
    static Expr lit(short value) {
        return new Literal(value, DataType.INT16);
    }

    /** A TINYINT ({@link DataType#INT8}). */
    static Expr lit(byte value) {
        return new Literal(value, DataType.INT8);
    }

    /** A REAL ({@link DataType#FLOAT32}). */
    static Expr lit(float value) {
        return new Literal(value, DataType.FLOAT32);
    }

    static Expr lit(boolean value) {
        return new Literal(value, DataType.BOOLEAN);
    }

    static Expr lit(String value) {
        return new Literal(value, DataType.VARCHAR);
    }

    static Expr lit(LocalDate value) {
        return new Literal(value, DataType.DATE);
    }

    /** A TIMESTAMP (microseconds: finer digits are dropped). */
    static Expr lit(LocalDateTime value) {
        return new Literal(value, DataType.TIMESTAMP);
    }

    /** A TIMESTAMP_TZ (microseconds: finer digits are dropped). */
    static Expr lit(Instant value) {
        return new Literal(value, DataType.TIMESTAMP_TZ);
    }

    /** A TIME (microseconds: finer digits are dropped). */
    static Expr lit(LocalTime value) {
        return new Literal(value, DataType.TIME);
    }

    /** An INTERVAL of months, days and microseconds: {@code lit(Interval.parse("1 day 2 hours"))}. */
    static Expr lit(Interval value) {
        return new Literal(notNull(value, "Expr.lit", "value"), DataType.INTERVAL);
    }

    /** A UUID: {@code lit(UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"))}. */
    static Expr lit(java.util.UUID value) {
        return new Literal(notNull(value, "Expr.lit", "value"), DataType.UUID);
    }

    /** A BLOB of a copy of {@code value}'s bytes. */
    static Expr lit(byte[] value) {
        return new Literal(notNull(value, "Expr.lit", "value").clone(), DataType.BLOB);
    }

    /** An exact decimal literal: {@code lit(new BigDecimal("12.50"))} is DECIMAL(4,2). */
    static Expr lit(BigDecimal value) {
        notNull(value, "Expr.lit", "value");
        int scale = Math.max(0, value.scale());
        BigDecimal v = value.setScale(scale);
        return new Literal(v, DataType.decimal(Math.max(1, Math.max(v.precision(), scale)), scale));
    }

    /** A typed NULL. */
    static Expr nullOf(DataType type) {
        return new Literal(null, notNull(type, "Expr.nullOf", "type"));
    }

    // ------------------------------------------------------------------ arithmetic

    default Expr plus(Expr other) {
        return Call.of(Function.ADD, this, other);
    }

    default Expr minus(Expr other) {
        return Call.of(Function.SUBTRACT, this, other);
    }

    default Expr times(Expr other) {
        return Call.of(Function.MULTIPLY, this, other);
    }

    /** Integer division for integers (truncating; by zero is an error), exact-then-double for decimals. */
    default Expr div(Expr other) {
        return Call.of(Function.DIVIDE, this, other);
    }

    default Expr mod(Expr other) {
        return Call.of(Function.MODULO, this, other);
    }

    default Expr negate() {
        return Call.of(Function.NEGATE, this);
    }

    // ------------------------------------------------------------------ comparison and logic

    default Expr eq(Expr other) {
        return Call.of(Function.EQ, this, other);
    }

    default Expr ne(Expr other) {
        return Call.of(Function.NE, this, other);
    }

    default Expr lt(Expr other) {
        return Call.of(Function.LT, this, other);
    }

    default Expr le(Expr other) {
        return Call.of(Function.LE, this, other);
    }

    default Expr gt(Expr other) {
        return Call.of(Function.GT, this, other);
    }

    default Expr ge(Expr other) {
        return Call.of(Function.GE, this, other);
    }

    /** SQL three-valued AND: false wins over NULL. */
    default Expr and(Expr other) {
        return Call.of(Function.AND, this, other);
    }

    /** SQL three-valued OR: true wins over NULL. */
    default Expr or(Expr other) {
        return Call.of(Function.OR, this, other);
    }

    default Expr not() {
        return Call.of(Function.NOT, this);
    }

    default Expr isNull() {
        return Call.of(Function.IS_NULL, this);
    }

    default Expr isNotNull() {
        return Call.of(Function.IS_NOT_NULL, this);
    }

    /** {@code this IN (candidates)}, with SQL's NULL rules. */
    default Expr in(Expr... candidates) {
        List<Expr> args = new ArrayList<>();
        args.add(this);
        args.addAll(Arrays.asList(noNulls(candidates, "Expr.in", "candidates")));
        return new Call(Function.IN, args, null);
    }

    /** {@code low <= this AND this <= high}. */
    default Expr between(Expr low, Expr high) {
        return Call.of(Function.BETWEEN, this, low, high);
    }

    /**
     * SQL LIKE: {@code %} matches any run of characters, {@code _} exactly one, and a backslash makes the
     * character after it literal, as in PostgreSQL; {@code call("like_escape", ...)} names another escape,
     * {@code call("ilike_escape", ...)} ignores case (docs/sql/functions-string.md).
     */
    default Expr like(String pattern) {
        return Call.of(Function.LIKE, this, lit(notNull(pattern, "Expr.like", "pattern")));
    }

    /** {@code this || other}: the two strings one after the other; NULL when either is NULL (SQL's operator). */
    default Expr concatenate(Expr other) {
        return Call.of(Function.CONCAT, this, other);
    }

    default Expr cast(DataType type) {
        return new Call(Function.CAST, List.of(this), notNull(type, "Expr.cast", "type"));
    }

    /**
     * A cast whose local time is read in {@code zone}: between TIMESTAMP_TZ and TIMESTAMP, DATE, TIME or
     * VARCHAR (an instant's text shows that zone's offset); {@link #cast(DataType)} takes UTC.
     */
    default Expr cast(DataType type, ZoneId zone) {
        return new Call(Function.CAST, List.of(this, lit(notNull(zone, "Expr.cast", "zone").getId())),
                notNull(type, "Expr.cast", "type"));
    }

    // ------------------------------------------------------------------ functions

    /**
     * A call of the scalar function {@code name} (any case; {@code sqrt}, {@code greatest} ... of
     * docs/sql/functions-*.md), checked against its signatures when the plan is validated.
     */
    static Expr call(String name, Expr... args) {
        return new FunctionCall(name, Arrays.asList(noNulls(args, "Expr.call", "args")));
    }

    static Expr coalesce(Expr... values) {
        return new Call(Function.COALESCE, Arrays.asList(noNulls(values, "Expr.coalesce", "values")), null);
    }

    /** {@code substring(value FROM start FOR length)}, start counting from 1, in characters. */
    static Expr substring(Expr value, int start, int length) {
        return Call.of(Function.SUBSTRING, value, lit(start), lit(length));
    }

    /** {@code concat(values...)}: the strings one after the other, NULLs skipped (never NULL, as in DuckDB). */
    static Expr concat(Expr... values) {
        return new Call(Function.CONCAT_FUNCTION, Arrays.asList(noNulls(values, "Expr.concat", "values")), null);
    }

    static Expr upper(Expr value) {
        return Call.of(Function.UPPER, value);
    }

    static Expr lower(Expr value) {
        return Call.of(Function.LOWER, value);
    }

    static Expr length(Expr value) {
        return Call.of(Function.LENGTH, value);
    }

    static Expr year(Expr date) {
        return Call.of(Function.EXTRACT_YEAR, date);
    }

    static Expr month(Expr date) {
        return Call.of(Function.EXTRACT_MONTH, date);
    }

    static Expr day(Expr date) {
        return Call.of(Function.EXTRACT_DAY, date);
    }

    /**
     * {@code date_part('field', value)}: a field of a DATE, TIMESTAMP, TIMESTAMP_TZ (in UTC) or TIME, as SQL's
     * EXTRACT names them ({@code year}, {@code dow}, {@code epoch}, ...; see {@link io.troupe.operators.types.DateField}).
     */
    static Expr datePart(String field, Expr value) {
        return Call.of(Function.DATE_PART, lit(notNull(field, "Expr.datePart", "field")), value);
    }

    /** {@code date} moved by {@code days} days (an INT32 or INT64 expression; negative: earlier). */
    static Expr addDays(Expr date, Expr days) {
        return Call.of(Function.ADD_DAYS, date, days);
    }

    /** {@code date} moved by {@code months} months, its day clamped to the month's last (Jan 31 + 1: Feb 28/29). */
    static Expr addMonths(Expr date, Expr months) {
        return Call.of(Function.ADD_MONTHS, date, months);
    }

    /** A TIMESTAMP, TIMESTAMP_TZ or TIME moved by {@code micros} microseconds (a TIME wraps around midnight). */
    static Expr addMicros(Expr time, Expr micros) {
        return Call.of(Function.ADD_MICROS, time, micros);
    }

    /**
     * {@code time} moved by {@code interval} (an INTERVAL expression), a TIMESTAMP_TZ's months and days in the
     * local time of {@code zone} (a day over a change of clocks is 23 or 25 hours); {@code time.plus(interval)}
     * moves one in UTC.
     */
    static Expr addInterval(Expr time, Expr interval, String zone) {
        return Call.of(Function.ADD_INTERVAL, time, interval, lit(notNull(zone, "Expr.addInterval", "zone")));
    }

    /**
     * {@code time} moved by {@code interval} as {@code time.plus(interval)}, but a DATE into a DATE, by the interval's
     * months and days (one with a time of day fails), as SQL's {@code date + interval} is typed.
     */
    static Expr addInterval(Expr time, Expr interval) {
        return Call.of(Function.ADD_INTERVAL, time, interval);
    }

    /** {@code round(value, digits)}: half away from zero, to {@code digits} decimal places. */
    static Expr round(Expr value, int digits) {
        return call("round", value, lit(digits));
    }

    /** {@code CASE WHEN condition THEN result ...}: continue with {@code when}, close with {@code otherwise} or {@code end}. */
    static CaseBuilder caseWhen(Expr condition, Expr result) {
        return new CaseBuilder(List.of(notNull(condition, "Expr.caseWhen", "condition"),
                notNull(result, "Expr.caseWhen", "result")));
    }

    /** Collects the WHEN arms of a CASE expression. Immutable. */
    final class CaseBuilder {
        private final List<Expr> arms;

        private CaseBuilder(List<Expr> arms) {
            this.arms = arms;
        }

        public CaseBuilder when(Expr condition, Expr result) {
            List<Expr> more = new ArrayList<>(arms);
            more.add(notNull(condition, "Expr.CaseBuilder.when", "condition"));
            more.add(notNull(result, "Expr.CaseBuilder.when", "result"));
            return new CaseBuilder(more);
        }

        public Expr otherwise(Expr elseResult) {
            List<Expr> args = new ArrayList<>(arms);
            args.add(notNull(elseResult, "Expr.CaseBuilder.otherwise", "elseResult"));
            return new Call(Function.CASE, args, null);
        }

        /** No ELSE: NULL when no arm matches. */
        public Expr end() {
            List<Expr> args = new ArrayList<>(arms);
            args.add(new Literal(null, null));
            return new Call(Function.CASE, args, null);
        }
    }

    // ------------------------------------------------------------------ aggregates

    static Expr count() {
        return new AggregateCall(AggregateFunction.COUNT_STAR, null, false);
    }

    static Expr count(Expr value) {
        return new AggregateCall(AggregateFunction.COUNT, value, false);
    }

    static Expr countDistinct(Expr value) {
        return new AggregateCall(AggregateFunction.COUNT, value, true);
    }

    static Expr sum(Expr value) {
        return new AggregateCall(AggregateFunction.SUM, value, false);
    }

    static Expr min(Expr value) {
        return new AggregateCall(AggregateFunction.MIN, value, false);
    }

    static Expr max(Expr value) {
        return new AggregateCall(AggregateFunction.MAX, value, false);
    }

    static Expr avg(Expr value) {
        return new AggregateCall(AggregateFunction.AVG, value, false);
    }

    /** The sample variance of the non-NULL values, a DOUBLE: NULL for fewer than two. */
    static Expr varSamp(Expr value) {
        return new AggregateCall(AggregateFunction.VAR_SAMP, value, false);
    }

    /** The population variance of the non-NULL values, a DOUBLE: NULL for none. */
    static Expr varPop(Expr value) {
        return new AggregateCall(AggregateFunction.VAR_POP, value, false);
    }

    /** The square root of {@link #varSamp}. */
    static Expr stddevSamp(Expr value) {
        return new AggregateCall(AggregateFunction.STDDEV_SAMP, value, false);
    }

    /** The square root of {@link #varPop}. */
    static Expr stddevPop(Expr value) {
        return new AggregateCall(AggregateFunction.STDDEV_POP, value, false);
    }

    /**
     * The value of the group's one row, NULL without rows; a group of two rows or more fails the query with "more
     * than one row returned by a subquery used as an expression" (what a scalar subquery must be).
     */
    static Expr singleValue(Expr value) {
        return new AggregateCall(AggregateFunction.SINGLE_VALUE, value, false);
    }

    /** The median of the non-NULL values, a DOUBLE (for a DECIMAL its type; of VARCHARs the lower middle one). */
    static Expr median(Expr value) {
        return new AggregateCall(AggregateFunction.MEDIAN, value, false);
    }

    /**
     * {@code percentile_cont(fraction) WITHIN GROUP (ORDER BY key)}: the value at {@code fraction} (0 to 1) of the
     * ordered non-NULL values, interpolated between the two nearest, a DOUBLE.
     */
    static Expr percentileCont(double fraction, SortKey key) {
        return new AggregateCall(AggregateFunction.PERCENTILE_CONT, List.of(lit(fraction)), false, List.of(key));
    }

    /**
     * {@code percentile_disc(fraction) WITHIN GROUP (ORDER BY key)}: the first value, in that order, at or past
     * {@code fraction} (0 to 1) of the non-NULL values, of the key's type.
     */
    static Expr percentileDisc(double fraction, SortKey key) {
        return new AggregateCall(AggregateFunction.PERCENTILE_DISC, List.of(lit(fraction)), false, List.of(key));
    }

    /** {@code mode() WITHIN GROUP (ORDER BY key)}: the most frequent non-NULL value, the first of equals by key. */
    static Expr mode(SortKey key) {
        return new AggregateCall(AggregateFunction.MODE, List.of(), false, List.of(key));
    }

    /** The non-NULL VARCHAR values joined by {@code separator}, in the order of {@code order} (else as they come). */
    static Expr stringAgg(Expr value, String separator, SortKey... order) {
        return new AggregateCall(AggregateFunction.STRING_AGG,
                List.of(value, new Literal(separator, DataType.VARCHAR)), false, List.of(order));
    }

    /** True when every non-NULL BOOLEAN value is true, NULL without one. */
    static Expr boolAnd(Expr value) {
        return new AggregateCall(AggregateFunction.BOOL_AND, value, false);
    }

    /** True when some non-NULL BOOLEAN value is true, NULL without one. */
    static Expr boolOr(Expr value) {
        return new AggregateCall(AggregateFunction.BOOL_OR, value, false);
    }

    /** The correlation coefficient of the pairs (y, x) where neither is NULL, a DOUBLE; NULL where x or y is fixed. */
    static Expr corr(Expr y, Expr x) {
        return pair(AggregateFunction.CORR, y, x);
    }

    /** The population covariance of the pairs (y, x) where neither is NULL, a DOUBLE. */
    static Expr covarPop(Expr y, Expr x) {
        return pair(AggregateFunction.COVAR_POP, y, x);
    }

    /** The sample covariance of the pairs (y, x) where neither is NULL, a DOUBLE; NULL for fewer than two. */
    static Expr covarSamp(Expr y, Expr x) {
        return pair(AggregateFunction.COVAR_SAMP, y, x);
    }

    /** The slope of the least-squares line of y over x, a DOUBLE; NULL where x is constant. */
    static Expr regrSlope(Expr y, Expr x) {
        return pair(AggregateFunction.REGR_SLOPE, y, x);
    }

    /** The y-intercept of the least-squares line of y over x, a DOUBLE; NULL where x is constant. */
    static Expr regrIntercept(Expr y, Expr x) {
        return pair(AggregateFunction.REGR_INTERCEPT, y, x);
    }

    /** The square of the correlation coefficient, a DOUBLE: 1 where y is constant, NULL where x is. */
    static Expr regrR2(Expr y, Expr x) {
        return pair(AggregateFunction.REGR_R2, y, x);
    }

    /** The pairs (y, x) where neither is NULL, a BIGINT. */
    static Expr regrCount(Expr y, Expr x) {
        return pair(AggregateFunction.REGR_COUNT, y, x);
    }

    /** The mean of x over the pairs (y, x) where neither is NULL, a DOUBLE. */
    static Expr regrAvgx(Expr y, Expr x) {
        return pair(AggregateFunction.REGR_AVGX, y, x);
    }

    /** The mean of y over the pairs (y, x) where neither is NULL, a DOUBLE. */
    static Expr regrAvgy(Expr y, Expr x) {
        return pair(AggregateFunction.REGR_AVGY, y, x);
    }

    /** The sum of squares of x's differences from its mean, over the pairs (y, x) where neither is NULL. */
    static Expr regrSxx(Expr y, Expr x) {
        return pair(AggregateFunction.REGR_SXX, y, x);
    }

    /** The sum of squares of y's differences from its mean, over the pairs (y, x) where neither is NULL. */
    static Expr regrSyy(Expr y, Expr x) {
        return pair(AggregateFunction.REGR_SYY, y, x);
    }

    /** The sum of products of x's and y's differences from their means, over the pairs where neither is NULL. */
    static Expr regrSxy(Expr y, Expr x) {
        return pair(AggregateFunction.REGR_SXY, y, x);
    }

    private static Expr pair(AggregateFunction function, Expr y, Expr x) {
        return new AggregateCall(function, List.of(notNull(y, "Expr." + function.sqlName(), "y"),
                notNull(x, "Expr." + function.sqlName(), "x")), false, List.of());
    }

    /** An estimate of count(DISTINCT value) (exact up to a thousand values a group, then within about 1%). */
    static Expr approxCountDistinct(Expr value) {
        return new AggregateCall(AggregateFunction.APPROX_COUNT_DISTINCT, value, false);
    }

    /** A value near {@code fraction} (0 to 1) of the ordered non-NULL values, of their type. */
    static Expr approxQuantile(Expr value, double fraction) {
        return new AggregateCall(AggregateFunction.APPROX_QUANTILE, List.of(value, lit(fraction)), false, List.of());
    }

    // ------------------------------------------------------------------ window functions (Plan.window)

    /** 1, 2, 3 ... in the partition's order. */
    static Expr rowNumber() {
        return window(WindowFunction.ROW_NUMBER);
    }

    /** 1 + the rows before the row's peers: ties share a rank, and leave gaps after them. */
    static Expr rank() {
        return window(WindowFunction.RANK);
    }

    /** 1 + the peer groups before the row's: ties share a rank, without gaps. */
    static Expr denseRank() {
        return window(WindowFunction.DENSE_RANK);
    }

    /** (rank - 1) / (rows of the partition - 1), 0 for a partition of one row. */
    static Expr percentRank() {
        return window(WindowFunction.PERCENT_RANK);
    }

    /** The share of the partition's rows up to the row's last peer. */
    static Expr cumeDist() {
        return window(WindowFunction.CUME_DIST);
    }

    /** The bucket, 1..buckets, of the row, the partition cut into {@code buckets} as equal as can be. */
    static Expr ntile(long buckets) {
        return new WindowCall(WindowFunction.NTILE, List.of(lit(buckets)), WindowFrame.DEFAULT, false);
    }

    /** {@code value} of the row before in the partition, NULL for the first. */
    static Expr lag(Expr value) {
        return lag(value, 1);
    }

    /** {@code value} of the row {@code offset} rows before, NULL where there is none. */
    static Expr lag(Expr value, long offset) {
        return shift(WindowFunction.LAG, value, offset, null);
    }

    /** {@code value} of the row {@code offset} rows before, {@code fallback} (of the same type) where there is none. */
    static Expr lag(Expr value, long offset, Expr fallback) {
        return shift(WindowFunction.LAG, value, offset, notNull(fallback, "Expr.lag", "fallback"));
    }

    /** {@code value} of the row after in the partition, NULL for the last. */
    static Expr lead(Expr value) {
        return lead(value, 1);
    }

    static Expr lead(Expr value, long offset) {
        return shift(WindowFunction.LEAD, value, offset, null);
    }

    static Expr lead(Expr value, long offset, Expr fallback) {
        return shift(WindowFunction.LEAD, value, offset, notNull(fallback, "Expr.lead", "fallback"));
    }

    /** {@code value} of the first row of the frame (default: the partition's first row). */
    static Expr firstValue(Expr value) {
        return new WindowCall(WindowFunction.FIRST_VALUE, List.of(notNull(value, "Expr.firstValue", "value")),
                WindowFrame.DEFAULT, false);
    }

    /** {@code value} of the last row of the frame (default: the row's last peer). */
    static Expr lastValue(Expr value) {
        return new WindowCall(WindowFunction.LAST_VALUE, List.of(notNull(value, "Expr.lastValue", "value")),
                WindowFrame.DEFAULT, false);
    }

    /** {@code value} of the frame's {@code n}-th row (from 1), NULL when the frame has fewer. */
    static Expr nthValue(Expr value, long n) {
        return new WindowCall(WindowFunction.NTH_VALUE, List.of(notNull(value, "Expr.nthValue", "value"), lit(n)),
                WindowFrame.DEFAULT, false);
    }

    private static Expr window(WindowFunction function) {
        return new WindowCall(function, List.of(), WindowFrame.DEFAULT, false);
    }

    private static Expr shift(WindowFunction function, Expr value, long offset, Expr fallback) {
        notNull(value, "Expr." + function.sqlName(), "value");
        List<Expr> args = fallback == null ? List.of(value, lit(offset)) : List.of(value, lit(offset), fallback);
        return new WindowCall(function, args, WindowFrame.DEFAULT, false);
    }

    /**
     * This aggregate ({@code sum(x)}, {@code count()} ...) or window function as a window function over
     * {@code frame} instead of the default one, keeping its name if it has one.
     *
     * @throws IllegalArgumentException for any other expression, or count(DISTINCT)
     */
    default Expr over(WindowFrame frame) {
        notNull(frame, "Expr.over", "frame");
        return WindowCall.change(this, "Expr.over", call -> call.withFrame(frame));
    }

    /**
     * This window function skipping the rows whose value is NULL: SQL's IGNORE NULLS, which lag, lead,
     * first_value, last_value and nth_value take.
     *
     * @throws IllegalArgumentException for any other expression
     */
    default Expr ignoreNulls() {
        return WindowCall.change(this, "Expr.ignoreNulls", WindowCall::ignoringNulls);
    }

    // ------------------------------------------------------------------ naming and ordering

    /** Names the column this expression produces. */
    default Expr as(String name) {
        return new Alias(this instanceof Alias a ? a.expr() : this, notNull(name, "Expr.as", "name"));
    }

    /** Ascending, NULLs last (PostgreSQL's default). */
    default SortKey asc() {
        return new SortKey(this, true, false);
    }

    /** Descending, NULLs first (PostgreSQL's default). */
    default SortKey desc() {
        return new SortKey(this, false, true);
    }
}
