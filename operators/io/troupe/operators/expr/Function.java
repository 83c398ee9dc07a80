package io.troupe.operators.expr;

/**
 * The operators and the special forms of a plan's {@code Expr} (CASE, CAST, IN, ...) and the functions
 * that predate the {@link FunctionRegistry}; every named function lives in the registry.
 * {@code symbol} is the SQL spelling used by EXPLAIN and error messages: an infix operator for the
 * binary operators, a function name otherwise.
 */
public enum Function {
    ADD("+", true),
    SUBTRACT("-", true),
    MULTIPLY("*", true),
    DIVIDE("/", true),
    MODULO("%", true),
    NEGATE("-", false),
    EQ("=", true),
    NE("<>", true),
    LT("<", true),
    LE("<=", true),
    GT(">", true),
    GE(">=", true),
    AND("AND", true),
    OR("OR", true),
    NOT("NOT", false),
    IS_NULL("IS NULL", false),
    IS_NOT_NULL("IS NOT NULL", false),
    /** args: value, candidates... */
    IN("IN", false),
    /** args: value, low, high (inclusive) */
    BETWEEN("BETWEEN", false),
    /** args: value, pattern (a VARCHAR literal with % and _, a backslash escaping the character after it) */
    LIKE("LIKE", true),
    /** args: condition1, result1, condition2, result2, ..., else-result (a NULL literal when absent) */
    CASE("CASE", false),
    COALESCE("coalesce", false),
    /** args: value; the target type is the call's cast type */
    CAST("CAST", false),
    /** args: value, start (1-based), length */
    SUBSTRING("substring", false),
    UPPER("upper", false),
    LOWER("lower", false),
    /** characters (code points), not bytes */
    LENGTH("length", false),
    EXTRACT_YEAR("year", false),
    EXTRACT_MONTH("month", false),
    EXTRACT_DAY("day", false),
    /**
     * args: field (a VARCHAR literal: 'year', 'dow', 'epoch', ...), value (DATE, TIMESTAMP, TIMESTAMP_TZ or
     * TIME): {@code date_part('dow', t)}, SQL's {@code EXTRACT(DOW FROM t)}
     */
    DATE_PART("date_part", false),
    /**
     * args: date or timestamp, days (INT32 or INT64): that many days later, earlier when negative (a TIMESTAMP
     * keeps its time of day)
     */
    ADD_DAYS("add_days", false),
    /**
     * args: date or timestamp, months (INT32 or INT64): that many months later, the day clamped to the month's
     * last (2024-01-31 plus one month is 2024-02-29), as SQL, DuckDB and PostgreSQL add a month interval
     */
    ADD_MONTHS("add_months", false),
    /**
     * args: TIMESTAMP, TIMESTAMP_TZ or TIME, microseconds (INT64): that much later, earlier when negative; a
     * TIME wraps around midnight
     */
    ADD_MICROS("add_micros", false),
    /**
     * args: DATE, TIMESTAMP, TIMESTAMP_TZ or TIME, INTERVAL, and for a TIMESTAMP_TZ optionally a time zone (a
     * VARCHAR literal): {@code t + i} with a TIMESTAMP_TZ's months and days counted in that zone's local time, as
     * SQL adds an interval in the session's zone, and a DATE moved into a DATE (by months and days only)
     */
    ADD_INTERVAL("add_interval", false),
    /** args: two VARCHARs: {@code a || b}, NULL when either is NULL */
    CONCAT("||", true),
    /** args: one or more VARCHARs: {@code concat(a, ...)}, NULL arguments skipped, so never NULL (as DuckDB) */
    CONCAT_FUNCTION("concat", false);

    private final String symbol;
    private final boolean infix;

    Function(String symbol, boolean infix) {
        this.symbol = symbol;
        this.infix = infix;
    }

    public String symbol() {
        return symbol;
    }

    /** True for binary operators written between their operands. */
    public boolean isInfix() {
        return infix;
    }
}
