package io.troupe;

import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanException;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.troupe.operators.plan.Expr.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SmokeTest {

    @Test
    void shouldScanProjectLimitAndUnion() {
        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0).withBatchSize(3))) {
            TableBuilder b = new TableBuilder("t", Schema.of(Field.of("a", DataType.INT32), Field.of("s", DataType.VARCHAR)), 4);
            for (int i = 0; i < 10; i++) {
                b.addRow(i, i % 3 == 0 ? null : "v" + i);
            }
            troupe.register(b.build());
            QueryResult r = troupe.execute(Plan.scan("t").project(col("s"), col("t.a")).limit(3, 2));
            assertEquals(List.of(List.of("v2", 2), java.util.Arrays.asList(null, 3), List.of("v4", 4)), r.rows());
            QueryResult u = troupe.execute(Plan.series("x", 1, 7).unionAll(Plan.series("y", 10, 11)));
            assertEquals(9, u.rowCount());
            assertEquals(11L, u.rows().get(8).get(0));
        }
    }

    @Test
    void shouldNameUnknownColumnAndNode() {
        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0))) {
            troupe.register(new TableBuilder("t", Schema.of(Field.of("a", DataType.INT32))).build());
            PlanException e = assertThrows(PlanException.class, () -> troupe.execute(Plan.scan("t").project(col("b"))));
            assertEquals("unknown column 'b'; available: t.a (in Project b)", e.getMessage());
            assertTrue(troupe.explain(Plan.scan("t").project(col("a"))).contains("Output: t.a INT32"));
        }
    }
}
