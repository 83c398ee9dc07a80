package io.troupe.operators.expr;

import io.troupe.operators.plan.Expr;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Arrays;

import static io.troupe.operators.expr.Fixture.row;
import static io.troupe.operators.plan.Expr.caseWhen;
import static io.troupe.operators.plan.Expr.coalesce;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.nullOf;
import static io.troupe.operators.plan.Expr.round;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ConditionalTest {

    private static final Schema SCHEMA = Schema.of(Field.of("a", DataType.INT32), Field.of("b", DataType.INT32),
            Field.of("s", DataType.VARCHAR), Field.of("m", DataType.decimal(4, 1)), Field.of("d", DataType.FLOAT64));

    private final Fixture f = Fixture.of(SCHEMA,
            row(1, 0, "x", new BigDecimal("1.5"), 0.5),
            row(2, 2, null, null, 1.5),
            row(null, 5, "zz", new BigDecimal("-2.0"), null),
            row(4, null, "", null, null));

    @Test
    void shouldTakeTheFirstTrueBranch() {
        assertEquals(Arrays.asList("one", "two", "other", "other"),
                f.eval(caseWhen(col("a").eq(lit(1)), lit("one")).when(col("a").eq(lit(2)), lit("two")).otherwise(lit("other"))));
        assertEquals(Arrays.asList("x", null, null, "big"),
                f.eval(caseWhen(col("a").gt(lit(3)), lit("big")).when(col("a").lt(lit(2)), col("s")).end()));
        // A NULL condition is not true; results are evaluated only at their rows.
        assertEquals(Arrays.asList(0, 1, null, null),
                f.eval(caseWhen(col("b").eq(lit(0)), lit(0)).when(col("b").isNull(), nullOf(DataType.INT32))
                        .otherwise(col("a").div(col("b")))));
    }

    @Test
    void shouldPromoteResultTypes() {
        assertEquals(DataType.FLOAT64, f.bind(caseWhen(col("a").eq(lit(1)), col("a")).otherwise(col("d"))).type());
        assertEquals(Arrays.asList(1.0, 1.5, null, null), f.eval(caseWhen(col("a").eq(lit(1)), col("a")).otherwise(col("d"))));
        assertEquals(DataType.decimal(11, 1), f.bind(caseWhen(col("a").eq(lit(1)), col("a")).otherwise(col("m"))).type());
        assertEquals(Arrays.asList(new BigDecimal("1.0"), null, new BigDecimal("-2.0"), null),
                f.eval(caseWhen(col("a").eq(lit(1)), col("a")).otherwise(col("m"))));
        assertEquals(DataType.INT64, f.bind(caseWhen(col("a").eq(lit(1)), col("a")).otherwise(lit(7L))).type());
        assertEquals("CASE results have incompatible types INT32, VARCHAR in CASE WHEN (a = 1) THEN a ELSE s END",
                f.typeError(caseWhen(col("a").eq(lit(1)), col("a")).otherwise(col("s"))));
        assertEquals("a CASE condition must be BOOLEAN, got INT32 in CASE WHEN a THEN 1 END",
                f.typeError(caseWhen(col("a"), lit(1)).end()));
    }

    @Test
    void shouldCoalesceLazily() {
        assertEquals(Arrays.asList(1, 2, 5, 4), f.eval(coalesce(col("a"), col("b"))));
        assertEquals(Arrays.asList(0, 2, 5, -1), f.eval(coalesce(col("b"), col("a").times(lit(0)).minus(lit(1)))));
        assertEquals(Arrays.asList("x", "?", "zz", ""), f.eval(coalesce(col("s"), lit("?"))));
        assertEquals(Arrays.asList(new BigDecimal("1.5"), new BigDecimal("2.0"), new BigDecimal("-2.0"), new BigDecimal("4.0")),
                f.eval(coalesce(col("m"), col("a"))));
        assertEquals(Arrays.asList(0.5, 1.5, 5.0, null), f.eval(coalesce(col("d"), col("b").cast(DataType.FLOAT64))));
        // The second argument would divide by zero at row 0, where the first is not NULL.
        assertEquals(Arrays.asList(1, 2, 2, 4), f.eval(coalesce(col("a"), lit(10).div(col("b")))));
        assertEquals("coalesce arguments have incompatible types [INT32, VARCHAR] in coalesce(a, s)",
                f.typeError(coalesce(col("a"), col("s"))));
        assertEquals(Arrays.asList(1, 2, null, 4), f.select(0, 1, 2, 3).eval(coalesce(col("a"))));
    }

    @Test
    void shouldRoundHalfAwayFromZero() {
        Fixture g = Fixture.of(Schema.of(Field.of("m", DataType.decimal(5, 3)), Field.of("d", DataType.FLOAT64),
                        Field.of("i", DataType.INT32), Field.of("l", DataType.INT64)),
                row(new BigDecimal("1.255"), 2.5, 15, 1255L),
                row(new BigDecimal("-1.255"), -2.5, -15, -1255L),
                row(new BigDecimal("99.995"), 2.675, 2147483645, Long.MAX_VALUE),
                row(null, null, null, null));
        assertEquals(DataType.decimal(5, 2), g.bind(round(col("m"), 2)).type());
        assertEquals(Arrays.asList(new BigDecimal("1.26"), new BigDecimal("-1.26"), new BigDecimal("100.00"), null),
                g.eval(round(col("m"), 2)));
        assertEquals(Arrays.asList(new BigDecimal("1.255"), new BigDecimal("-1.255"), new BigDecimal("99.995"), null),
                g.eval(round(col("m"), 5)));
        assertEquals(DataType.decimal(5, 0), g.bind(round(col("m"), -1)).type());
        assertEquals(Arrays.asList(new BigDecimal("0"), new BigDecimal("0"), new BigDecimal("100"), null),
                g.eval(round(col("m"), -1)));
        // One rounding step: 4884.99 is nearer 4880, although it rounds to 4885 on the way.
        Fixture h = Fixture.of(Schema.of(Field.of("x", DataType.decimal(6, 2))),
                row(new BigDecimal("4884.99")), row(new BigDecimal("-4885.00")));
        assertEquals(Arrays.asList(new BigDecimal("4880"), new BigDecimal("-4890")), h.eval(round(col("x"), -1)));
        assertEquals(Arrays.asList(3.0, -3.0, 3.0, null), g.eval(round(col("d"), 0)));
        assertEquals(Arrays.asList(2.5, -2.5, 2.68, null), g.eval(round(col("d"), 2)));
        assertEquals(Arrays.asList(0.0, -0.0, 0.0, null), g.eval(round(col("d"), -1)));
        assertEquals(Arrays.asList(15, -15, 2147483645, null), g.eval(round(col("i"), 1)));
        assertEquals(Arrays.asList(1300L, -1300L), g.select(0, 1).eval(round(col("l"), -2)));
        assertEquals(Arrays.asList(20, -20), g.select(0, 1).eval(round(col("i"), -1)));
        assertEquals("overflow in round(i, -1): the result does not fit INT32",
                g.runtimeError(round(col("i"), -1)));
        assertEquals("round takes a constant as argument 2 in round(d, i)",
                g.typeError(Expr.call("round", col("d"), col("i"))));
    }
}
