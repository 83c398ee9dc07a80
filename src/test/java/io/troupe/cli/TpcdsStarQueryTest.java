package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.cli.data.Benchmark;
import io.troupe.cli.data.BenchmarkDataGenerator;
import io.troupe.cli.data.GenerationProgress;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.troupe.operators.sql.PlanShape.joins;
import static io.troupe.operators.sql.PlanShape.scans;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Bench workload STAR, TPC-DS query 52 at scale factor 0.1: its SQL through Troupe's planner and its
 * hand-ordered plan return DuckDB's rows, in order, with 0 and 2 workers; the planner's plan probes with
 * store_sales and builds on the two dimensions, date_dim first, as the hand-ordered one does.
 */
class TpcdsStarQueryTest {

    private static Troupe troupe;
    private static List<List<Object>> expected;

    @BeforeAll
    static void generate() throws Exception {
        List<Table> tables = BenchmarkDataGenerator.generate(Benchmark.TPCDS, 0.1, TpcdsStarQuery.TABLES, 2,
                new GenerationProgress()).tables();
        troupe = Troupe.start();
        tables.forEach(troupe::register);
        try (DuckDbOracle duck = new DuckDbOracle()) {
            duck.load(tables);
            expected = duck.query(TpcdsStarQuery.SQL).rows();
        }
    }

    @AfterAll
    static void close() {
        if (troupe != null) {
            troupe.close();
        }
    }

    @Test
    void shouldReturnDuckDbsRowsFromTheSqlAndTheHandOrderedPlan() {
        assertFalse(expected.isEmpty());
        for (int workers : List.of(0, 2)) {
            QueryOptions options = QueryOptions.defaults().withWorkers(workers);
            assertNull(ResultComparator.compare(expected,
                    DuckDbOracle.normalise(troupe.sql(TpcdsStarQuery.SQL, options).rows()), true), "sql");
            assertNull(ResultComparator.compare(expected,
                    DuckDbOracle.normalise(troupe.execute(TpcdsStarQuery.plan(), options).rows()), true), "plan");
        }
    }

    @Test
    void shouldProbeWithStoreSalesAndBuildTheDimensions() {
        Plan plan = troupe.planSql(TpcdsStarQuery.SQL);
        List<Plan> joins = joins(plan);
        assertEquals(2, joins.size(), () -> troupe.explain(plan));
        assertEquals("store_sales", scans(joins.get(0)).get(0), () -> troupe.explain(plan));
        // date_dim's key repeats in store_sales' order and item's does not: the date join probes first.
        assertEquals(List.of("date_dim"), scans(joins.get(1).children().get(1)), () -> troupe.explain(plan));
        for (Plan join : joins) {
            assertFalse(scans(join.children().get(1)).contains("store_sales"), () -> troupe.explain(plan));
        }
    }
}
