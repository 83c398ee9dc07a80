package io.troupe.operators.expr;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.troupe.operators.expr.Fixture.row;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.day;
import static io.troupe.operators.plan.Expr.month;
import static io.troupe.operators.plan.Expr.year;
import static org.junit.jupiter.api.Assertions.assertEquals;

class DatePartTest {

    @Test
    void shouldExtractYearMonthAndDayAsInt32() {
        Fixture f = Fixture.of(Schema.of(Field.of("t", DataType.DATE), Field.of("s", DataType.VARCHAR)),
                row(LocalDate.of(2024, 2, 29), "x"), row(LocalDate.of(1969, 12, 31), "y"), row(null, "z"),
                row(LocalDate.of(-44, 3, 15), "w"));
        assertEquals(DataType.INT32, f.bind(year(col("t"))).type());
        assertEquals(Arrays.asList(2024, 1969, null, -44), f.eval(year(col("t"))));
        assertEquals(Arrays.asList(2, 12, null, 3), f.eval(month(col("t"))));
        assertEquals(Arrays.asList(29, 31, null, 15), f.eval(day(col("t"))));
        assertEquals(Arrays.asList(1969, -44), f.select(1, 3).eval(year(col("t"))));
        assertEquals("year needs a DATE or TIMESTAMP argument, got VARCHAR in year(s)", f.typeError(year(col("s"))));
    }

    @Test
    void shouldAgreeWithJavaTimeOverFourHundredYears() {
        List<Object[]> rows = new ArrayList<>();
        for (LocalDate d = LocalDate.of(1800, 1, 1); d.isBefore(LocalDate.of(2200, 1, 1)); d = d.plusDays(13)) {
            rows.add(row(d));
        }
        Fixture f = Fixture.of(Schema.of(Field.of("t", DataType.DATE)), rows.toArray(new Object[0][]));
        List<Object> years = f.eval(year(col("t")));
        List<Object> months = f.eval(month(col("t")));
        List<Object> days = f.eval(day(col("t")));
        for (int i = 0; i < rows.size(); i++) {
            LocalDate d = (LocalDate) rows.get(i)[0];
            assertEquals(Arrays.asList(d.getYear(), d.getMonthValue(), d.getDayOfMonth()),
                    Arrays.asList(years.get(i), months.get(i), days.get(i)), d.toString());
        }
    }
}
