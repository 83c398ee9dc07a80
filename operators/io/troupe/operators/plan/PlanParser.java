package io.troupe.operators.plan;

import io.troupe.config.TimeZones;
import io.troupe.operators.agg.AggregateFunction;
import io.troupe.operators.plan.PlanLexer.Kind;
import io.troupe.operators.plan.PlanLexer.Token;
import io.troupe.operators.types.Blobs;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.Uuids;
import io.troupe.operators.window.FrameBound;
import io.troupe.operators.window.WindowFrame;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.Period;
import java.time.format.DateTimeParseException;
import java.time.temporal.TemporalAmount;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Parses plan text into a {@link Plan}, through the public builder API only ({@link Plan},
 * {@link Expr}, {@link SortKey}, {@link JoinType}), so a plan file runs exactly what a user's code
 * would build. The golden tests and {@code bin/troupe loadtest} read their plans with it; the
 * grammar is in docs/plan-format.md:
 *
 * <pre>{@code
 * Plan plan = PlanParser.parse("scan t | filter a > 1 | aggregate by b : count(*) as n");
 * }</pre>
 *
 * <p>Expressions bind, loosest first: {@code OR}, {@code AND}, {@code NOT}, the predicates
 * (comparison, {@code IS [NOT] NULL}, {@code [NOT] IN}, {@code [NOT] BETWEEN}, {@code [NOT] LIKE}),
 * {@code + -}, {@code * / %}, unary minus. The parser checks syntax and arity only; names and
 * types are Troupe's to check (a {@link PlanException} when the plan is validated), so that
 * errors in names and types read the same whether a plan was parsed or built in code. A syntax
 * error is a {@link PlanSyntaxException} naming the source, line and column.
 *
 * <p>The static entry points are threadsafe; each call reads its text with a parser of its own.
 */
public final class PlanParser {

    /**
     * A parsed plan, and whether its top-level rows come out in a defined order: its last
     * row-reordering step is a sort (only as, filter, project, having or limit follow it).
     */
    public record ParsedPlan(Plan plan, boolean ordered) {
    }

    private static final Set<String> JOIN_TYPES = Set.of("inner", "left", "right", "full", "semi", "anti",
            "right_semi", "right_anti");
    private static final Set<String> ONE_ARGUMENT = Set.of("upper", "lower", "length", "year", "month", "day");
    /**
     * Each aggregate function by its name (count names COUNT; count(*) is read apart; one of one's own is a call by
     * name, which the Troupe that runs the plan binds).
     */
    private static final Map<String, AggregateFunction> AGGREGATE_NAMES = Arrays.stream(AggregateFunction.values())
            .filter(f -> f != AggregateFunction.COUNT_STAR && f != AggregateFunction.OWN)
            .collect(Collectors.toMap(AggregateFunction::sqlName, f -> f));
    private static final Set<String> AGGREGATES = AGGREGATE_NAMES.keySet();
    private static final Set<String> WINDOW_FUNCTIONS = Set.of("row_number", "rank", "dense_rank", "percent_rank",
            "cume_dist", "ntile", "lag", "lead", "first_value", "last_value", "nth_value");

    private final String source;
    private final List<Token> tokens;
    /** The plans {@code with} declared, by lower-case name. */
    private final Map<String, Plan> shared = new HashMap<>();
    /** The work tables of the recursive unions whose recursive term is being read, by lower-case name. */
    private final Map<String, Plan> workTables = new HashMap<>();
    private int pos;

    private PlanParser(String source, List<Token> tokens) {
        this.source = source;
        this.tokens = tokens;
    }

    /**
     * Parses one plan, its errors named as in source "plan" from line 1.
     *
     * @throws PlanSyntaxException at the first syntax error
     */
    public static Plan parse(String text) {
        return parse(text, 1, "plan").plan();
    }

    /**
     * Parses one plan that a file holds from line {@code firstLine}, with its top-level ordering.
     *
     * @param text      the plan text
     * @param firstLine the source's line the text starts on
     * @param source    the file name (or other source), for errors
     * @throws PlanSyntaxException naming the source, line and column of the first syntax error
     */
    public static ParsedPlan parse(String text, int firstLine, String source) {
        PlanParser p = new PlanParser(source, PlanLexer.tokenize(text, firstLine, source));
        p.sharedSubplans();
        ParsedPlan plan = p.plan();
        if (p.peek().kind() != Kind.END) {
            throw p.error("expected '|' or the end of the plan but found " + p.peek().describe());
        }
        return plan;
    }

    /**
     * Parses one expression, its errors named as in {@code source} from line 1.
     *
     * @throws PlanSyntaxException at the first syntax error
     */
    public static Expr parseExpression(String text, String source) {
        PlanParser p = new PlanParser(source, PlanLexer.tokenize(text, 1, source));
        Expr e = p.expr();
        if (p.peek().kind() != Kind.END) {
            throw p.error("unexpected " + p.peek().describe() + " after the expression");
        }
        return e;
    }

    // ------------------------------------------------------------------ plans

    /** {@code with name as (plan)}, any number: each subplan {@link Plan#share shared} under its name, for {@code cte name}. */
    private void sharedSubplans() {
        while (acceptKeyword("with")) {
            Token at = peek();
            String name = identifier("a shared subplan's name");
            expectKeyword("as");
            expectSymbol("(");
            Plan subplan = plan().plan();
            expectSymbol(")");
            if (shared.putIfAbsent(name.toLowerCase(Locale.ROOT), subplan.share(name)) != null) {
                throw error(at, "shared subplan " + name + " is declared twice");
            }
        }
    }

    private ParsedPlan plan() {
        Plan plan = source();
        boolean ordered = false;
        while (acceptSymbol("|")) {
            Token step = next();
            String kw = step.kind() == Kind.IDENT ? step.text().toLowerCase(Locale.ROOT) : "";
            switch (kw) {
                case "as" -> plan = plan.as(identifier("an alias"));
                case "filter" -> plan = plan.filter(expr());
                case "project" -> plan = plan.project(namedList().toArray(new Expr[0]));
                case "join" -> {
                    plan = join(plan);
                    ordered = false;
                }
                case "aggregate" -> {
                    plan = aggregate(plan);
                    ordered = false;
                }
                case "having" -> plan = plan.having(expr());
                case "window" -> {
                    plan = window(plan);
                    ordered = false;
                }
                case "sort" -> {
                    plan = plan.sort(sortKeys().toArray(new SortKey[0]));
                    ordered = true;
                }
                case "limit" -> plan = limit(plan);
                case "union" -> {
                    expectKeyword("all");
                    plan = plan.unionAll(source());
                    ordered = false;
                }
                case "distinct" -> {
                    plan = plan.distinct();
                    ordered = false;
                }
                case "pin" -> plan = plan.pin();
                default -> throw error(step, "expected a step (as, filter, project, join, aggregate, having, window, "
                        + "sort, limit, union all, distinct, pin) but found " + step.describe());
            }
        }
        return new ParsedPlan(plan, ordered);
    }

    /**
     * {@code scan t [as a]}, {@code series x 1 10}, {@code cte w [as a]} or {@code (plan) [as a]}: the start of a plan
     * and the other input of a join or union.
     */
    private Plan source() {
        if (acceptSymbol("(")) {
            Plan inner = plan().plan();
            expectSymbol(")");
            return acceptKeyword("as") ? inner.as(identifier("an alias")) : inner;
        }
        Token t = next();
        if (t.isKeyword("scan")) {
            Plan scan = Plan.scan(identifier("a table name"));
            return acceptKeyword("as") ? scan.as(identifier("an alias")) : scan;
        }
        if (t.isKeyword("cte")) {
            Token name = peek();
            Plan use = shared.get(identifier("a shared subplan's name").toLowerCase(Locale.ROOT));
            if (use == null) {
                throw error(name, "no shared subplan " + name.text() + ": declare it before the plan with 'with "
                        + name.text() + " as (plan)'");
            }
            return acceptKeyword("as") ? use.as(identifier("an alias")) : use;
        }
        if (t.isKeyword("series") || t.isKeyword("range")) {
            return series(t.isKeyword("series"));
        }
        if (t.isKeyword("recursive")) {
            return recursive();
        }
        if (t.isKeyword("worktable")) {
            Token name = peek();
            Plan table = workTables.get(identifier("a recursive union's name").toLowerCase(Locale.ROOT));
            if (table == null) {
                throw error(name, "no work table " + name.text() + " here: it is read only inside the recursive term"
                        + " of 'recursive " + name.text() + " (...) (...)'");
            }
            return acceptKeyword("as") ? table.as(identifier("an alias")) : table;
        }
        throw error(t, "expected a plan (scan, series, range, cte, recursive, worktable or '(') but found "
                + t.describe());
    }

    /**
     * {@code series x start stop [by step]} ({@link Plan#series}) or {@code range x start stop [by step]}
     * ({@link Plan#range}): start, stop and an integer step are expressions without a binary operator at their top
     * ({@code 1}, {@code -5}, {@code (2 * 3)}, {@code date '2024-01-01'}); a time step is a count and a unit
     * ({@code by 1 month}, {@code by 7 days}, {@code by 3600000000 microseconds}).
     */
    private Plan series(boolean inclusive) {
        String column = identifier("a column name");
        Expr start = wide(unary());
        Expr stop = wide(unary());
        if (!acceptKeyword("by")) {
            return inclusive ? Plan.series(column, start, stop) : Plan.range(column, start, stop);
        }
        Expr step = wide(unary());
        Token unit = peek();
        String u = unit.kind() == Kind.IDENT ? unit.text().toLowerCase(Locale.ROOT) : "";
        TemporalAmount time = switch (u) {
            case "month", "months" -> Period.ofMonths(Math.toIntExact(timeCount(step, unit)));
            case "day", "days" -> Period.ofDays(Math.toIntExact(timeCount(step, unit)));
            case "microsecond", "microseconds" -> Duration.ofNanos(Math.multiplyExact(timeCount(step, unit), 1000L));
            default -> null;
        };
        if (time == null) {
            return inclusive ? Plan.series(column, start, stop, step) : Plan.range(column, start, stop, step);
        }
        next();
        return inclusive ? Plan.series(column, start, stop, time) : Plan.range(column, start, stop, time);
    }

    /** An INT32 literal as INT64: a plan's series of integer literals is an INT64 column. */
    private static Expr wide(Expr e) {
        return e instanceof Literal l && l.value() instanceof Integer i ? Expr.lit((long) i) : e;
    }

    /**
     * {@code recursive r [all] (seed) (step)}: {@link Plan#recursiveUnion}, its recursive term {@code step} reading the
     * work table as {@code worktable r [as alias]}.
     */
    private Plan recursive() {
        String name = identifier("a recursive union's name");
        boolean all = acceptKeyword("all");
        expectSymbol("(");
        Plan seed = plan().plan();
        expectSymbol(")");
        expectSymbol("(");
        String key = name.toLowerCase(Locale.ROOT);
        Plan union = seed.recursiveUnion(name, all, table -> {
            Plan outer = workTables.put(key, table);
            try {
                return plan().plan();
            } finally {
                if (outer == null) {
                    workTables.remove(key);
                } else {
                    workTables.put(key, outer);
                }
            }
        });
        expectSymbol(")");
        return union;
    }

    /** The count of a time step's unit: an integer literal. */
    private long timeCount(Expr step, Token unit) {
        if (step instanceof Literal l && (l.value() instanceof Integer || l.value() instanceof Long)) {
            return ((Number) l.value()).longValue();
        }
        throw error(unit, "a time step counts its " + unit.text() + " with an integer, found " + step);
    }

    private Plan join(Plan left) {
        JoinType type = JoinType.INNER;
        if (peek().kind() == Kind.IDENT && JOIN_TYPES.contains(peek().text().toLowerCase(Locale.ROOT))) {
            type = JoinType.valueOf(next().text().toUpperCase(Locale.ROOT));
        }
        Plan right = source();
        expectKeyword("on");
        return left.join(right, type, expr());
    }

    /** {@code aggregate [by keys] [: aggregates]}. */
    private Plan aggregate(Plan input) {
        List<Expr> keys = new ArrayList<>();
        if (acceptKeyword("by")) {
            keys = namedList();
        }
        List<Expr> aggregates = new ArrayList<>();
        if (acceptSymbol(":")) {
            aggregates = namedList();
        }
        return input.aggregate(keys, aggregates.toArray(new Expr[0]));
    }

    /**
     * {@code window [partition by keys] [order by sort keys] : functions}, each
     * {@code f(...) [ignore nulls | respect nulls] [frame] [as name]}.
     */
    private Plan window(Plan input) {
        List<Expr> partitionBy = new ArrayList<>();
        List<SortKey> orderBy = new ArrayList<>();
        if (acceptKeyword("partition")) {
            expectKeyword("by");
            do {
                partitionBy.add(expr());
            } while (acceptSymbol(","));
        }
        if (acceptKeyword("order")) {
            expectKeyword("by");
            orderBy = sortKeys();
        }
        expectSymbol(":");
        List<Expr> functions = new ArrayList<>();
        do {
            Expr f = windowCall();
            if (peek().isKeyword("ignore") || peek().isKeyword("respect")) {
                boolean ignore = next().isKeyword("ignore");
                expectKeyword("nulls");
                f = ignore ? f.ignoreNulls() : f;
            }
            if (peek().isKeyword("rows") || peek().isKeyword("range") || peek().isKeyword("groups")) {
                f = f.over(frame());
            }
            functions.add(acceptKeyword("as") ? f.as(identifier("a column name")) : f);
        } while (acceptSymbol(","));
        return input.window(partitionBy, orderBy, functions.toArray(new Expr[0]));
    }

    /** A window function or an aggregate, as a call. */
    private Expr windowCall() {
        Token name = next();
        String f = name.kind() == Kind.IDENT ? name.text().toLowerCase(Locale.ROOT) : "";
        if (!WINDOW_FUNCTIONS.contains(f) && !AGGREGATES.contains(f)) {
            throw error(name, "expected a window function (" + String.join(", ", WINDOW_FUNCTIONS.stream().sorted()
                    .toList()) + ") or an aggregate but found " + name.describe());
        }
        expectSymbol("(");
        if (AGGREGATES.contains(f)) {
            return aggregateCall(name, f);
        }
        List<Expr> args = arguments();
        switch (f) {
            case "ntile" -> {
                arity(name, args, 1);
                return Expr.ntile(intLiteral(name, args.get(0)));
            }
            case "lag", "lead" -> {
                if (args.isEmpty() || args.size() > 3) {
                    throw error(name, f + " takes 1 to 3 arguments, got " + args.size());
                }
                long offset = args.size() > 1 ? intLiteral(name, args.get(1)) : 1;
                boolean lag = f.equals("lag");
                if (args.size() == 3) {
                    return lag ? Expr.lag(args.get(0), offset, args.get(2))
                            : Expr.lead(args.get(0), offset, args.get(2));
                }
                return lag ? Expr.lag(args.get(0), offset) : Expr.lead(args.get(0), offset);
            }
            case "first_value", "last_value" -> {
                arity(name, args, 1);
                return f.equals("first_value") ? Expr.firstValue(args.get(0)) : Expr.lastValue(args.get(0));
            }
            case "nth_value" -> {
                arity(name, args, 2);
                return Expr.nthValue(args.get(0), intLiteral(name, args.get(1)));
            }
            default -> {
                arity(name, args, 0);
                return switch (f) {
                    case "row_number" -> Expr.rowNumber();
                    case "rank" -> Expr.rank();
                    case "dense_rank" -> Expr.denseRank();
                    case "percent_rank" -> Expr.percentRank();
                    default -> Expr.cumeDist();
                };
            }
        }
    }

    /**
     * {@code rows|range|groups between bound and bound [exclude current row|group|ties|no others]}; a bound is
     * {@code unbounded preceding|following}, {@code current row}, or {@code offset preceding|following} with a
     * number (rows and groups: an integer) or an {@code interval '1 month 7 days'} as the offset.
     */
    private WindowFrame frame() {
        Token kind = next();
        WindowFrame.Unit unit = WindowFrame.Unit.valueOf(kind.text().toUpperCase(Locale.ROOT));
        expectKeyword("between");
        FrameBound start = frameBound();
        expectKeyword("and");
        FrameBound end = frameBound();
        WindowFrame.Exclusion exclusion = WindowFrame.Exclusion.NO_OTHERS;
        if (acceptKeyword("exclude")) {
            Token t = next();
            if (t.isKeyword("current")) {
                expectKeyword("row");
                exclusion = WindowFrame.Exclusion.CURRENT_ROW;
            } else if (t.isKeyword("group") || t.isKeyword("ties")) {
                exclusion = t.isKeyword("group") ? WindowFrame.Exclusion.GROUP : WindowFrame.Exclusion.TIES;
            } else if (t.isKeyword("no")) {
                expectKeyword("others");
            } else {
                throw error(t, "expected CURRENT ROW, GROUP, TIES or NO OTHERS after EXCLUDE but found "
                        + t.describe());
            }
        }
        try {
            return new WindowFrame(unit, start, end, exclusion);
        } catch (IllegalArgumentException e) {
            throw error(kind, e.getMessage());
        }
    }

    private FrameBound frameBound() {
        Token t = next();
        if (t.isKeyword("current")) {
            expectKeyword("row");
            return FrameBound.CURRENT_ROW;
        }
        boolean unbounded = t.isKeyword("unbounded");
        Object offset = null;
        if (t.isKeyword("interval")) {
            Token text = next();
            if (text.kind() != Kind.STRING) {
                throw error(text, "expected the interval as a string, such as '7 days', but found " + text.describe());
            }
            try {
                offset = Interval.parse(text.text());
            } catch (IllegalArgumentException e) {
                throw error(text, e.getMessage());
            }
        } else if (!unbounded) {
            if (t.kind() != Kind.INTEGER && t.kind() != Kind.DECIMAL && t.kind() != Kind.FLOAT) {
                throw error(t, "expected a frame bound (unbounded, current row, a number or an interval) but found "
                        + t.describe());
            }
            offset = ((Literal) number(t, false)).value();
            offset = offset instanceof Integer i ? Long.valueOf(i) : offset;
        }
        Token side = next();
        if (!side.isKeyword("preceding") && !side.isKeyword("following")) {
            throw error(side, "expected PRECEDING or FOLLOWING but found " + side.describe());
        }
        boolean preceding = side.isKeyword("preceding");
        if (unbounded) {
            return preceding ? FrameBound.UNBOUNDED_PRECEDING : FrameBound.UNBOUNDED_FOLLOWING;
        }
        try {
            return new FrameBound(preceding, offset);
        } catch (IllegalArgumentException e) {
            throw error(t, e.getMessage());
        }
    }

    private Plan limit(Plan input) {
        long count = unsignedLong("a row count");
        if (acceptKeyword("offset")) {
            return input.limit(count, unsignedLong("an offset"));
        }
        return input.limit(count);
    }

    private List<Expr> namedList() {
        List<Expr> list = new ArrayList<>();
        do {
            Expr e = expr();
            list.add(acceptKeyword("as") ? e.as(identifier("a column name")) : e);
        } while (acceptSymbol(","));
        return list;
    }

    private List<SortKey> sortKeys() {
        List<SortKey> keys = new ArrayList<>();
        do {
            Expr e = expr();
            SortKey key;
            if (acceptKeyword("desc")) {
                key = e.desc();
            } else {
                acceptKeyword("asc");
                key = e.asc();
            }
            if (acceptKeyword("nulls")) {
                Token where = next();
                if (where.isKeyword("first")) {
                    key = key.withNullsFirst();
                } else if (where.isKeyword("last")) {
                    key = key.withNullsLast();
                } else {
                    throw error(where, "expected FIRST or LAST after NULLS but found " + where.describe());
                }
            }
            keys.add(key);
        } while (acceptSymbol(","));
        return keys;
    }

    // ------------------------------------------------------------------ expressions

    private Expr expr() {
        Expr left = and();
        while (acceptKeyword("or")) {
            left = left.or(and());
        }
        return left;
    }

    private Expr and() {
        Expr left = not();
        while (acceptKeyword("and")) {
            left = left.and(not());
        }
        return left;
    }

    private Expr not() {
        if (acceptKeyword("not")) {
            return not().not();
        }
        return predicate();
    }

    private Expr predicate() {
        Expr left = concatenation();
        Token t = peek();
        if (t.kind() == Kind.SYMBOL) {
            switch (t.text()) {
                case "=" -> {
                    next();
                    return left.eq(concatenation());
                }
                case "<>", "!=" -> {
                    next();
                    return left.ne(concatenation());
                }
                case "<" -> {
                    next();
                    return left.lt(concatenation());
                }
                case "<=" -> {
                    next();
                    return left.le(concatenation());
                }
                case ">" -> {
                    next();
                    return left.gt(concatenation());
                }
                case ">=" -> {
                    next();
                    return left.ge(concatenation());
                }
                default -> {
                    return left;
                }
            }
        }
        if (acceptKeyword("is")) {
            boolean negated = acceptKeyword("not");
            expectKeyword("null");
            return negated ? left.isNotNull() : left.isNull();
        }
        boolean negated = acceptKeyword("not");
        Expr result;
        if (acceptKeyword("in")) {
            expectSymbol("(");
            List<Expr> candidates = new ArrayList<>();
            do {
                candidates.add(expr());
            } while (acceptSymbol(","));
            expectSymbol(")");
            result = left.in(candidates.toArray(new Expr[0]));
        } else if (acceptKeyword("between")) {
            Expr low = concatenation();
            expectKeyword("and");
            result = left.between(low, concatenation());
        } else if (acceptKeyword("like")) {
            Token pattern = next();
            if (pattern.kind() != Kind.STRING) {
                throw error(pattern, "LIKE takes a string literal pattern, found " + pattern.describe());
            }
            result = left.like(pattern.text());
        } else if (negated) {
            throw error("expected IN, BETWEEN or LIKE after NOT but found " + peek().describe());
        } else {
            return left;
        }
        return negated ? result.not() : result;
    }

    /** {@code a || b || ...}: below the comparisons, above + and - (as PostgreSQL and DuckDB bind it). */
    private Expr concatenation() {
        Expr left = additive();
        while (acceptSymbol("||")) {
            left = left.concatenate(additive());
        }
        return left;
    }

    private Expr additive() {
        Expr left = multiplicative();
        while (true) {
            if (acceptSymbol("+")) {
                left = left.plus(multiplicative());
            } else if (acceptSymbol("-")) {
                left = left.minus(multiplicative());
            } else {
                return left;
            }
        }
    }

    private Expr multiplicative() {
        Expr left = unary();
        while (true) {
            if (acceptSymbol("*")) {
                left = left.times(unary());
            } else if (acceptSymbol("/")) {
                left = left.div(unary());
            } else if (acceptSymbol("%")) {
                left = left.mod(unary());
            } else {
                return left;
            }
        }
    }

    private Expr unary() {
        if (acceptSymbol("-")) {
            Token t = peek();
            // A minus sign glued to a number is part of the literal (so -2147483648 is INT32).
            if (t.kind() == Kind.INTEGER || t.kind() == Kind.DECIMAL || t.kind() == Kind.FLOAT) {
                return number(next(), true);
            }
            return unary().negate();
        }
        if (acceptSymbol("+")) {
            return unary();
        }
        return primary();
    }

    private Expr primary() {
        Token t = next();
        switch (t.kind()) {
            case INTEGER, DECIMAL, FLOAT -> {
                return number(t, false);
            }
            case STRING -> {
                return Expr.lit(t.text());
            }
            case SYMBOL -> {
                if (t.isSymbol("(")) {
                    Expr inner = expr();
                    expectSymbol(")");
                    return inner;
                }
                throw error(t, "expected an expression but found " + t.describe());
            }
            case END -> throw error(t, "expected an expression but found " + t.describe());
            default -> {
                return word(t);
            }
        }
    }

    /** An identifier in expression position: a keyword literal, CASE, CAST, a call or a column. */
    private Expr word(Token t) {
        String w = t.text().toLowerCase(Locale.ROOT);
        switch (w) {
            case "true" -> {
                return Expr.lit(true);
            }
            case "false" -> {
                return Expr.lit(false);
            }
            case "null" -> {
                // Untyped: Troupe rejects it except where a CASE arm gives the type.
                return new Literal(null, null);
            }
            case "case" -> {
                return caseExpr();
            }
            case "cast" -> {
                return cast();
            }
            case "date" -> {
                if (peek().kind() == Kind.STRING) {
                    return date(next());
                }
            }
            case "timestamp", "timestamptz", "time", "interval", "uuid", "blob" -> {
                if (peek().kind() == Kind.STRING) {
                    return typed(w, next());
                }
            }
            case "smallint", "tinyint", "real" -> {
                if (peek().kind() == Kind.STRING) {
                    return small(w, next());
                }
            }
            default -> {
                // a call or a column, below
            }
        }
        if (acceptSymbol("(")) {
            return call(t);
        }
        if (acceptSymbol(".")) {
            return Expr.col(t.text() + "." + identifier("a column name"));
        }
        return Expr.col(t.text());
    }

    private Expr caseExpr() {
        if (!peek().isKeyword("when")) {
            throw error("only searched CASE is supported: write CASE WHEN x = v THEN ..., found " + peek().describe());
        }
        Expr.CaseBuilder builder = null;
        while (acceptKeyword("when")) {
            Expr condition = expr();
            expectKeyword("then");
            Expr result = expr();
            builder = builder == null ? Expr.caseWhen(condition, result) : builder.when(condition, result);
        }
        if (acceptKeyword("else")) {
            Expr otherwise = expr();
            expectKeyword("end");
            return builder.otherwise(otherwise);
        }
        expectKeyword("end");
        return builder.end();
    }

    private Expr cast() {
        expectSymbol("(");
        Expr value = expr();
        expectKeyword("as");
        DataType type = type();
        ZoneId zone = null;
        if (acceptKeyword("at")) {
            expectKeyword("time");
            expectKeyword("zone");
            Token z = next();
            if (z.kind() != Kind.STRING) {
                throw error(z, "expected a time zone's name in quotes but found " + z.describe());
            }
            try {
                zone = TimeZones.zone(z.text());
            } catch (IllegalArgumentException e) {
                throw error(z, e.getMessage());
            }
        }
        expectSymbol(")");
        if (value instanceof Literal l && l.value() == null && l.type() == null) {
            return Expr.nullOf(type);
        }
        return zone == null ? value.cast(type) : value.cast(type, zone);
    }

    /** A type name as {@link DataType#parse} reads it: {@code INT32}, {@code DECIMAL(7,2)} ... */
    private DataType type() {
        Token name = next();
        if (name.kind() != Kind.IDENT) {
            throw error(name, "expected a type name but found " + name.describe());
        }
        String text = name.text();
        if (acceptSymbol("(")) {
            String precision = expectInteger();
            expectSymbol(",");
            String scale = expectInteger();
            expectSymbol(")");
            text = text + "(" + precision + "," + scale + ")";
        }
        try {
            return DataType.parse(text);
        } catch (IllegalArgumentException e) {
            throw error(name, e.getMessage());
        }
    }

    private Expr call(Token name) {
        String f = name.text().toLowerCase(Locale.ROOT);
        if (AGGREGATES.contains(f)) {
            return aggregateCall(name, f);
        }
        List<Expr> args = arguments();
        if (ONE_ARGUMENT.contains(f)) {
            arity(name, args, 1);
            Expr a = args.get(0);
            return switch (f) {
                case "upper" -> Expr.upper(a);
                case "lower" -> Expr.lower(a);
                case "length" -> Expr.length(a);
                case "year" -> Expr.year(a);
                case "month" -> Expr.month(a);
                default -> Expr.day(a);
            };
        }
        switch (f) {
            case "substring" -> {
                arity(name, args, 3);
                return Expr.substring(args.get(0), intLiteral(name, args.get(1)), intLiteral(name, args.get(2)));
            }
            case "add_days", "add_months", "add_micros" -> {
                arity(name, args, 2);
                return switch (f) {
                    case "add_days" -> Expr.addDays(args.get(0), args.get(1));
                    case "add_months" -> Expr.addMonths(args.get(0), args.get(1));
                    default -> Expr.addMicros(args.get(0), args.get(1));
                };
            }
            case "add_interval" -> {
                if (args.size() == 2) {
                    return Expr.addInterval(args.get(0), args.get(1));
                }
                arity(name, args, 3);
                if (!(args.get(2) instanceof Literal l && l.value() instanceof String zone)) {
                    throw error(name, "add_interval takes a time zone in quotes last ('America/New_York'), not "
                            + args.get(2));
                }
                return Expr.addInterval(args.get(0), args.get(1), zone);
            }
            case "date_part" -> {
                arity(name, args, 2);
                if (!(args.get(0) instanceof Literal l && l.value() instanceof String field)) {
                    throw error(name, "date_part takes a field name in quotes first ('year', 'dow', ...), not "
                            + args.get(0));
                }
                return Expr.datePart(field, args.get(1));
            }
            case "coalesce", "concat" -> {
                if (args.isEmpty()) {
                    throw error(name, f + " needs at least one argument");
                }
                return f.equals("concat") ? Expr.concat(args.toArray(new Expr[0]))
                        : Expr.coalesce(args.toArray(new Expr[0]));
            }
            default -> {
                // A function of the registry, named and typed when the plan is validated.
                return Expr.call(name.text(), args.toArray(new Expr[0]));
            }
        }
    }

    /**
     * An aggregate call after its {@code (}: {@code count(*)}, {@code f([DISTINCT] args [ORDER BY keys])}, then for
     * an ordered-set aggregate {@code WITHIN GROUP (ORDER BY key)}.
     */
    private Expr aggregateCall(Token name, String f) {
        if (f.equals("count") && acceptSymbol("*")) {
            expectSymbol(")");
            return Expr.count();
        }
        boolean distinct = acceptKeyword("distinct");
        if (distinct && !f.equals("count") && !f.equals("string_agg")) {
            throw error(name, "DISTINCT is supported in count and string_agg only, not in " + f);
        }
        List<Expr> args = new ArrayList<>();
        List<SortKey> order = new ArrayList<>();
        if (!peek().isSymbol(")") && !peek().isKeyword("order")) {
            do {
                args.add(expr());
            } while (acceptSymbol(","));
        }
        if (acceptKeyword("order")) {
            expectKeyword("by");
            order = sortKeys();
        }
        expectSymbol(")");
        if (acceptKeyword("within")) {
            expectKeyword("group");
            expectSymbol("(");
            expectKeyword("order");
            expectKeyword("by");
            order = sortKeys();
            expectSymbol(")");
        }
        return new AggregateCall(AGGREGATE_NAMES.get(f), args, distinct, order);
    }

    /** A call's arguments, after its {@code (}, up to and with its {@code )}. */
    private List<Expr> arguments() {
        List<Expr> args = new ArrayList<>();
        if (!acceptSymbol(")")) {
            do {
                args.add(expr());
            } while (acceptSymbol(","));
            expectSymbol(")");
        }
        return args;
    }

    private void arity(Token name, List<Expr> args, int expected) {
        if (args.size() != expected) {
            throw error(name, name.text() + " takes " + expected + " argument" + (expected == 1 ? "" : "s")
                    + ", got " + args.size());
        }
    }

    /** The INT32 literal argument that substring, ntile, lag and lead take. */
    private int intLiteral(Token call, Expr arg) {
        if (arg instanceof Literal l && l.value() instanceof Integer i) {
            return i;
        }
        throw error(call, call.text() + " takes an integer literal here, not " + arg);
    }

    // ------------------------------------------------------------------ literals

    private Expr number(Token t, boolean negative) {
        String text = negative ? "-" + t.text() : t.text();
        switch (t.kind()) {
            case INTEGER -> {
                try {
                    long v = Long.parseLong(text);
                    return v == (int) v ? Expr.lit((int) v) : Expr.lit(v);
                } catch (NumberFormatException e) {
                    // Past INT64: a DECIMAL(p,0) of its digits, as SQL types it.
                    BigDecimal d = new BigDecimal(text);
                    if (d.precision() > DataType.MAX_DECIMAL_PRECISION) {
                        throw error(t, "integer literal " + text + " has more than "
                                + DataType.MAX_DECIMAL_PRECISION + " digits");
                    }
                    return Expr.lit(d);
                }
            }
            case DECIMAL -> {
                BigDecimal d = new BigDecimal(text);
                if (Math.max(d.precision(), d.scale()) > DataType.MAX_DECIMAL_PRECISION) {
                    throw error(t, "decimal literal " + text + " has more than " + DataType.MAX_DECIMAL_PRECISION
                            + " digits");
                }
                return Expr.lit(d);
            }
            default -> {
                return Expr.lit(Double.parseDouble(text));
            }
        }
    }

    /** A TIMESTAMP, TIMESTAMPTZ (in UTC where the text has no offset), TIME, INTERVAL, UUID or BLOB literal. */
    private Expr typed(String kind, Token t) {
        try {
            return switch (kind) {
                case "timestamp" -> Expr.lit(Timestamps.toLocalDateTime(Timestamps.parseTimestamp(t.text())));
                case "timestamptz" -> Expr.lit(Timestamps.toInstant(Timestamps.parseInstant(t.text(), ZoneOffset.UTC)));
                case "interval" -> Expr.lit(Interval.parse(t.text()));
                case "uuid" -> Expr.lit(Uuids.parse(t.text()));
                case "blob" -> Expr.lit(Blobs.parse(t.text()));
                default -> Expr.lit(Timestamps.toLocalTime(Timestamps.parseTime(t.text())));
            };
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw error(t, e.getMessage());
        }
    }

    /** A SMALLINT, TINYINT or REAL literal, as {@link Literal} writes one: {@code SMALLINT '7'}, {@code REAL '0.1'}. */
    private Expr small(String kind, Token t) {
        try {
            return switch (kind) {
                case "smallint" -> Expr.lit(Short.parseShort(t.text()));
                case "tinyint" -> Expr.lit(Byte.parseByte(t.text()));
                default -> Expr.lit(Float.parseFloat(t.text()));
            };
        } catch (NumberFormatException e) {
            throw error(t, "bad " + kind.toUpperCase(Locale.ROOT) + " literal '" + t.text() + "'");
        }
    }

    private Expr date(Token t) {
        try {
            return Expr.lit(LocalDate.parse(t.text()));
        } catch (DateTimeParseException e) {
            throw error(t, "bad DATE literal '" + t.text() + "': expected yyyy-mm-dd");
        }
    }

    private long unsignedLong(String what) {
        Token t = next();
        if (t.kind() != Kind.INTEGER) {
            throw error(t, "expected " + what + " (an integer) but found " + t.describe());
        }
        try {
            return Long.parseLong(t.text());
        } catch (NumberFormatException e) {
            throw error(t, "integer " + t.text() + " does not fit INT64");
        }
    }

    // ------------------------------------------------------------------ tokens

    private Token peek() {
        return tokens.get(pos);
    }

    private Token next() {
        Token t = tokens.get(pos);
        if (t.kind() != Kind.END) {
            pos++;
        }
        return t;
    }

    private boolean acceptSymbol(String symbol) {
        if (peek().isSymbol(symbol)) {
            pos++;
            return true;
        }
        return false;
    }

    private boolean acceptKeyword(String keyword) {
        if (peek().isKeyword(keyword)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expectSymbol(String symbol) {
        if (!acceptSymbol(symbol)) {
            throw error("expected '" + symbol + "' but found " + peek().describe());
        }
    }

    private void expectKeyword(String keyword) {
        if (!acceptKeyword(keyword)) {
            throw error("expected " + keyword.toUpperCase(Locale.ROOT) + " but found " + peek().describe());
        }
    }

    private String expectInteger() {
        Token t = next();
        if (t.kind() != Kind.INTEGER) {
            throw error(t, "expected an integer but found " + t.describe());
        }
        return t.text();
    }

    private String identifier(String what) {
        Token t = next();
        if (t.kind() != Kind.IDENT) {
            throw error(t, "expected " + what + " but found " + t.describe());
        }
        return t.text();
    }

    private PlanSyntaxException error(String message) {
        return error(peek(), message);
    }

    private PlanSyntaxException error(Token at, String message) {
        return new PlanSyntaxException(source, at.line(), at.column(), message);
    }
}
