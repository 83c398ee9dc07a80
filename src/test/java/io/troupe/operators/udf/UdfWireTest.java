package io.troupe.operators.udf;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.actors.wire.WireCodec;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanException;
import io.troupe.operators.plan.SortKey;
import io.troupe.operators.plan.UserCall;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.troupe.operators.plan.Expr.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A plan that calls a function of one's own crosses the wire by the function's name, never its code: the node that
 * reads it runs it with its own function of that name, and one that has none refuses it, naming the function.
 */
class UdfWireTest {

    private static final WireCodec CODEC = new WireCodec("udf");

    @Test
    void aCallTravelsByNameAndEachNodeBindsItsOwn() throws Exception {
        Table sales = UdfTables.sales(7, 300);
        try (Troupe sender = Troupe.start(TroupeSettings.load()); Troupe with = Troupe.start(TroupeSettings.load());
             Troupe without = Troupe.start(TroupeSettings.load())) {
            for (Troupe t : List.of(sender, with, without)) {
                t.register(sales);
            }
            sender.functions().scalar("plus_tax", List.of(DataType.FLOAT64), DataType.FLOAT64,
                    args -> (Double) args[0] * 1.2);
            with.functions().scalar("plus_tax", List.of(DataType.FLOAT64), DataType.FLOAT64,
                    args -> (Double) args[0] * 1.2);
            Plan plan = sender.optimize(Plan.scan("sales").project(col("id"),
                    Expr.call("plus_tax", col("x")).as("y")).sort(new SortKey(col("id"), true, false)));
            Plan received = (Plan) CODEC.decode(CODEC.encode(plan));
            assertEquals(sender.explain(plan), sender.explain(received));
            QueryOptions two = QueryOptions.defaults().withWorkers(2);
            List<List<Object>> rows = sender.execute(plan, two).rows();
            assertEquals(300, rows.size());
            assertEquals(rows, with.execute(received, two).rows());
            PlanException refused = assertThrows(PlanException.class, () -> without.execute(received, two));
            assertTrue(refused.getMessage().contains("the function plus_tax of plus_tax(x) is not registered in "
                    + "this Troupe"), refused.getMessage());
            for (Troupe t : List.of(sender, with)) {
                AggregateUdfTest.register(t.functions());
            }
            Plan aggregate = sender.optimize(Plan.scan("sales").aggregate(List.of(col("g")),
                    Expr.call("sum_sq", col("x")).as("ss"), Expr.call("span", col("x")).as("sp"))
                    .sort(new SortKey(col("g"), true, false)));
            Plan aggregateReceived = (Plan) CODEC.decode(CODEC.encode(aggregate));
            List<List<Object>> groups = sender.execute(aggregate, two).rows();
            assertTrue(groups.size() > 3, groups.toString());
            assertEquals(groups, with.execute(aggregateReceived, two).rows());
            PlanException lacking = assertThrows(PlanException.class, () -> without.execute(aggregateReceived, two));
            assertTrue(lacking.getMessage().contains("the function sum_sq of sum_sq(x) is not registered in "
                    + "this Troupe"), lacking.getMessage());
        }
    }

    @Test
    void theDecodedCallIsUnbound() {
        UserCall call = new UserCall("plus_tax", List.of(col("x")), null);
        UserCall decoded = (UserCall) CODEC.decode(CODEC.encode(call));
        assertEquals("plus_tax", decoded.name());
        assertEquals(List.of(col("x")), decoded.args());
        assertNull(decoded.functions());
    }
}
