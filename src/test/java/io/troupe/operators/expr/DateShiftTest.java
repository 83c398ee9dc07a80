package io.troupe.operators.expr;

import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.troupe.operators.expr.Fixture.row;
import static io.troupe.operators.plan.Expr.addDays;
import static io.troupe.operators.plan.Expr.addMonths;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DateShiftTest {

    @Test
    void shouldMoveDatesByDaysAndMonthsClampingMonthEnds() {
        Fixture f = Fixture.of(Schema.of(Field.of("t", DataType.DATE), Field.of("n", DataType.INT32),
                        Field.of("s", DataType.VARCHAR)),
                row(LocalDate.of(2024, 1, 31), 1, "x"), row(LocalDate.of(2023, 3, 31), -1, "y"),
                row(null, 2, "z"), row(LocalDate.of(2000, 2, 29), null, "w"));
        assertEquals(DataType.DATE, f.bind(addDays(col("t"), col("n"))).type());
        assertEquals(Arrays.asList(LocalDate.of(2024, 2, 1), LocalDate.of(2023, 3, 30), null, null),
                f.eval(addDays(col("t"), col("n"))));
        assertEquals(Arrays.asList(LocalDate.of(2024, 2, 29), LocalDate.of(2023, 2, 28), null, null),
                f.eval(addMonths(col("t"), col("n"))));
        assertEquals(Arrays.asList(LocalDate.of(2025, 1, 31), LocalDate.of(2024, 3, 31), null,
                LocalDate.of(2001, 2, 28)), f.eval(addMonths(col("t"), lit(12L))));
        assertEquals(Arrays.asList(LocalDate.of(2023, 3, 30)), f.select(1).eval(addDays(col("t"), col("n"))));
        assertEquals("add_days needs a DATE or TIMESTAMP first argument, got VARCHAR in add_days(s, 1)",
                f.typeError(addDays(col("s"), lit(1))));
        assertEquals("add_months needs an INTEGER or BIGINT count, got VARCHAR in add_months(t, s)",
                f.typeError(addMonths(col("t"), col("s"))));
        QueryDataException overflow = assertThrows(QueryDataException.class,
                () -> f.select(0).eval(addMonths(col("t"), lit(Long.MAX_VALUE / 2))));
        assertTrue(overflow.getMessage().startsWith("overflow in add_months(t, "), overflow.getMessage());
    }

    @Test
    void shouldAgreeWithJavaTime() {
        Random random = new Random(20_261_205);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            rows.add(row(LocalDate.of(1600, 1, 1).plusDays(random.nextInt(250_000)), random.nextInt(4001) - 2000));
        }
        Fixture f = Fixture.of(Schema.of(Field.of("t", DataType.DATE), Field.of("n", DataType.INT32)),
                rows.toArray(new Object[0][]));
        List<Object> days = f.eval(addDays(col("t"), col("n")));
        List<Object> months = f.eval(addMonths(col("t"), col("n")));
        for (int i = 0; i < rows.size(); i++) {
            LocalDate d = (LocalDate) rows.get(i)[0];
            int n = (Integer) rows.get(i)[1];
            assertEquals(Arrays.asList(d.plusDays(n), d.plusMonths(n)), Arrays.asList(days.get(i), months.get(i)),
                    d + " moved by " + n);
        }
    }
}
