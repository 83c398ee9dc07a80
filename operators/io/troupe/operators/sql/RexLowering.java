package io.troupe.operators.sql;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.expr.ExpressionTypeException;
import io.troupe.operators.expr.Function;
import io.troupe.operators.expr.FunctionRegistry;
import io.troupe.operators.expr.ScalarFunction;
import io.troupe.operators.plan.Call;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Literal;
import io.troupe.operators.plan.Parameter;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Schema;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;

import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCallBinding;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BinaryOperator;

/**
 * One Calcite row expression as a Troupe {@link Expr}, its input fields read as the named columns
 * {@code columns} (one per field, in order). What Troupe's expressions have: arithmetic, comparisons,
 * AND/OR/NOT, IS [NOT] NULL, IS [NOT] TRUE/FALSE (as COALESCE), [NOT] LIKE [ESCAPE] and [NOT] ILIKE, CASE, COALESCE,
 * CAST, substring/upper/lower/char_length, {@code ||} and concat, OVERLAY, EXTRACT(YEAR/MONTH/DAY), the functions of
 * the {@link FunctionRegistry} by name (and TRIM, POSITION and translate, which Calcite's parser binds to operators of
 * its own, and the operators {@code &} and {@code <<} as its bitand and leftshift), and literals of every mapped type.
 * Calcite's SEARCH (an IN list or a BETWEEN, folded into ranges) is expanded back into comparisons
 * first, an IN list into Troupe's IN. A parameter ({@code ?}) becomes a {@link Parameter} of the type Calcite's validator gave it,
 * recorded in {@code parameters} by position, for the prepared statement to check each value against.
 * Anything else is refused by name.
 */
final class RexLowering {

    private final List<String> columns;
    private final RexBuilder rexBuilder;
    private final Map<Integer, DataType> parameters;
    /** The session's time zone, which conversions between local and absolute times read local time in, and now. */
    private final StatementClock clock;

    RexLowering(List<String> columns, RexBuilder rexBuilder, Map<Integer, DataType> parameters, StatementClock clock) {
        this.columns = columns;
        this.rexBuilder = rexBuilder;
        this.parameters = parameters;
        this.clock = clock;
    }

    /** A lowering in UTC, for expressions that hold no times with a zone (a window's arguments). */
    RexLowering(List<String> columns, RexBuilder rexBuilder, Map<Integer, DataType> parameters) {
        this(columns, rexBuilder, parameters, StatementClock.utc());
    }

    Expr lower(RexNode node) {
        if (node instanceof RexInputRef ref) {
            return Expr.col(columns.get(ref.getIndex()));
        }
        if (node instanceof RexLiteral literal) {
            if (literal.getType().getSqlTypeName() == SqlTypeName.NULL) {
                throw new UnsupportedSqlException("a NULL of no type (write CAST(NULL AS INTEGER) or another type)");
            }
            return literal(literal, SqlTypes.toTroupe(literal.getType()), clock);
        }
        if (node instanceof RexCall call) {
            return call(call);
        }
        if (node instanceof RexDynamicParam param) {
            Parameter lowered = new Parameter(param.getIndex() + 1, SqlTypes.toTroupe(param.getType()));
            parameters.put(lowered.position(), lowered.type());
            return lowered;
        }
        throw new UnsupportedSqlException(switch (node.getKind()) {
            case CORREL_VARIABLE, FIELD_ACCESS -> "correlated subqueries that cannot be decorrelated (" + node + ")";
            case SCALAR_QUERY, EXISTS, IN, SOME, ALL -> "subqueries here (" + node + ")";
            default -> "expression " + node;
        });
    }

    private Expr call(RexCall call) {
        if (DateIntervals.isIntervalArithmetic(call)) {
            return DateIntervals.lower(call, this::lower, clock.zone());
        }
        List<RexNode> ops = call.getOperands();
        SqlOperator op = call.getOperator();
        return switch (call.getKind()) {
            case SEARCH -> search(RexUtil.expandSearch(rexBuilder, null, call));
            case AND -> fold(ops, Expr::and);
            case OR -> fold(ops, Expr::or);
            case NOT -> lower(ops.get(0)).not();
            case IS_NULL -> lower(ops.get(0)).isNull();
            case IS_NOT_NULL -> lower(ops.get(0)).isNotNull();
            case IS_TRUE -> Expr.coalesce(lower(ops.get(0)), Expr.lit(false));
            case IS_NOT_TRUE -> Expr.coalesce(lower(ops.get(0)).not(), Expr.lit(true));
            case IS_FALSE -> Expr.coalesce(lower(ops.get(0)).not(), Expr.lit(false));
            case IS_NOT_FALSE -> Expr.coalesce(lower(ops.get(0)), Expr.lit(true));
            case EQUALS -> lower(ops.get(0)).eq(lower(ops.get(1)));
            case NOT_EQUALS -> lower(ops.get(0)).ne(lower(ops.get(1)));
            case LESS_THAN -> lower(ops.get(0)).lt(lower(ops.get(1)));
            case LESS_THAN_OR_EQUAL -> lower(ops.get(0)).le(lower(ops.get(1)));
            case GREATER_THAN -> lower(ops.get(0)).gt(lower(ops.get(1)));
            case GREATER_THAN_OR_EQUAL -> lower(ops.get(0)).ge(lower(ops.get(1)));
            case PLUS -> lower(ops.get(0)).plus(lower(ops.get(1)));
            case MINUS -> lower(ops.get(0)).minus(lower(ops.get(1)));
            case TIMES -> lower(ops.get(0)).times(lower(ops.get(1)));
            case DIVIDE -> lower(ops.get(0)).div(lower(ops.get(1)));
            case MOD -> lower(ops.get(0)).mod(lower(ops.get(1)));
            case MINUS_PREFIX -> lower(ops.get(0)).negate();
            case PLUS_PREFIX -> lower(ops.get(0));
            case LIKE -> like(call);
            // PostgreSQL's ~ (StatementText): whether the pattern matches somewhere in the text.
            case RLIKE -> Expr.call("regexp_matches", text(ops.get(0)), text(ops.get(1)));
            case CASE -> new Call(Function.CASE, lowerAll(ops), null);
            case COALESCE -> Expr.coalesce(lowerAll(ops).toArray(Expr[]::new));
            case CAST -> cast(ops.get(0), SqlTypes.toTroupe(call.getType()));
            case EXTRACT -> extract(call);
            // CASE WHEN a IS NULL THEN b IS NULL WHEN b IS NULL THEN FALSE ELSE a = b END, or its negation.
            case IS_NOT_DISTINCT_FROM, IS_DISTINCT_FROM -> lower(RelOptUtil.isDistinctFrom(rexBuilder, ops.get(0),
                    ops.get(1), call.getKind() == SqlKind.IS_NOT_DISTINCT_FROM));
            default -> function(call, op);
        };
    }

    private Expr function(RexCall call, SqlOperator op) {
        List<RexNode> ops = call.getOperands();
        if (op == SqlStdOperatorTable.CURRENT_TIMESTAMP || op == SqlStdOperatorTable.LOCALTIMESTAMP
                || op == SqlStdOperatorTable.CURRENT_DATE || op == SqlStdOperatorTable.CURRENT_TIME
                || op == SqlStdOperatorTable.LOCALTIME) {
            return now(SqlTypes.toTroupe(call.getType()));
        }
        if (op == SqlStdOperatorTable.UPPER) {
            return Expr.upper(text(ops.get(0)));
        }
        if (op == SqlStdOperatorTable.LOWER) {
            return Expr.lower(text(ops.get(0)));
        }
        if (op == SqlStdOperatorTable.CHAR_LENGTH || op == SqlStdOperatorTable.CHARACTER_LENGTH
                || op == SqlLibraryOperators.LENGTH) {
            // Of a BLOB, its bytes (PostgreSQL's length(bytea)): not of the text Calcite's coercion casts it to.
            RexNode arg = ops.get(0);
            boolean blob = arg.getKind() == SqlKind.CAST
                    && SqlTypeUtil.isBinary(((RexCall) arg).getOperands().get(0).getType());
            // An INTEGER in Calcite and PostgreSQL (Troupe's length is a BIGINT, as DuckDB's): typed as Calcite typed
            // it, or a cast to INTEGER of it, which Calcite drops, would leave a BIGINT where it planned an INTEGER.
            return Expr.length(text(blob ? ((RexCall) arg).getOperands().get(0) : arg))
                    .cast(SqlTypes.toTroupe(call.getType()));
        }
        if (op == SqlStdOperatorTable.SUBSTRING || op == SqlLibraryOperators.SUBSTR_POSTGRESQL) {
            List<Expr> args = lowerAll(ops);
            if (ops.size() == 3) {
                return new Call(Function.SUBSTRING, args, null);
            }
            // substring(s FROM start) to the end, as PostgreSQL and Calcite's substr(s, start): a start before the
            // first character is the first.
            Expr start = args.get(1);
            return new Call(Function.SUBSTRING, List.of(args.get(0), Expr.caseWhen(start.lt(Expr.lit(1)), Expr.lit(1))
                    .otherwise(start), Expr.lit((long) Integer.MAX_VALUE)), null);
        }
        if (op == SqlStdOperatorTable.CONCAT) {
            return lower(ops.get(0)).concatenate(lower(ops.get(1)));
        }
        if (op == SqlStdOperatorTable.OVERLAY) {
            return overlay(lowerAll(ops));
        }
        if (op == SqlLibraryOperators.CONCAT_FUNCTION_WITH_NULL) {
            return Expr.concat(lowerAll(ops).toArray(Expr[]::new));
        }
        if (op == SqlLibraryOperators.IFNULL || op == SqlLibraryOperators.NVL) {
            return Expr.coalesce(lowerAll(ops).toArray(Expr[]::new));
        }
        if (op == SqlStdOperatorTable.BITXOR_OPERATOR) {
            throw new UnsupportedSqlException("the operator ^, which is a power in PostgreSQL and DuckDB and an "
                    + "exclusive or in Calcite's parser: write power(a, b) or xor(a, b) (in " + call + ")");
        }
        if (op.getKind() == SqlKind.TRIM) {
            return trim(call);
        }
        if (op.getKind() == SqlKind.POSITION && ops.size() == 2) {
            // POSITION(sub IN s), INTEGER in Calcite and PostgreSQL; strpos is a BIGINT, as DuckDB's.
            return Expr.call("strpos", lower(ops.get(1)), lower(ops.get(0))).cast(SqlTypes.toTroupe(call.getType()));
        }
        if ((op.getKind() == SqlKind.FLOOR || op.getKind() == SqlKind.CEIL) && ops.size() == 2) {
            return roundTime(call, op.getKind() == SqlKind.CEIL);
        }
        if (op == SqlLibraryOperators.TRANSLATE3) {
            return Expr.call("translate", lowerAll(ops).toArray(Expr[]::new));
        }
        // The bit operators that Calcite's parser reads, as the registry's functions.
        String name = op == SqlStdOperatorTable.BITAND_OPERATOR ? "bitand"
                : op == SqlStdOperatorTable.BIT_LEFT_SHIFT ? "leftshift" : op.getName();
        ScalarFunction registered = op instanceof RegistryFunction own ? own.function()
                : FunctionRegistry.builtIn().find(name);
        if (registered != null) {
            return registryCall(name, call, registered);
        }
        throw new UnsupportedSqlException("function or operator " + op.getName() + " (in " + call + ")");
    }

    /**
     * FLOOR(t TO unit), as date_trunc(unit, t), and CEIL(t TO unit), the first boundary of the unit at or after
     * t (an instant's, of its local time in the session's zone): of the type Calcite gave them (a DATE stays a
     * DATE).
     */
    private Expr roundTime(RexCall call, boolean up) {
        String unit = ((RexLiteral) call.getOperands().get(1)).getValueAs(TimeUnitRange.class).name().toLowerCase(Locale.ROOT);
        RexNode operand = call.getOperands().get(0);
        boolean instant = SqlTypes.toTroupe(operand.getType()).id() == TypeId.TIMESTAMP_TZ;
        if (instant && !up) {
            return SessionZoneCalls.lower("date_trunc", List.of(Expr.lit(unit), lower(operand)),
                    List.of(DataType.VARCHAR, DataType.TIMESTAMP_TZ), clock);
        }
        Expr value = instant ? lower(operand).cast(DataType.TIMESTAMP, clock.zone()) : lower(operand);
        Expr floor = Expr.call("date_trunc", Expr.lit(unit), value);
        Expr rounded = up ? Expr.caseWhen(floor.eq(value), floor)
                .otherwise(floor.plus(Expr.lit(Interval.parse(switch (unit) {
                    case "quarter" -> "3 months";
                    case "decade" -> "10 years";
                    case "century" -> "100 years";
                    case "millennium" -> "1000 years";
                    default -> "1 " + unit;
                })))) : floor;
        return instant ? rounded.cast(DataType.TIMESTAMP_TZ, clock.zone())
                : rounded.cast(SqlTypes.toTroupe(call.getType()));
    }

    /**
     * CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_DATE, CURRENT_TIME, LOCALTIME: the statement's instant as a
     * literal of {@code type}, the local date and time in the session's zone (Calcite types CURRENT_TIMESTAMP as
     * a TIMESTAMP, the SQL standard's; PostgreSQL's is a TIMESTAMP WITH TIME ZONE of the same local time).
     */
    private Expr now(DataType type) {
        long local = Timestamps.toLocal(Timestamps.fromInstant(clock.now()), clock.zone().getRules());
        return switch (type.id()) {
            case DATE -> Expr.lit(Dates.toLocalDate(Timestamps.day(local)));
            case TIME -> Expr.lit(Timestamps.toLocalTime(Timestamps.timeOfDay(local)));
            case TIMESTAMP_TZ -> Expr.lit(clock.now());
            default -> Expr.lit(Timestamps.toLocalDateTime(local));
        };
    }

    /**
     * A call of the registry's function {@code name}: the registry's own operators ({@link RegistryFunction})
     * and those of Calcite's that the parser binds (CEIL, FLOOR, the operators & and <<). Where Calcite typed its
     * operator otherwise than the registry types the call ({@code CEIL(INTEGER)}: INTEGER; the registry, as
     * DuckDB: DOUBLE), the result is cast to Calcite's type, so that the plan's types are the validator's. The date
     * and time functions read a TIMESTAMP WITH TIME ZONE in the session's zone, and now() is the statement's instant
     * ({@link SessionZoneCalls}).
     */
    private Expr registryCall(String name, RexCall call, ScalarFunction function) {
        List<RexNode> operands = call.getOperands();
        List<DataType> known = new ArrayList<>(operands.size());
        for (RexNode o : operands) {
            known.add(isTypelessNull(o) ? null : SqlTypes.toTroupe(o.getType()));
        }
        // A NULL of no type (upper(NULL)) takes its parameter's type, as PostgreSQL resolves an unknown literal.
        ScalarFunction.Resolution resolution = function.resolve(known);
        List<DataType> types = new ArrayList<>(known);
        List<Expr> args = new ArrayList<>(operands.size());
        for (int i = 0; i < operands.size(); i++) {
            if (types.get(i) == null) {
                DataType target = resolution == null ? null : resolution.types().get(i);
                types.set(i, target == null ? DataType.VARCHAR : target);
                args.add(Expr.nullOf(types.get(i)));
            } else {
                args.add(lower(operands.get(i)));
            }
        }
        Expr lowered = SessionZoneCalls.lower(name, args, types, clock);
        DataType own;
        try {
            own = RegistryFunction.troupeType(function, RexCallBinding.create(rexBuilder.getTypeFactory(), call,
                    List.of()));
        } catch (ExpressionTypeException e) {
            throw new UnsupportedSqlException(e.getMessage() + " (in " + call + ")");
        }
        DataType validated = SqlTypes.toTroupe(call.getType());
        return own.equals(validated) ? lowered : lowered.cast(validated);
    }

    /**
     * LIKE, as Troupe's LIKE (a backslash escapes, as in PostgreSQL); with ESCAPE, or ILIKE (Calcite's NOT ILIKE
     * arrives as NOT over ILIKE), as the registry's like_escape and ilike_escape, the escape a backslash unless
     * named.
     */
    private Expr like(RexCall call) {
        List<RexNode> ops = call.getOperands();
        for (RexNode operand : ops.subList(1, ops.size())) {
            if (!(operand instanceof RexLiteral)) {
                throw new UnsupportedSqlException("LIKE with a pattern or escape that is not a literal (" + call + ")");
            }
        }
        boolean ignoreCase = call.getOperator() == SqlLibraryOperators.ILIKE;
        if (ops.size() == 2 && !ignoreCase) {
            return lower(ops.get(0)).like(((RexLiteral) ops.get(1)).getValueAs(String.class));
        }
        Expr escape = ops.size() == 3 ? lower(ops.get(2)) : Expr.lit("\\");
        return Expr.call(ignoreCase ? "ilike_escape" : "like_escape", lower(ops.get(0)), lower(ops.get(1)), escape);
    }

    /**
     * OVERLAY(s PLACING t FROM n [FOR m]) as PostgreSQL defines it: {@code substring(s, 1, n - 1) || t ||
     * substring(s FROM n + m)}, m being t's length unless given.
     */
    private static Expr overlay(List<Expr> args) {
        Expr s = args.get(0);
        Expr t = args.get(1);
        Expr n = args.get(2).cast(DataType.INT64);
        Expr m = (args.size() == 4 ? args.get(3) : Expr.length(t)).cast(DataType.INT64);
        Expr head = new Call(Function.SUBSTRING, List.of(s, Expr.lit(1L), n.minus(Expr.lit(1L))), null);
        Expr tail = new Call(Function.SUBSTRING, List.of(s, n.plus(m), Expr.lit((long) Integer.MAX_VALUE)), null);
        return head.concatenate(t).concatenate(tail);
    }

    /** {@code node} where text is taken: a NULL of no type is a VARCHAR's. */
    private Expr text(RexNode node) {
        return isTypelessNull(node) ? Expr.nullOf(DataType.VARCHAR) : lower(node);
    }

    private static boolean isTypelessNull(RexNode node) {
        return node instanceof RexLiteral literal && literal.getType().getSqlTypeName() == SqlTypeName.NULL;
    }

    /** TRIM([BOTH | LEADING | TRAILING] [characters] FROM s) as the registry's btrim, ltrim or rtrim. */
    private Expr trim(RexCall call) {
        List<RexNode> ops = call.getOperands();
        String name = switch (((RexLiteral) ops.get(0)).getValueAs(SqlTrimFunction.Flag.class)) {
            case BOTH -> "btrim";
            case LEADING -> "ltrim";
            case TRAILING -> "rtrim";
        };
        return Expr.call(name, lower(ops.get(2)), lower(ops.get(1)));
    }

    /**
     * EXTRACT(field FROM t) as {@code date_part}; a TIMESTAMP WITH TIME ZONE's fields but its epoch are those of its
     * local time in the session's zone, as PostgreSQL counts them.
     */
    private Expr extract(RexCall call) {
        TimeUnitRange unit = ((RexLiteral) call.getOperands().get(0)).getValueAs(TimeUnitRange.class);
        RexNode value = call.getOperands().get(1);
        Expr lowered = lower(value);
        if (SqlTypes.toTroupe(value.getType()).id() == TypeId.TIMESTAMP_TZ && unit != TimeUnitRange.EPOCH) {
            lowered = lowered.cast(DataType.TIMESTAMP, clock.zone());
        }
        String field = switch (unit) {
            case YEAR, QUARTER, MONTH, WEEK, DAY, DOW, ISODOW, DOY, ISOYEAR, DECADE, CENTURY, MILLENNIUM, HOUR, MINUTE,
                    SECOND, MILLISECOND, MICROSECOND, EPOCH -> unit.name();
            default -> throw new UnsupportedSqlException("EXTRACT(" + unit + " FROM ...)");
        };
        return Expr.datePart(field.toLowerCase(Locale.ROOT), lowered);
    }

    /**
     * A cast of a literal becomes a literal of the target type; a cast to the type a value has already, nothing; a
     * cast between TIMESTAMP WITH TIME ZONE and another type reads local time in the session's zone.
     */
    private Expr cast(RexNode operand, DataType target) {
        if (operand instanceof RexLiteral literal) {
            return literal(literal, target, clock);
        }
        DataType source = SqlTypes.toTroupe(operand.getType());
        if (source.equals(target)) {
            return lower(operand);
        }
        return zoned(lower(operand), source, target, clock.zone());
    }

    /** {@code e} of type {@code source} cast to {@code target}, in {@code zone} where one side has a zone. */
    private static Expr zoned(Expr e, DataType source, DataType target, ZoneId zone) {
        boolean fromInstant = source.id() == TypeId.TIMESTAMP_TZ;
        boolean toInstant = target.id() == TypeId.TIMESTAMP_TZ;
        return fromInstant != toInstant ? e.cast(target, zone) : e.cast(target);
    }

    /** A literal of VALUES as its column's {@code type}, as a cast would read it, in the statement's zone. */
    static Literal constant(RexLiteral literal, DataType type, StatementClock clock) {
        return literal(literal, type, clock);
    }

    /**
     * A literal as {@code type}: its own value converted as CAST converts it (text as CAST reads it, a TIMESTAMP
     * WITH TIME ZONE's local time in the statement's zone), or a literal NULL.
     *
     * @throws QueryDataException when text is no value of {@code type}, in PostgreSQL's words
     */
    private static Literal literal(RexLiteral literal, DataType type, StatementClock clock) {
        if (literal.isNull()) {
            return new Literal(null, type);
        }
        DataType source = SqlTypes.toTroupe(literal.getType());
        if (source.id() == TypeId.VARCHAR && type.id() != TypeId.VARCHAR) {
            return literal(literal.getValueAs(String.class), type, clock.zone());
        }
        if (!source.equals(type)) {
            return value(zoned(literal(literal, source, clock), source, type, clock.zone()), type);
        }
        Object value = switch (type.id()) {
            case INT32 -> exact(literal, 0).intValueExact();
            case INT64 -> exact(literal, 0).longValueExact();
            case INT16 -> exact(literal, 0).shortValueExact();
            case INT8 -> exact(literal, 0).byteValueExact();
            case FLOAT64 -> literal.getValueAs(Double.class);
            // Through the cast, which rounds to the nearest float and refuses one past the floats.
            case FLOAT32 -> value(Expr.lit(literal.getValueAs(Double.class)).cast(type), type).value();
            case DECIMAL -> exact(literal, type.scale());
            case DATE -> LocalDate.ofEpochDay(literal.getValueAs(DateString.class).getDaysSinceEpoch());
            case BOOLEAN -> literal.getValueAs(Boolean.class);
            case VARCHAR -> literal.getValueAs(String.class);
            case TIMESTAMP -> Timestamps.toLocalDateTime(
                    Timestamps.parseTimestamp(literal.getValueAs(TimestampString.class).toString()));
            case TIMESTAMP_TZ -> Timestamps.toInstant(Timestamps.parseInstant(
                    literal.getValueAs(TimestampString.class).toString(), clock.zone()));
            case TIME -> Timestamps.toLocalTime(Timestamps.parseTime(literal.getValueAs(TimeString.class).toString()));
            case INTERVAL -> DateIntervals.value(literal);
            case UUID -> literal.getValueAs(java.util.UUID.class);
            case BLOB -> literal.getValueAs(org.apache.calcite.avatica.util.ByteString.class).getBytes();
        };
        return new Literal(value, type);
    }

    /**
     * The literal a constant expression (a cast of a literal) of {@code type} evaluates to; an expression that fails
     * throws the error it would throw at run time.
     */
    private static Literal value(Expr constant, DataType type) {
        ColumnVector v = constant.bind(Schema.of(), "a constant").evaluate(Batch.of(1));
        return new Literal(v.getObject(0), type);
    }

    /** A numeric literal's value rounded (half away from zero) to {@code scale} digits after the point. */
    private static BigDecimal exact(RexLiteral literal, int scale) {
        return literal.getValueAs(BigDecimal.class).setScale(scale, RoundingMode.HALF_UP);
    }

    /**
     * A string literal cast to {@code type}, as CAST reads text at run time ({@code CAST('2024-01-31' AS DATE)});
     * text that is no such value fails here, as it would there.
     */
    private static Literal literal(String text, DataType type, ZoneId zone) {
        return value(zoned(Expr.lit(text), DataType.VARCHAR, type, zone), type);
    }

    /**
     * A SEARCH, expanded: an IN list (Calcite's OR of equalities of one value with literals) as Troupe's IN, one
     * lookup in a sorted set per row where an OR tests each candidate in turn (TPC-DS q8's 400 zip codes: 2.3 s
     * for 50,000 addresses as ORs), NOT IN (an AND of {@code <>}) as its negation; anything else as it expands.
     */
    private Expr search(RexNode expanded) {
        SqlKind each = expanded.getKind() == SqlKind.OR ? SqlKind.EQUALS
                : expanded.getKind() == SqlKind.AND ? SqlKind.NOT_EQUALS : null;
        if (each == null) {
            return lower(expanded);
        }
        RexNode value = null;
        List<Expr> candidates = new ArrayList<>();
        for (RexNode operand : ((RexCall) expanded).getOperands()) {
            if (operand.getKind() != each) {
                return lower(expanded);
            }
            List<RexNode> sides = ((RexCall) operand).getOperands();
            if (!(sides.get(1) instanceof RexLiteral) || value != null && !value.equals(sides.get(0))) {
                return lower(expanded);
            }
            value = sides.get(0);
            candidates.add(lower(sides.get(1)));
        }
        Expr in = lower(value).in(candidates.toArray(new Expr[0]));
        return each == SqlKind.EQUALS ? in : in.not();
    }

    private Expr fold(List<RexNode> operands, BinaryOperator<Expr> combine) {
        Expr result = lower(operands.get(0));
        for (int i = 1; i < operands.size(); i++) {
            result = combine.apply(result, lower(operands.get(i)));
        }
        return result;
    }

    private List<Expr> lowerAll(List<RexNode> operands) {
        List<Expr> out = new ArrayList<>(operands.size());
        for (RexNode operand : operands) {
            out.add(lower(operand));
        }
        return out;
    }
}
