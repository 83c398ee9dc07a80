package io.troupe.operators.expr;

import io.troupe.operators.plan.Expr;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

import static io.troupe.operators.expr.Fixture.row;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.nullOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ComparisonLogicTest {

    private static final Schema SCHEMA = Schema.of(
            Field.of("i", DataType.INT32), Field.of("l", DataType.INT64), Field.of("d", DataType.FLOAT64),
            Field.of("m", DataType.decimal(5, 2)), Field.of("s", DataType.VARCHAR), Field.of("t", DataType.DATE),
            Field.of("b", DataType.BOOLEAN), Field.of("c", DataType.BOOLEAN));

    private final Fixture f = Fixture.of(SCHEMA,
            row(1, 1L, 1.0, new BigDecimal("1.00"), "abc", LocalDate.of(2024, 1, 5), true, true),
            row(2, 5_000_000_000L, 2.5, new BigDecimal("2.50"), "é", LocalDate.of(1969, 12, 31), false, null),
            row(null, null, null, null, null, null, null, false),
            row(-3, -3L, -3.25, new BigDecimal("-3.25"), "", LocalDate.of(2000, 2, 29), true, false));

    private static final Boolean T = true;
    private static final Boolean F = false;

    @Test
    void shouldCompareNumbersAfterPromotion() {
        assertEquals(Arrays.asList(T, F, null, T), f.eval(col("i").eq(col("l"))));
        assertEquals(Arrays.asList(F, T, null, F), f.eval(col("i").lt(col("l"))));
        assertEquals(Arrays.asList(T, F, null, F), f.eval(col("m").eq(col("d")).and(col("d").eq(lit(1)))));
        assertEquals(Arrays.asList(T, T, null, T), f.eval(col("m").eq(col("d"))));
        assertEquals(Arrays.asList(F, T, null, F), f.eval(col("m").gt(col("i"))));
        assertEquals(Arrays.asList(T, F, null, T), f.eval(col("m").le(lit(new BigDecimal("1.000")))));
        assertEquals(Arrays.asList(F, T, null, F), f.eval(col("m").ge(lit(2.5))));
        assertEquals(Arrays.asList(T, T, null, T), f.eval(col("l").ne(lit(new BigDecimal("5000000000.5")))));
        // INT64 beyond a decimal's range still compares exactly against a decimal of scale 2.
        assertEquals(Arrays.asList(F, T, null, T), f.eval(col("l").gt(col("m").times(lit(1000)))));
        assertEquals(Arrays.asList(F, F, null, T), f.eval(lit(0).gt(col("i"))));
        assertEquals(Arrays.asList(T, T, null, F), f.eval(lit(-1).le(col("l"))));
        assertEquals(Arrays.asList(F, F, null, F), f.eval(col("i").gt(lit(3_000_000_000L))));
    }

    @Test
    void shouldCompareStringsByCodePointDatesAndBooleans() {
        assertEquals(Arrays.asList(F, T, null, F), f.eval(col("s").gt(lit("z"))));
        assertEquals(Arrays.asList(T, F, null, F), f.eval(col("s").eq(lit("abc"))));
        assertEquals(Arrays.asList(F, T, null, T), f.eval(col("s").ne(lit("abc"))));
        assertEquals(Arrays.asList(T, T, null, T), f.eval(lit("ab").lt(col("s")).or(col("s").eq(lit("")))));
        assertEquals(Arrays.asList(F, F, null, T), f.eval(col("s").lt(lit("a"))));
        assertEquals(Arrays.asList(T, F, null, T), f.eval(col("t").ge(lit(LocalDate.of(2000, 1, 1)))));
        assertEquals(Arrays.asList(F, T, null, F), f.eval(col("t").lt(lit(LocalDate.of(1970, 1, 1)))));
        assertEquals(Arrays.asList(T, null, null, F), f.eval(col("b").eq(col("c"))));
        assertEquals(Arrays.asList(F, null, null, T), f.eval(col("b").gt(col("c"))));
    }

    @Test
    void shouldRejectIncomparableTypes() {
        assertEquals("cannot compare VARCHAR with INT32 in (s = 1)", f.typeError(col("s").eq(lit(1))));
        assertEquals("cannot compare DATE with VARCHAR in (t < '2024-01-01')", f.typeError(col("t").lt(lit("2024-01-01"))));
        assertEquals("cannot compare BOOLEAN with INT32 in (b IN (1, 2))", f.typeError(col("b").in(lit(1), lit(2))));
        assertEquals("cannot compare INT32 with VARCHAR in (i BETWEEN 1 AND 'x')", f.typeError(col("i").between(lit(1), lit("x"))));
        assertEquals("AND needs BOOLEAN operands, got INT32 and BOOLEAN in (i AND b)", f.typeError(col("i").and(col("b"))));
        assertEquals("NOT needs a BOOLEAN operand, got VARCHAR in (NOT s)", f.typeError(col("s").not()));
    }

    @Test
    void shouldFollowThreeValuedLogic() {
        // b: T F N T, c: T N F F
        assertEquals(Arrays.asList(T, F, F, F), f.eval(col("b").and(col("c"))));
        assertEquals(Arrays.asList(T, null, null, T), f.eval(col("b").or(col("c"))));
        assertEquals(Arrays.asList(F, T, null, F), f.eval(col("b").not()));
        assertEquals(Arrays.asList(F, F, T, F), f.eval(col("b").isNull()));
        assertEquals(Arrays.asList(T, F, T, T), f.eval(col("c").isNotNull()));
        Fixture all = Fixture.of(Schema.of(Field.of("p", DataType.BOOLEAN), Field.of("q", DataType.BOOLEAN)),
                row(true, true), row(true, false), row(true, null), row(false, true), row(false, false),
                row(false, null), row(null, true), row(null, false), row(null, null));
        assertEquals(Arrays.asList(T, F, null, F, F, F, null, F, null), all.eval(col("p").and(col("q"))));
        assertEquals(Arrays.asList(T, T, T, T, F, null, T, null, null), all.eval(col("p").or(col("q"))));
        assertEquals(Arrays.asList(null, F, F, F, null, F, null), all.select(2, 3, 4, 5, 6, 7, 8).eval(col("p").and(col("q"))));
    }

    @Test
    void shouldEvaluateTheRightSideOnlyWhereTheLeftLeavesItOpen() {
        Fixture g = Fixture.of(Schema.of(Field.of("a", DataType.INT32), Field.of("b", DataType.INT32)),
                row(4, 2), row(1, 0), row(9, null), row(3, 3));
        assertEquals(Arrays.asList(T, F, null, F), g.eval(col("b").ne(lit(0)).and(col("a").div(col("b")).gt(lit(1)))));
        assertEquals(Arrays.asList(F, T, null, T), g.eval(col("b").eq(lit(0)).or(col("a").div(col("b")).eq(lit(1)))));
        assertEquals("division by zero in (a / b)", g.runtimeError(col("a").div(col("b")).gt(lit(1)).and(col("b").ne(lit(0)))));
    }

    @Test
    void shouldFollowSqlNullRulesInInAndBetween() {
        assertEquals(Arrays.asList(T, F, null, T), f.eval(col("i").in(lit(1), lit(-3), lit(7))));
        assertEquals(Arrays.asList(T, null, null, T), f.eval(col("i").in(lit(1), lit(-3), nullOf(DataType.INT32))));
        assertEquals(Arrays.asList(T, F, null, F), f.eval(col("i").in(lit(1.0), lit(2.5))));
        assertEquals(Arrays.asList(F, T, null, F), f.eval(col("m").in(lit(new BigDecimal("2.5")), lit(2.501), lit(7L))));
        assertEquals(Arrays.asList(T, F, null, F), f.eval(col("m").in(lit(1), lit(new BigDecimal("2.505")))));
        assertEquals(Arrays.asList(F, T, null, T), f.eval(col("s").in(lit("é"), lit(""), lit("x"), lit("y"), lit("z"),
                lit("zz"), lit("q"), lit("r"), lit("p"), lit("o"))));
        assertEquals(Arrays.asList(T, F, null, T), f.eval(col("i").in(col("l"), lit(99))));
        assertEquals(Arrays.asList(T, T, null, F), f.eval(col("t").in(lit(LocalDate.of(2024, 1, 5)), lit(LocalDate.of(1969, 12, 31)))));
        assertEquals(Arrays.asList(F, T, null, F), f.eval(col("l").in(lit(5_000_000_000L), lit(2), lit(3), lit(4), lit(5),
                lit(6), lit(7), lit(8), lit(9), lit(10))));

        assertEquals(Arrays.asList(T, T, null, F), f.eval(col("i").between(lit(1), lit(2))));
        assertEquals(Arrays.asList(F, T, null, F), f.eval(col("i").between(lit(1.5), lit(2.5))));
        assertEquals(Arrays.asList(F, T, null, F), f.eval(col("m").between(lit(new BigDecimal("1.001")), lit(3))));
        assertEquals(Arrays.asList(T, F, null, T), f.eval(col("d").between(lit(-4), lit(new BigDecimal("1.0")))));
        assertEquals(Arrays.asList(T, F, null, T), f.eval(col("t").between(lit(LocalDate.of(2000, 1, 1)), lit(LocalDate.of(2024, 1, 5)))));
        assertEquals(Arrays.asList(T, F, null, F), f.eval(col("s").between(lit("a"), lit("b"))));
        assertEquals(Arrays.asList(F, null, null, F), f.eval(col("i").between(lit(2), nullOf(DataType.INT32))));
        assertEquals(Arrays.asList(F, T, null, F), f.eval(col("l").between(lit(3_000_000_000L), col("l"))));
    }

    @Test
    void shouldSelectExactlyTheRowsWherePredicatesAreTrue() {
        List<Expr> predicates = List.of(
                col("i").lt(col("l")), col("i").ge(lit(1)), lit(0).gt(col("i")), col("d").le(col("m")), col("d").ne(lit(2.5)),
                col("m").gt(lit(new BigDecimal("1.5"))), col("l").eq(col("i")), col("s").lt(lit("b")), col("b").eq(col("c")),
                col("t").le(lit(LocalDate.of(2000, 2, 29))), col("i").between(lit(-3), lit(1)), col("d").between(lit(0), lit(3)),
                col("i").eq(nullOf(DataType.INT32)), col("b").and(col("c")), col("b").or(col("c")),
                col("i").gt(lit(0)).and(col("d").gt(lit(1))), col("i").lt(lit(0)).or(col("s").eq(lit("abc"))),
                col("b").or(col("c").not()).and(col("i").isNotNull().or(col("c"))), col("i").in(lit(2), lit(-3)),
                col("s").like("%b%"), col("b"), lit(true), lit(false));
        int kept = 0;
        for (Expr p : predicates) {
            kept += f.checkSelect(p);
            kept += f.select(1, 2, 3).checkSelect(p);
            kept += f.select(0, 3).checkSelect(p);
        }
        // Not vacuous: some rows were kept and some dropped, out of 9 live rows per predicate.
        int live = 9 * predicates.size();
        assertTrue(kept > 0 && kept < live, "kept " + kept + " of " + live);
    }
}
