package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.cli.data.Benchmark;
import io.troupe.cli.data.BenchmarkDataGenerator;
import io.troupe.cli.data.GenerationProgress;
import io.troupe.operators.table.Table;
import io.troupe.operators.sql.SqlEngines;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * TPC-DS queries with window functions at scale factor 0.1, through Troupe's SQL planner against DuckDB, with
 * 1, 2 and 4 workers: q98 (each item's revenue as a percentage of its class's, {@code sum(sum(x)) OVER
 * (PARTITION BY i_class)}: a window over an aggregate), and the best three items of each category by revenue
 * ({@code rank()} in a subquery, filtered). Its date range is written as two dates: DuckDB's DATE + INTERVAL is a
 * TIMESTAMP.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class TpcdsWindowQueriesTest {

    private static final String Q98 = """
            select i_item_id, i_item_desc, i_category, i_class, i_current_price,
                   sum(ss_ext_sales_price) as itemrevenue,
                   sum(ss_ext_sales_price) * 100 / sum(sum(ss_ext_sales_price)) over (partition by i_class)
                       as revenueratio
            from store_sales, item, date_dim
            where ss_item_sk = i_item_sk
              and i_category in ('Sports', 'Books', 'Home')
              and ss_sold_date_sk = d_date_sk
              and d_date between cast('1999-02-22' as date) and cast('1999-03-24' as date)
            group by i_item_id, i_item_desc, i_category, i_class, i_current_price
            order by i_category, i_class, i_item_id, i_item_desc, revenueratio
            """;

    private static final String TOP_ITEMS = """
            select * from (
                select i_category, i_item_id, sum(ss_net_paid) as revenue,
                       rank() over (partition by i_category order by sum(ss_net_paid) desc nulls last) as rk
                from store_sales, item
                where ss_item_sk = i_item_sk and ss_quantity > 90
                group by i_category, i_item_id) ranked
            where rk <= 3
            order by i_category nulls first, rk, i_item_id
            """;

    private static SqlEngines engines;
    private static Troupe troupe;
    private static DuckDbOracle duck;

    @BeforeAll
    static void generate() throws Exception {
        List<Table> tables = BenchmarkDataGenerator.generate(Benchmark.TPCDS, 0.1,
                List.of("store_sales", "date_dim", "item"), 2, new GenerationProgress()).tables();
        engines = SqlEngines.over(tables);
        troupe = engines.troupe();
        duck = engines.duck();
    }

    @AfterAll
    static void close() throws Exception {
        if (engines != null) {
            engines.close();
        }
    }

    @Test
    void shouldMatchDuckDbOnQuery98() throws Exception {
        check(Q98);
    }

    @Test
    void shouldMatchDuckDbOnTheTopItemsOfEachCategory() throws Exception {
        check(TOP_ITEMS);
    }

    private static void check(String sql) throws Exception {
        List<List<Object>> expected = duck.query(sql).rows();
        assertFalse(expected.isEmpty(), sql);
        for (int workers : List.of(1, 2, 4)) {
            List<List<Object>> actual = DuckDbOracle.normalise(
                    troupe.sql(sql, QueryOptions.defaults().withWorkers(workers)).rows());
            assertNull(ResultComparator.compare(expected, actual, true), () -> workers + " workers:\n"
                    + troupe.explainSql(sql));
        }
    }
}
