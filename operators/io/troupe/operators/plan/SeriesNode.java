package io.troupe.operators.plan;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.scan.SeriesSource;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code generate_series(start, stop [, step])} (stop included) and DuckDB's {@code range(start, stop [, step])}
 * (stop excluded) as a one-column relation: integers (INT32 when every argument is, else INT64), or TIMESTAMPs from a
 * DATE or TIMESTAMP start by an INTERVAL step of months ({@link SeriesSource#monthly}, the day clamped to each month's
 * last as PostgreSQL's timestamp arithmetic does) or of days and time (a day counting 24 hours, as in a TIMESTAMP
 * without time zone: {@link SeriesSource#fixed}); a step of both is refused. The arguments are constant expressions
 * (literals, parameters, arithmetic of them), evaluated once when the query compiles; a NULL among them makes an
 * empty series, as in PostgreSQL, and a zero step fails the query ("step size cannot equal zero").
 *
 * <p>Immutable and threadsafe.
 */
final class SeriesNode extends Plan {

    private final String column;
    private final Expr start;
    private final Expr stop;
    /** The step: an integer (null for 1), or a time series' INTERVAL. */
    private final Expr step;
    /** generate_series (the stop included) or range (excluded). */
    private final boolean inclusive;

    SeriesNode(String column, Expr start, Expr stop, Expr step, boolean inclusive) {
        this.column = column;
        this.start = start;
        this.stop = stop;
        this.step = step;
        this.inclusive = inclusive;
    }

    String column() {
        return column;
    }

    Expr start() {
        return start;
    }

    Expr stop() {
        return stop;
    }

    Expr step() {
        return step;
    }

    boolean inclusive() {
        return inclusive;
    }

    @Override
    public List<Plan> children() {
        return List.of();
    }

    @Override
    public String label() {
        List<String> args = new ArrayList<>(List.of(start.toString(), stop.toString()));
        if (step != null) {
            args.add(step.toString());
        }
        return "Series " + column + " = " + function() + "(" + String.join(", ", args) + ")";
    }

    private String function() {
        return inclusive ? "generate_series" : "range";
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        return Schema.of(new Field(null, column, type(), false));
    }

    /** The column's type, once the arguments' types are checked. */
    private DataType type() {
        DataType a = start.bind(Schema.of(), label()).type();
        DataType b = stop.bind(Schema.of(), label()).type();
        DataType c = step == null ? DataType.INT32 : step.bind(Schema.of(), label()).type();
        if (c.id() == TypeId.INTERVAL) {
            if (!temporal(a) || !temporal(b)) {
                throw signatures(a, b, c.toString());
            }
            return DataType.TIMESTAMP;
        }
        if (!integer(a) || !integer(b) || !integer(c)) {
            throw signatures(a, b, step == null ? null : c.toString());
        }
        return a.id() == TypeId.INT32 && b.id() == TypeId.INT32 && c.id() == TypeId.INT32 ? DataType.INT32
                : DataType.INT64;
    }

    private static boolean integer(DataType t) {
        return t.id() == TypeId.INT32 || t.id() == TypeId.INT64;
    }

    private static boolean temporal(DataType t) {
        return t.id() == TypeId.DATE || t.id() == TypeId.TIMESTAMP;
    }

    private PlanException signatures(DataType a, DataType b, String c) {
        return new PlanException(label(), "no " + function() + "(" + a + ", " + b + (c == null ? "" : ", " + c)
                + "); " + function() + " takes (start, stop [, step]) of integers, or (start, stop, interval) of"
                + " DATEs or TIMESTAMPs");
    }

    @Override
    Plan withParameters(ParameterBinding binding) {
        return new SeriesNode(column, binding.expr(start), binding.expr(stop), step == null ? null : binding.expr(step),
                inclusive);
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        return compiler.source(source());
    }

    /**
     * The rows this series makes (at most Long.MAX_VALUE), for a join's choice of broadcast or repartition. Runs
     * after validation.
     */
    long rows() {
        return source().rows();
    }

    /** The source of this series, its arguments evaluated. */
    private SeriesSource source() {
        DataType type = type();
        Long first = value(start);
        Long last = value(stop);
        if (type.id() == TypeId.TIMESTAMP) {
            Interval by = interval(step);
            if (first == null || last == null || by == null) {
                return SeriesSource.fixed(type, 0, -1, 1, true);
            }
            if (by.months() != 0 && (by.days() != 0 || by.micros() != 0)) {
                throw new PlanException(label(), "a step of months and of days or time together (" + by + ") is not "
                        + "supported; step by months or by days and time");
            }
            return by.months() != 0 ? SeriesSource.monthly(first, last, by.months(), inclusive)
                    : SeriesSource.fixed(type, first, last, nonZero(dayMicros(by)), inclusive);
        }
        Long by = step == null ? Long.valueOf(1) : value(step);
        if (first == null || last == null || by == null) {
            return SeriesSource.fixed(type, 0, -1, 1, true);
        }
        return SeriesSource.fixed(type, first, last, nonZero(by), inclusive);
    }

    private long nonZero(long by) {
        if (by == 0) {
            throw new QueryDataException(QueryDataException.Kind.INVALID_ARGUMENT, function()
                    + ": step size cannot equal zero (" + label() + ")");
        }
        return by;
    }

    /** An interval step of days and time as microseconds, a day counting 24 hours. */
    private long dayMicros(Interval by) {
        try {
            return Math.addExact(Math.multiplyExact((long) by.days(), Timestamps.MICROS_PER_DAY), by.micros());
        } catch (ArithmeticException e) {
            throw new QueryDataException(QueryDataException.Kind.OVERFLOW, "step out of range in " + label());
        }
    }

    /** A constant INTERVAL argument's value; null for NULL. */
    private Interval interval(Expr argument) {
        ColumnVector v = argument.bind(Schema.of(), label()).evaluate(Batch.of(1));
        return v.isNull(0) ? null : (Interval) v.getObject(0);
    }

    /** A constant argument's value: an integer, or a DATE's or TIMESTAMP's microseconds; null for NULL. */
    private Long value(Expr argument) {
        ColumnVector v = argument.bind(Schema.of(), label()).evaluate(Batch.of(1));
        if (v.isNull(0)) {
            return null;
        }
        if (v instanceof IntVector i) {
            return v.type().id() == TypeId.DATE ? Timestamps.ofDay(i.get(0)) : i.get(0);
        }
        return ((LongVector) v).get(0);
    }
}
