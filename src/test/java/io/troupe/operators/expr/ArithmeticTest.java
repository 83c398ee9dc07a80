package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Arrays;

import static io.troupe.operators.expr.Fixture.row;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.nullOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

class ArithmeticTest {

    private static final Schema SCHEMA = Schema.of(
            Field.of("i", DataType.INT32), Field.of("j", DataType.INT32), Field.of("l", DataType.INT64),
            Field.of("d", DataType.FLOAT64), Field.of("m", DataType.decimal(5, 2)), Field.of("n", DataType.decimal(18, 0)),
            Field.of("s", DataType.VARCHAR));

    private final Fixture f = Fixture.of(SCHEMA,
            row(7, 2, 10L, 1.5, new BigDecimal("1.25"), new BigDecimal("999999999999999999"), "x"),
            row(-7, -2, -3L, -0.5, new BigDecimal("-2.50"), new BigDecimal("1"), "y"),
            row(null, 3, null, null, null, null, null),
            row(Integer.MAX_VALUE, 0, Long.MAX_VALUE, 0.0, new BigDecimal("0.00"), new BigDecimal("-1"), "z"));

    private static BigDecimal dec(String v) {
        return new BigDecimal(v);
    }

    @Test
    void shouldComputeIntegerArithmeticWithTruncatingDivision() {
        Fixture live = f.select(0, 1, 2);
        assertEquals(Arrays.asList(9, -9, null), live.eval(col("i").plus(col("j"))));
        assertEquals(Arrays.asList(5, -5, null), live.eval(col("i").minus(col("j"))));
        assertEquals(Arrays.asList(14, 14, null), live.eval(col("i").times(col("j"))));
        assertEquals(Arrays.asList(3, 3, null), live.eval(col("i").div(col("j"))));
        assertEquals(Arrays.asList(1, -1, null), live.eval(col("i").mod(col("j"))));
        assertEquals(Arrays.asList(-3, 3, null), live.eval(col("i").div(lit(-2))));
        assertEquals(Arrays.asList(1, -1, null), live.eval(col("i").mod(lit(3))));
        assertEquals(Arrays.asList(50, -50, 33), live.eval(lit(100).div(col("j"))));
        assertEquals(Arrays.asList(-7, 7, null), live.eval(col("i").negate()));
    }

    @Test
    void shouldPromoteIntegersDecimalsAndDoubles() {
        Fixture first = f.select(0);
        assertEquals(DataType.INT64, first.bind(col("i").plus(col("l"))).type());
        assertEquals(17L, first.one(col("i").plus(col("l"))));
        assertEquals(DataType.decimal(13, 2), first.bind(col("i").plus(col("m"))).type());
        assertEquals(dec("8.25"), first.one(col("i").plus(col("m"))));
        assertEquals(DataType.decimal(15, 2), first.bind(col("i").times(col("m"))).type());
        assertEquals(dec("8.75"), first.one(col("i").times(col("m"))));
        assertEquals(DataType.decimal(10, 4), first.bind(col("m").times(col("m"))).type());
        assertEquals(dec("1.5625"), first.one(col("m").times(col("m"))));
        assertEquals(DataType.decimal(12, 2), first.bind(col("i").mod(col("m"))).type());
        assertEquals(dec("0.75"), first.one(col("i").mod(col("m"))));
        assertEquals(DataType.FLOAT64, first.bind(col("m").div(lit(2))).type());
        assertEquals(0.625, first.one(col("m").div(lit(2))));
        assertEquals(DataType.FLOAT64, first.bind(col("i").plus(col("d"))).type());
        assertEquals(8.5, first.one(col("i").plus(col("d"))));
        assertEquals(2.75, first.one(col("m").plus(col("d"))));
        assertEquals(dec("-1.25"), f.select(1).one(col("m").plus(lit(new BigDecimal("1.25")))));
        assertEquals(dec("1.250"), first.one(col("m").times(lit(new BigDecimal("1.0")))));
        assertEquals(dec("-8.75"), f.select(1).one(lit(new BigDecimal("-11.25")).minus(col("m"))));
    }

    @Test
    void shouldFailOnOverflowNamingTheExpression() {
        Fixture last = f.select(3);
        assertEquals("overflow in (i + 1): the result does not fit INT32", last.runtimeError(col("i").plus(lit(1))));
        assertEquals("overflow in (l * 2): the result does not fit INT64", last.runtimeError(col("l").times(lit(2L))));
        assertEquals("overflow in (l + i): the result does not fit INT64", last.runtimeError(col("l").plus(col("i"))));
        // Two decimals of a long each multiply into at most 18 digits, checked (DuckDB's DECIMAL(18,0)).
        assertEquals("overflow in (n * 10): the result does not fit DECIMAL(18,0)",
                f.select(0).runtimeError(col("n").times(lit(10))));
        // A sum past 18 digits widens (DuckDB's DECIMAL(19,0)); one past 38 fails naming its operands.
        assertEquals(Arrays.asList(dec("1999999999999999998")), f.select(0).eval(col("n").plus(col("n"))));
        assertEquals("overflow in (w + w): 90000000000000000000000000000000000000 + 90000000000000000000000000000000000000"
                        + " does not fit DECIMAL(38,0)",
                Fixture.of(Schema.of(Field.of("w", DataType.decimal(38, 0))),
                        row(new BigDecimal("9e37").setScale(0))).runtimeError(col("w").plus(col("w"))));
        assertEquals("overflow in (- l): the result does not fit INT64",
                Fixture.of(Schema.of(Field.of("l", DataType.INT64)), row(Long.MIN_VALUE)).runtimeError(col("l").negate()));
    }

    @Test
    void shouldFailOnDivisionByZeroButNotAtNullRows() {
        assertEquals("division by zero in (i / j)", f.runtimeError(col("i").div(col("j"))));
        assertEquals("division by zero in (i % 0)", f.runtimeError(col("i").mod(lit(0))));
        assertEquals("division by zero in (d / 0.0)", f.runtimeError(col("d").div(lit(0.0))));
        assertEquals("division by zero in (m / m)", f.runtimeError(col("m").div(col("m"))));
        assertEquals("division by zero in (l % 0)", f.runtimeError(col("l").mod(lit(0L))));
        // Row 3 divides by zero but is not live; row 2 is NULL, whatever its slot holds.
        assertEquals(Arrays.asList(3, null), f.select(0, 2).eval(col("i").div(col("j"))));
        Fixture nullDivisor = Fixture.of(Schema.of(Field.of("a", DataType.INT32), Field.of("b", DataType.INT32)),
                row(1, null), row(4, 2));
        assertEquals(Arrays.asList(null, 2), nullDivisor.eval(col("a").div(col("b"))));
    }

    @Test
    void shouldPropagateNullsAndFoldConstants() {
        assertEquals(Arrays.asList(null, null, null, null), f.eval(col("i").plus(nullOf(DataType.INT32))));
        Expression folded = f.bind(lit(2).times(lit(3)).plus(lit(1)));
        assertInstanceOf(LiteralExpression.class, folded);
        assertEquals(7, ((LiteralExpression) folded).value());
        // A constant that fails is kept, to fail when it runs.
        assertEquals("division by zero in (1 / 0)", f.runtimeError(lit(1).div(lit(0))));
    }

    @Test
    void shouldRejectNonNumericOperands() {
        assertEquals("cannot apply + to VARCHAR and INT32 in (s + 1)", f.typeError(col("s").plus(lit(1))));
        assertEquals("cannot apply - to VARCHAR in (- s)", f.typeError(col("s").negate()));
        assertEquals("cannot multiply DECIMAL(38,20) by DECIMAL(38,20) in (x * x): the product needs scale 40, more than 38",
                Fixture.of(Schema.of(Field.of("x", DataType.decimal(38, 20)))).typeError(col("x").times(col("x"))));
    }

    @Test
    void shouldComputeEveryIntegerOperatorOverLongColumnsAndSelections() {
        Fixture live = f.select(1, 3);
        assertEquals(Arrays.asList(-10L, Long.MAX_VALUE - 7), live.eval(col("l").plus(lit(-7L))));
        assertEquals(Arrays.asList(4L, Long.MAX_VALUE - Integer.MAX_VALUE), live.eval(col("l").minus(col("i"))));
        assertEquals(Arrays.asList(3L, -Long.MAX_VALUE), live.eval(col("l").times(lit(-1))));
        assertEquals(Arrays.asList(-1L, Long.MAX_VALUE / 3), live.eval(col("l").div(lit(3))));
        assertEquals(Arrays.asList(0L, Long.MAX_VALUE % 3), live.eval(col("l").mod(lit(3))));
    }

    @Test
    void shouldIgnoreWhatNullSlotsHold() {
        // NULL rows whose slots would overflow, divide by zero or fail a cast.
        IntVector a = new IntVector(DataType.INT32, new int[] {Integer.MAX_VALUE, 6});
        a.setNull(0);
        IntVector b = new IntVector(DataType.INT32, new int[] {0, 2});
        b.setNull(0);
        Fixture g = Fixture.of(Schema.of(Field.of("a", DataType.INT32), Field.of("b", DataType.INT32)), Batch.of(2, a, b));
        assertEquals(Arrays.asList(null, 7), g.eval(col("a").plus(lit(1))));
        assertEquals(Arrays.asList(null, 12), g.eval(col("a").times(col("b"))));
        assertEquals(Arrays.asList(null, 3), g.eval(col("a").div(col("b"))));
        assertEquals(Arrays.asList(null, 0), g.eval(col("a").mod(col("b"))));
        assertEquals(Arrays.asList(null, -6), g.eval(col("a").negate()));
        assertEquals(Arrays.asList(null, new BigDecimal("6")), g.eval(col("a").cast(DataType.decimal(3, 0))));
        assertEquals(Arrays.asList(null, 6L), g.eval(col("a").cast(DataType.INT64).times(lit(Long.MAX_VALUE / 6))
                .div(lit(Long.MAX_VALUE / 6))));
    }
}
