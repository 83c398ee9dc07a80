package io.troupe.operators.plan;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;
import io.troupe.operators.window.FrameBound;
import io.troupe.operators.window.WindowFrame;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The plan and expression grammar of plan files: precedence, literal types, plan steps, errors with line and column. */
class PlanParserTest {

    private static String expr(String text) {
        return PlanParser.parseExpression(text, "t.test").toString();
    }

    private static Literal literal(String text) {
        return (Literal) PlanParser.parseExpression(text, "t.test");
    }

    @Test
    void shouldBindOperatorsByPrecedence() {
        assertEquals("(a + (b * c))", expr("a + b * c"));
        assertEquals("((a - b) - c)", expr("a - b - c"));
        assertEquals("((a % b) / c)", expr("a % b / c"));
        assertEquals("((a * b) + (- c))", expr("a * b + -c"));
        assertEquals("((a = 1) OR ((b = 2) AND (c = 3)))", expr("a = 1 or b = 2 and c = 3"));
        assertEquals("((NOT (a = 1)) AND b)", expr("not a = 1 and b"));
        assertEquals("((a + 1) < (b * 2))", expr("a + 1 < b * 2"));
        assertEquals("((a + 1) * 2)", expr("(a + 1) * 2"));
    }

    @Test
    void shouldParsePredicates() {
        assertEquals("(a IS NULL)", expr("a is null"));
        assertEquals("((a IS NOT NULL) AND b)", expr("a IS NOT NULL AND b"));
        assertEquals("(a IN (1, 2, 3))", expr("a in (1, 2, 3)"));
        assertEquals("(NOT (a IN (1)))", expr("a not in (1)"));
        assertEquals("((a BETWEEN 1 AND (2 + 1)) AND c)", expr("a between 1 and 2 + 1 and c"));
        assertEquals("(NOT (a BETWEEN 1 AND 2))", expr("a not between 1 and 2"));
        assertEquals("(s LIKE 'a%')", expr("s like 'a%'"));
        assertEquals("(NOT (s LIKE '_b'))", expr("s NOT LIKE '_b'"));
        assertEquals("(a <> b)", expr("a != b"));
    }

    @Test
    void shouldTypeLiteralsAsTroupeDoes() {
        assertEquals(new Literal(7, DataType.INT32), literal("7"));
        assertEquals(new Literal(-2147483648, DataType.INT32), literal("-2147483648"));
        assertEquals(new Literal(3000000000L, DataType.INT64), literal("3000000000"));
        assertEquals(new Literal(new BigDecimal("1.50"), DataType.decimal(3, 2)), literal("1.50"));
        assertEquals(new Literal(new BigDecimal("-0.05"), DataType.decimal(2, 2)), literal("-0.05"));
        assertEquals(new Literal(1.5, DataType.FLOAT64), literal("1.5e0"));
        assertEquals(new Literal("it's", DataType.VARCHAR), literal("'it''s'"));
        assertEquals(new Literal(LocalDate.of(2001, 1, 2), DataType.DATE), literal("DATE '2001-01-02'"));
        assertEquals(new Literal(true, DataType.BOOLEAN), literal("TRUE"));
        assertEquals(new Literal(null, DataType.decimal(7, 2)), literal("cast(null as decimal(7, 2))"));
        assertEquals(new Literal(null, null), literal("null"));
    }

    @Test
    void shouldParseFunctionsCaseAndCast() {
        assertEquals("substring(s, 2, 3)", expr("SUBSTRING(s, 2, 3)"));
        assertEquals("round(x, 1)", expr("round(x, 1)"));
        assertEquals(Expr.call("round", Expr.col("x"), Expr.lit(1)), PlanParser.parseExpression("ROUND(x, 1)", "t.test"));
        assertEquals("greatest(sqrt((x + 1)), pow(2, y), 0.5)", expr("GREATEST(Sqrt(x + 1), pow(2, y), 0.5)"));
        assertEquals("coalesce(a, b, 0)", expr("coalesce(a, b, 0)"));
        assertEquals("upper(lower(s))", expr("upper(lower(s))"));
        assertEquals("concat(a, ', ', b)", expr("concat(a, ', ', b)"));
        // || binds below + and above the comparisons, as in PostgreSQL and DuckDB
        assertEquals("(((a || 'x') || b) = c)", expr("a || 'x' || b = c"));
        assertEquals("year(d)", expr("year(d)"));
        assertEquals("CAST(t.a AS DECIMAL(9,2))", expr("cast(t.a as decimal(9,2))"));
        assertEquals("CASE WHEN (a > 1) THEN 'big' WHEN (a = 1) THEN 'one' ELSE 'small' END",
                expr("case when a > 1 then 'big' when a = 1 then 'one' else 'small' end"));
        assertEquals("CASE WHEN (a > 1) THEN 1 END", expr("case when a > 1 then 1 end"));
        assertEquals("count(*)", expr("count(*)"));
        assertEquals("count(DISTINCT x)", expr("count(distinct x)"));
        assertEquals("avg((x + 1))", expr("avg(x + 1)"));
    }

    @Test
    void shouldBuildPlansThroughTheBuilder() {
        PlanParser.ParsedPlan p = PlanParser.parse("""
                scan t as t1
                | join left (scan u | filter u.x > 0) on t1.a = u.a and t1.b = u.b
                | filter t1.c > 1.00
                | project t1.a, t1.c * 2 as c2
                | aggregate by a : count(*) as n, sum(c2) as s
                | having n > 1
                | sort a desc nulls last, s
                | limit 10 offset 2""", 5, "t.test");
        assertTrue(p.ordered());
        assertEquals("Limit 10 Offset 2", p.plan().label());
        assertTrue(p.plan().children().get(0).label().contains("a DESC NULLS LAST, s ASC NULLS LAST"),
                p.plan().children().get(0).label());
        assertFalse(PlanParser.parse("scan t | sort a | distinct", 1, "t.test").ordered());
        assertFalse(PlanParser.parse("series x 1 3 | union all (series y -1 0)", 1, "t.test").ordered());
        assertTrue(PlanParser.parse("scan t | sort a | project a | limit 1", 1, "t.test").ordered());
        assertEquals("Alias s", PlanParser.parse("(scan t | project a) as s", 1, "t.test").plan().label());
        assertEquals("Pinned", PlanParser.parse("scan t | join scan u on t.a = u.a | pin", 1, "t.test").plan().label());
    }

    @Test
    void shouldParseWindowsIntoTheBuildersPlan() {
        Plan parsed = PlanParser.parse("scan t | window partition by g, h order by k desc, id : rank() as r, "
                + "sum(x) rows between 2 preceding and unbounded following as s, lag(x, 2, 0) as l, ntile(4), "
                + "max(x) range between current row and current row as m | window : count(*) as n", 1, "t.test")
                .plan();
        Plan built = Plan.scan("t").window(List.of(Expr.col("g"), Expr.col("h")),
                        List.of(Expr.col("k").desc(), Expr.col("id").asc()), Expr.rank().as("r"),
                        Expr.sum(Expr.col("x")).over(WindowFrame.rows(FrameBound.preceding(2),
                                FrameBound.UNBOUNDED_FOLLOWING)).as("s"),
                        Expr.lag(Expr.col("x"), 2, Expr.lit(0)).as("l"), Expr.ntile(4),
                        Expr.max(Expr.col("x")).over(WindowFrame.range(FrameBound.CURRENT_ROW, FrameBound.CURRENT_ROW))
                                .as("m"))
                .window(List.of(), List.of(), Expr.count().as("n"));
        PlanShapes.assertSamePlan(built, parsed);
        assertEquals("x.test:1:26: a ROWS frame's offsets count rows and are integers: ROWS BETWEEN 1.5 PRECEDING "
                + "AND CURRENT ROW", syntaxError("scan t | window : sum(x) rows between 1.5 preceding and current row"));
        assertEquals("x.test:1:41: expected PRECEDING or FOLLOWING but found 'row'",
                syntaxError("scan t | window : sum(x) rows between 1 row and current row"));
        assertEquals("x.test:1:49: invalid input syntax for type interval: \"7 fortnights\"",
                syntaxError("scan t | window : sum(x) range between interval '7 fortnights' preceding and current row"));
        assertEquals("x.test:1:75: expected CURRENT ROW, GROUP, TIES or NO OTHERS after EXCLUDE but found 'others'",
                syntaxError("scan t | window : sum(x) rows between current row and current row exclude others"));
        String unknown = syntaxError("scan t | window : percentile(x)");
        assertTrue(unknown.startsWith("x.test:1:19: expected a window function (cume_dist, dense_rank"), unknown);
    }

    @Test
    void shouldParseNewFramesAndNullTreatmentIntoTheBuildersPlan() {
        Plan parsed = PlanParser.parse("scan t | window order by k : nth_value(x, 2) ignore nulls as n, "
                + "lag(x) respect nulls as l, first_value(x) ignore nulls groups between 1 preceding and current row "
                + "exclude ties as f, sum(x) range between 2.5 preceding and 3 following exclude group as s, "
                + "count(*) range between interval '1 month 7 days' preceding and interval '36 hours' following "
                + "exclude no others as c, min(x) rows between unbounded preceding and 2 following exclude current "
                + "row as m, max(x) range between 1e2 preceding and current row as mx", 1, "t.test").plan();
        Plan built = Plan.scan("t").window(List.of(), List.of(Expr.col("k").asc()),
                Expr.nthValue(Expr.col("x"), 2).ignoreNulls().as("n"), Expr.lag(Expr.col("x")).as("l"),
                Expr.firstValue(Expr.col("x")).ignoreNulls().over(WindowFrame.groups(FrameBound.preceding(1),
                        FrameBound.CURRENT_ROW).excluding(WindowFrame.Exclusion.TIES)).as("f"),
                Expr.sum(Expr.col("x")).over(WindowFrame.range(FrameBound.preceding(new BigDecimal("2.5")),
                        FrameBound.following(3)).excluding(WindowFrame.Exclusion.GROUP)).as("s"),
                Expr.count().over(WindowFrame.range(FrameBound.preceding(new Interval(1, 7, 0)),
                        FrameBound.following(Interval.ofMicros(36 * 3_600_000_000L)))).as("c"),
                Expr.min(Expr.col("x")).over(WindowFrame.rows(FrameBound.UNBOUNDED_PRECEDING,
                        FrameBound.following(2)).excluding(WindowFrame.Exclusion.CURRENT_ROW)).as("m"),
                Expr.max(Expr.col("x")).over(WindowFrame.range(FrameBound.preceding(100.0), FrameBound.CURRENT_ROW))
                        .as("mx"));
        PlanShapes.assertSamePlan(built, parsed);
    }

    private static String syntaxError(String plan) {
        return assertThrows(PlanSyntaxException.class, () -> PlanParser.parse(plan, 1, "x.test")).getMessage();
    }

    @Test
    void shouldNameSourceLineAndColumnOfSyntaxErrors() {
        PlanSyntaxException e = assertThrows(PlanSyntaxException.class,
                () -> PlanParser.parse("scan t\n| filter (a > 1\n| limit 3", 12, "f/x.test"));
        assertEquals("f/x.test:14:1: expected ')' but found '|'", e.getMessage());
        assertEquals(List.of("f/x.test", 14, 1), List.of(e.source(), e.line(), e.column()));
        assertEquals("plan:2:11: expected an expression but found the end of the plan",
                assertThrows(PlanSyntaxException.class, () -> PlanParser.parse("scan t\n  | filter")).getMessage());
        assertEquals("x.test:1:17: unexpected character '#' in plan", syntaxError("scan t | filter #"));
        assertEquals("x.test:1:1: expected a plan (scan, series, range, cte, recursive, worktable or '(') but found 'sacn'", syntaxError("sacn t"));
        String step = syntaxError("scan t | frobnicate");
        assertTrue(step.startsWith("x.test:1:10: expected a step (as, filter"), step);
        // Any other name is a registry function's, named and typed when the plan is validated.
        assertEquals(new FunctionCall("f", List.of(Expr.col("a"))), PlanParser.parseExpression("F(a)", "t.test"));
        assertEquals("x.test:1:18: upper takes 1 argument, got 2", syntaxError("scan t | project upper(a, b)"));
        assertEquals("x.test:1:24: LIKE takes a string literal pattern, found '3'",
                syntaxError("scan t | filter s like 3"));
        assertEquals("x.test:1:21: unclosed string literal", syntaxError("scan t | filter s = 'x"));
        assertEquals("x.test:1:28: unknown type: int9", syntaxError("scan t | project cast(a as int9)"));
        assertEquals("x.test:1:18: DISTINCT is supported in count and string_agg only, not in sum",
                syntaxError("scan t | project sum(distinct a)"));
        assertEquals("x.test:1:18: substring takes an integer literal here, not b",
                syntaxError("scan t | project substring(s, b, 1)"));
        assertEquals("x.test:1:8: expected '|' or the end of the plan but found 'extra'", syntaxError("scan t extra"));
        assertEquals("x.test:1:21: integer literal 999999999999999999999999999999999999999 has more than 38 digits",
                syntaxError("scan t | filter a = 999999999999999999999999999999999999999"));
    }

    @Test
    void shouldShareWithSubplansAndReadThemWithCte() {
        Plan plan = PlanParser.parse("with w as (scan t | filter a > 1)\ncte w as x | join (cte w) on x.a = w.a",
                1, "t.test").plan();
        assertEquals("Hash Join INNER on (x.a = w.a)", plan.label());
        assertEquals("CTE Scan on w AS x", plan.children().get(0).label());
        assertEquals("CTE Scan on w", plan.children().get(1).label());
        assertEquals(List.of("CTE w"), plan.sharedSubplans().stream().map(Plan::label).toList());
        assertEquals("x.test:1:24: no shared subplan v: declare it before the plan with 'with v as (plan)'",
                syntaxError("with w as (scan t) cte v"));
        assertEquals("x.test:1:25: shared subplan W is declared twice",
                syntaxError("with w as (scan t) with W as (scan u) cte w"));
    }

    @Test
    void shouldKeepAggregatesForTroupeToReject() {
        Expr e = PlanParser.parseExpression("sum(a) > 1", "t.test");
        assertEquals("(sum(a) > 1)", e.toString());
    }
}
