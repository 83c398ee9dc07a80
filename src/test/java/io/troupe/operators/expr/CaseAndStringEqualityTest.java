package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

import static io.troupe.operators.expr.Fixture.row;
import static io.troupe.operators.plan.Expr.caseWhen;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.nullOf;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The CASE paths that skip NULL literal branches and share a single branch's values (with a new
 * validity), and the string = / &lt;&gt; kernels (word compare against short literals, plain
 * loop, bulk compare past 16 bytes), with NULLs on either side and under a selection.
 */
class CaseAndStringEqualityTest {

    private static final String LONG = "a string of more than sixteen bytes";
    private static final String LONG_OTHER = "a string of more than sixteen bytez";

    private static final Schema SCHEMA = Schema.of(Field.of("day", DataType.VARCHAR),
            Field.of("other", DataType.VARCHAR), Field.of("m", DataType.decimal(7, 2)), Field.of("i", DataType.INT32),
            Field.of("l", DataType.INT64), Field.of("d", DataType.FLOAT64), Field.of("b", DataType.BOOLEAN),
            Field.of("s", DataType.VARCHAR));

    private final Fixture f = Fixture.of(SCHEMA,
            row("Sunday", "Sunday", new BigDecimal("1.25"), 1, 10L, 0.5, true, "x"),
            row("Monday", "Sunday", new BigDecimal("2.50"), 2, 20L, 1.5, false, "yy"),
            row("Sunday", null, null, null, null, null, null, null),
            row(null, "Monday", new BigDecimal("4.00"), 4, 40L, 4.5, true, "zzz"),
            row("Sundax", "Sundax", new BigDecimal("5.00"), 5, 50L, 5.5, false, ""),
            row(LONG, LONG_OTHER, new BigDecimal("6.00"), 6, 60L, 6.5, true, "ü"),
            row("Sunday", LONG, new BigDecimal("-7.00"), 7, 70L, 7.5, false, "w"),
            row("", "", new BigDecimal("8.00"), 8, 80L, 8.5, true, "v"));

    @Test
    void shouldKeepTheValuesOfTheOneBranchAtItsRowsOnly() {
        assertEquals(Arrays.asList(new BigDecimal("1.25"), null, null, null, null, null, new BigDecimal("-7.00"), null),
                f.eval(caseWhen(col("day").eq(lit("Sunday")), col("m")).end()));
        assertEquals(Arrays.asList(1, null, null, null, null, null, 7, null),
                f.eval(caseWhen(col("day").eq(lit("Sunday")), col("i")).end()));
        assertEquals(Arrays.asList(10L, null, null, null, null, null, 70L, null),
                f.eval(caseWhen(col("day").eq(lit("Sunday")), col("l")).end()));
        assertEquals(Arrays.asList(0.5, null, null, null, null, null, 7.5, null),
                f.eval(caseWhen(col("day").eq(lit("Sunday")), col("d")).end()));
        assertEquals(Arrays.asList(true, null, null, null, null, null, false, null),
                f.eval(caseWhen(col("day").eq(lit("Sunday")), col("b")).end()));
        assertEquals(Arrays.asList("x", null, null, null, null, null, "w", null),
                f.eval(caseWhen(col("day").eq(lit("Sunday")), col("s")).end()));
        // The shared column itself is unchanged.
        assertEquals(Arrays.asList("x", "yy", null, "zzz", "", "ü", "w", "v"), f.eval(col("s")));
        // Under a selection, and with a NULL literal arm before a value ELSE.
        assertEquals(Arrays.asList(null, null, new BigDecimal("4.00"), null),
                f.select(0, 2, 3, 6).eval(caseWhen(col("day").eq(lit("Sunday")), nullOf(DataType.decimal(7, 2)))
                        .otherwise(col("m"))));
        assertEquals(Arrays.asList(new BigDecimal("2.50"), null, new BigDecimal("5.00")),
                f.select(1, 2, 4).eval(caseWhen(col("day").ne(lit("Sunday")), col("m")).end()));
    }

    @Test
    void shouldAnswerAllNullsOrTheWholeBranch() {
        assertEquals(Arrays.asList(null, null, null, null, null, null, null, null),
                f.eval(caseWhen(col("day").eq(lit("Saturday")), col("m")).end()));
        assertEquals(Arrays.asList(null, null, null, null, null, null, null, null),
                f.eval(caseWhen(col("i").gt(lit(0)), nullOf(DataType.INT32)).end()));
        assertEquals(Arrays.asList(1, 2, null, 4, 5, 6, 7, 8),
                f.eval(caseWhen(col("l").gt(lit(0L)), col("i")).otherwise(col("i"))));
        assertEquals(Arrays.asList(1, 2), f.select(0, 1).eval(caseWhen(col("l").gt(lit(0L)), col("i")).end()));
        // Two value branches and a NULL arm between them still merge.
        assertEquals(Arrays.asList(1, -2, null, null, -5, -6, 7, -8),
                f.eval(caseWhen(col("day").eq(lit("Sunday")), col("i"))
                        .when(col("day").isNull(), nullOf(DataType.INT32))
                        .otherwise(col("i").times(lit(-1)))));
    }

    @Test
    void shouldCompareStringsForEqualityWithNulls() {
        List<Object> sunday = f.eval(col("day").eq(lit("Sunday")));
        assertEquals(Arrays.asList(true, false, true, null, false, false, true, false), sunday);
        assertEquals(Arrays.asList(false, true, false, null, true, true, false, true),
                f.eval(col("day").ne(lit("Sunday"))));
        assertEquals(Arrays.asList(false, false, false, null, false, true, false, false),
                f.eval(col("day").eq(lit(LONG))));
        assertEquals(Arrays.asList(false, false, false, null, false, false, false, true),
                f.eval(col("day").eq(lit(""))));
        assertEquals(Arrays.asList(true, false, null, null, true, false, false, true),
                f.eval(col("day").eq(col("other"))));
        assertEquals(Arrays.asList(false, true, null, null, false, true, true, false),
                f.eval(col("day").ne(col("other"))));
        assertEquals(Arrays.asList(true, true, null, true, false, false, false, false),
                f.eval(col("s").ne(lit("ü")).and(col("s").ne(lit("")))
                .and(col("s").ne(lit("w"))).and(col("s").ne(lit("v")))));
        for (Fixture g : List.of(f, f.select(1, 2, 3, 5, 7))) {
            g.checkSelect(col("day").eq(lit("Sunday")));
            g.checkSelect(col("day").ne(lit("Sunday")));
            g.checkSelect(col("day").eq(lit(LONG)));
            g.checkSelect(col("day").ne(lit(LONG_OTHER)));
            g.checkSelect(col("day").eq(lit("")));
            g.checkSelect(col("day").eq(col("other")));
            g.checkSelect(col("day").ne(col("other")));
            g.checkSelect(col("s").eq(lit("ü")));
        }
        assertEquals(3, f.checkSelect(col("day").eq(lit("Sunday"))));
        assertEquals(0, f.checkSelect(col("day").eq(nullOf(DataType.VARCHAR))));
    }

    @Test
    void shouldCompareShortLiteralsUpToTheEndOfTheBytes() {
        // Exactly sized bytes: the last rows have fewer than 16 bytes after their start.
        byte[] data = "SundayMondaySundayMondaySundaSunday".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        StringVector v = new StringVector(data, new int[] {0, 6, 12, 18, 24, 29, 35, 35});
        v.setNull(6);
        Fixture g = Fixture.of(Schema.of(Field.of("day", DataType.VARCHAR)), Batch.of(7, v));
        assertEquals(Arrays.asList(true, false, true, false, false, true, null), g.eval(col("day").eq(lit("Sunday"))));
        assertEquals(Arrays.asList(false, true, false, true, true, false, null), g.eval(col("day").ne(lit("Sunday"))));
        assertEquals(Arrays.asList(false, false, false, false, true, false, null), g.eval(col("day").eq(lit("Sunda"))));
        assertEquals(Arrays.asList(false, false, false, false, false, false, null),
                g.eval(col("day").eq(lit("SundayMonday"))));
        assertEquals(3, g.checkSelect(col("day").eq(lit("Sunday"))));
        assertEquals(1, g.checkSelect(col("day").eq(lit("Sunda"))));
        assertEquals(3, g.checkSelect(col("day").ne(lit("Sunday"))));
        g.select(0, 4, 5, 6).checkSelect(col("day").eq(lit("Sunday")));
    }
}
