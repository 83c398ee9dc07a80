package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.plan.Call;
import io.troupe.operators.plan.Literal;
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
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BindingTest {

    private final Fixture f = Fixture.of(Schema.of(Field.of("i", DataType.INT32), Field.of("s", DataType.VARCHAR)),
            row(1, "a"), row(null, "b"), row(3, null));

    @Test
    void shouldFillLiteralVectorsOncePerRowCount() {
        LiteralExpression five = new LiteralExpression(5, DataType.INT64, "5");
        Batch three = Batch.of(3);
        ColumnVector v = five.evaluate(three);
        assertSame(v, five.evaluate(three), "the vector is reused for the same row count");
        assertEquals(Arrays.asList(5L, 5L, 5L), Arrays.asList(v.getObject(0), v.getObject(1), v.getObject(2)));
        ColumnVector none = new LiteralExpression(null, DataType.VARCHAR, "NULL").evaluate(three);
        assertTrue(none.isNull(0) && none.isNull(2));
        assertEquals(new BigDecimal("1.50"), new LiteralExpression(new BigDecimal("1.5"), DataType.decimal(4, 2), "1.5").value());
        assertEquals(LocalDate.of(2024, 1, 5), new LiteralExpression("2024-01-05", DataType.DATE, "d").value());
        assertEquals("the literal x (String) is not a value of type INT32",
                assertThrows(ExpressionTypeException.class, () -> new LiteralExpression("x", DataType.INT32, "x")).getMessage());
        assertEquals("the literal 1.255 (BigDecimal) is not a value of type DECIMAL(4,2)",
                assertThrows(ExpressionTypeException.class,
                        () -> new LiteralExpression(new BigDecimal("1.255"), DataType.decimal(4, 2), "x")).getMessage());
    }

    @Test
    void shouldCheckArityAndUntypedNulls() {
        assertEquals("IN cannot take 1 argument in (i IN ())", f.typeError(new Call(Function.IN, List.of(col("i")), null)));
        assertEquals("+ cannot take 3 arguments in (i + 1)",
                f.typeError(new Call(Function.ADD, List.of(col("i"), lit(1), lit(2)), null)));
        assertEquals("an untyped NULL needs a type in (i + NULL): use Expr.nullOf(type)",
                f.typeError(new Call(Function.ADD, List.of(col("i"), new Literal(null, null)), null)));
        assertEquals("CAST needs a target type in CAST(i AS null)", f.typeError(new Call(Function.CAST, List.of(col("i")), null)));
    }

    @Test
    void shouldKeepTheColumnForANoOpCastAndFoldConstants() {
        assertInstanceOf(ColumnExpression.class, f.bind(col("i").cast(DataType.INT32)));
        Expression folded = f.bind(lit("2024-01-05").cast(DataType.DATE).gt(lit(LocalDate.of(2000, 1, 1))));
        assertInstanceOf(LiteralExpression.class, folded);
        assertEquals(true, ((LiteralExpression) folded).value());
        assertEquals(Arrays.asList(2, null, 4), f.eval(col("i").plus(lit(1).cast(DataType.INT32))));
    }
}
