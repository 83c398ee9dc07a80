package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Validity;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

import static io.troupe.operators.expr.Fixture.row;
import static io.troupe.operators.plan.Expr.call;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.nullOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The registry's mechanism: lookup by any name in any case, the choice among signatures by conversion
 * cost, the conversions, constant folding, NULL rows, a layer of functions over the built-ins.
 * NumericFunctionsTest checks the functions' values against DuckDB.
 */
class FunctionRegistryTest {

    private static final FunctionRegistry REGISTRY = FunctionRegistry.builtIn();
    private static final DataType DEC92 = DataType.decimal(9, 2);

    private static ScalarFunction.Resolution resolve(String name, DataType... types) {
        return REGISTRY.find(name).resolve(Arrays.asList(types));
    }

    @Test
    void shouldFindAFunctionByAnyOfItsNamesInAnyCase() {
        assertSame(REGISTRY.find("ceil"), REGISTRY.find("CEILING"));
        assertSame(REGISTRY.find("power"), REGISTRY.find("Pow"));
        assertEquals(List.of("ceil", "ceiling"), REGISTRY.find("ceiling").names());
        assertNull(REGISTRY.find("cbrt_of_nothing"));
        assertTrue(REGISTRY.names().containsAll(List.of("ceil", "ceiling", "floor", "sign", "sqrt", "ln", "power",
                "pow", "greatest", "least", "round")), REGISTRY.names().toString());
        assertEquals("unknown function 'Sqr' (did you mean 'sqrt'?)", REGISTRY.unknown("Sqr"));
        assertEquals("unknown function 'lest' (did you mean 'least' or 'left'?)", REGISTRY.unknown("lest"));
    }

    @Test
    void shouldTakeTheSignatureOfLeastConversion() {
        // An integer goes to DOUBLE before DECIMAL, as in DuckDB and PostgreSQL: ceil(INTEGER) is a DOUBLE.
        assertEquals(List.of(DataType.FLOAT64), resolve("ceil", DataType.INT32).types());
        assertEquals(List.of(DEC92), resolve("ceil", DEC92).types());
        assertEquals(List.of(DataType.FLOAT64), resolve("sqrt", DataType.INT64).types());
        assertEquals(List.of(DataType.FLOAT64, DataType.FLOAT64), resolve("power", DEC92, DataType.INT32).types());
        assertEquals("(INTEGER, INTEGER)", resolve("round", DataType.INT32, DataType.INT32).signature().toString());
        assertEquals("(DECIMAL)", resolve("round", DEC92).signature().toString());
        assertEquals(List.of(DataType.decimal(12, 2), DataType.decimal(12, 2)),
                resolve("greatest", DataType.INT32, DEC92).types());
        assertEquals(List.of(DataType.INT64, DataType.INT64, DataType.INT64),
                resolve("least", DataType.INT32, DataType.INT64, DataType.INT32).types());
        assertNull(resolve("greatest", DataType.INT32, DataType.VARCHAR));
        assertNull(resolve("sqrt", DataType.VARCHAR));
        assertNull(resolve("sqrt", DataType.FLOAT64, DataType.FLOAT64));
        // An argument of no type yet (SQL's NULL, ?) takes its parameter's.
        assertEquals(List.of(DataType.FLOAT64, DataType.INT32), resolve("round", null, DataType.INT32).types());
        assertEquals(List.of(DataType.INT32, DataType.INT32), resolve("greatest", DataType.INT32, null).types());
    }

    @Test
    void shouldDeriveTheResultTypeFromTypesAndConstants() {
        ScalarFunction round = REGISTRY.find("round");
        assertEquals(DataType.decimal(9, 1), round.resultType("round",
                List.of(ArgumentType.of(DEC92), new ArgumentType(DataType.INT32, true, 1))));
        assertEquals(DataType.decimal(9, 0), round.resultType("round", List.of(ArgumentType.of(DEC92))));
        assertEquals(DataType.INT64, round.resultType("round",
                List.of(ArgumentType.of(DataType.INT64), new ArgumentType(DataType.INT32, true, -2))));
        ExpressionTypeException e = assertThrows(ExpressionTypeException.class,
                () -> round.resultType("ROUND", List.of(ArgumentType.of(DEC92), ArgumentType.of(DataType.INT32))));
        assertEquals("round takes a constant as argument 2", e.getMessage());
    }

    @Test
    void shouldConvertArgumentsAndFoldConstantCalls() {
        Fixture f = Fixture.of(Schema.of(Field.of("i", DataType.INT32), Field.of("m", DEC92)),
                row(16, new BigDecimal("-2.50")), row(null, null), row(-3, new BigDecimal("0.01")));
        assertEquals(Arrays.asList(4.0, null), f.select(0, 1).eval(call("sqrt", col("i"))));
        // NULLs are skipped: NULL only where every argument is.
        assertEquals(Arrays.asList(16.0, -3.5, 0.01), f.eval(call("greatest", col("i"), col("m"), lit(-3.5))
                .cast(DataType.FLOAT64)));
        assertEquals(Arrays.asList(-3.5, -3.5, -3.5), f.eval(call("least", col("i"), col("m"), lit(-3.5))
                .cast(DataType.FLOAT64)));
        assertEquals(Arrays.asList(16, null, -3), f.eval(call("greatest", col("i"), nullOf(DataType.INT32))));
        assertEquals(DataType.decimal(12, 2), f.bind(call("greatest", col("i"), col("m"))).type());
        Expression folded = f.bind(call("sqrt", lit(2.25)));
        assertInstanceOf(LiteralExpression.class, folded);
        assertEquals(1.5, ((LiteralExpression) folded).value());
        // A constant call that fails is kept, to fail when a row reaches it, as a division by zero is.
        Expression failing = f.bind(call("sqrt", lit(-1)));
        assertInstanceOf(DoubleUnary.class, failing);
        assertEquals("cannot take square root of a negative number (-1.0) in sqrt(-1)",
                assertThrows(QueryFailedException.class, () -> failing.evaluate(Batch.of(1))).getMessage());
        assertEquals("an untyped NULL needs a type in sqrt(NULL): use Expr.nullOf(type)",
                f.typeError(call("sqrt", new io.troupe.operators.plan.Literal(null, null))));
        assertEquals(Arrays.asList(null, null, null), f.eval(call("round", col("m"), nullOf(DataType.INT32))));
    }

    @Test
    void shouldSkipTheSlotsOfNullRowsWhereAValueWouldFail() {
        DoubleVector d = new DoubleVector(new double[] {-4.0, 9.0, -1.0});
        long[] valid = Validity.allValid(3);
        valid[0] &= ~0b101L;
        d.setValidity(valid);
        Fixture f = Fixture.of(Schema.of(Field.of("d", DataType.FLOAT64)), Batch.of(3, d));
        assertEquals(Arrays.asList(null, 3.0, null), f.eval(call("sqrt", col("d"))));
        assertEquals(Arrays.asList(null, 2.1972245773362196, null), f.eval(call("ln", col("d"))));
        assertEquals(Arrays.asList(null, 81.0, null), f.eval(call("power", col("d"), lit(2))));
    }

    @Test
    void shouldBindAFunctionLayeredOverTheBuiltIns() {
        ScalarFunction twice = ScalarFunction.of("twice",
                Signature.of(Signature.ResultType.fixed(DataType.FLOAT64), DoubleUnary.of(x -> 2 * x), ParamType.FLOAT64));
        FunctionRegistry layered = REGISTRY.with(List.of(twice));
        Expression e = layered.bind("TWICE", List.of(new LiteralExpression(21, DataType.INT32, "21")), "TWICE(21)");
        assertEquals(42.0, ((LiteralExpression) e).value());
        assertSame(REGISTRY.find("sqrt"), layered.find("sqrt"));
        assertNull(REGISTRY.find("twice"));
        IllegalArgumentException taken = assertThrows(IllegalArgumentException.class,
                () -> REGISTRY.with(List.of(ScalarFunction.of("floor", twice.signatures().get(0)))));
        assertTrue(taken.getMessage().startsWith("FunctionRegistry: the name 'floor' of floor (DOUBLE) is taken by floor "),
                taken.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ScalarFunction.of("2x", twice.signatures().get(0)));
        assertThrows(IllegalArgumentException.class, () -> ScalarFunction.of("twice"));
    }

    @Test
    void shouldPrintCallsAsWritten() {
        Expr e = call("CEILING", col("m"));
        assertEquals("ceiling(m)", e.toString());
        assertEquals("greatest(a, 1, (b + 2))", call("greatest", col("a"), lit(1), col("b").plus(lit(2))).toString());
        assertEquals(List.of(col("m")), e.children());
    }
}
