package io.troupe.operators.sql;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.RunningQuery;
import io.troupe.actors.api.Troupe;
import io.troupe.actors.exchange.InMemoryNodeLinks;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.oracle.DuckDbOracle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The aggregates of {@link AggregateSqlTest} spread over three nodes (Troupes in this JVM joined by in-memory streams,
 * {@link Troupe#submitPart}), 1 and 2 workers a node, over tables every node holds and over tables partitioned across
 * the nodes, checked against DuckDB as AggregateSqlTest checks. Grouped, the rows repartition by their keys and each
 * node aggregates its share; ungrouped, each node aggregates its rows into one row of partial states that the
 * coordinator combines, but for the aggregates that keep every value (median, string_agg, ...), whose input
 * gathers instead: EXPLAIN shows both. The sketches answer exactly here: the groups are small, and over everything
 * approx_count_distinct counts 25 words and approx_quantile picks among six values, far from where one gives way to
 * the next ({@link ApproximateAggregatesTest} checks their errors).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class AggregateSpreadTest {

    private static final int NODES = 3;
    private static final Duration PART_TIMEOUT = Duration.ofSeconds(60);

    private static final List<String> QUERIES = List.of(
            "SELECT g, median(x), percentile_cont(0.3) WITHIN GROUP (ORDER BY f DESC), percentile_disc(0.7) WITHIN "
                    + "GROUP (ORDER BY s), mode() WITHIN GROUP (ORDER BY k), string_agg(s, ',' ORDER BY id) FROM t "
                    + "GROUP BY g",
            "SELECT median(x), median(d), percentile_disc(0.25) WITHIN GROUP (ORDER BY dt DESC), mode() WITHIN GROUP "
                    + "(ORDER BY s), string_agg(s, ',' ORDER BY id) FROM t",
            "SELECT g, covar_pop(y, x), regr_slope(y, x), regr_count(y, x), regr_sxy(d, f), bool_and(b), bool_or(b), "
                    + "approx_count_distinct(s), approx_quantile(x, 0.5) FROM t GROUP BY g",
            "SELECT corr(y, x), covar_samp(y, x), regr_intercept(y, x), regr_avgx(y, x), regr_count(y, x), "
                    + "regr_r2(y, x), regr_avgy(y, x), regr_sxx(y, x), regr_syy(y, x), bool_and(b), bool_or(b), "
                    + "approx_count_distinct(s), approx_quantile(k, 0.9), avg(x), var_samp(f), count(*) FROM t",
            "SELECT corr(y, x), approx_count_distinct(s), median(x) FROM e",
            "SELECT g, count(DISTINCT s), median(x), corr(y, x), string_agg(s, ',' ORDER BY id) FROM t GROUP BY g");
    /** DuckDB's spelling of each query where it differs (see {@link AggregateSqlTest}). */
    private static final List<String> DUCK = QUERIES.stream().map(q -> q
            .replace("corr(y, x)", "nullif(corr(y, x), 'NaN'::DOUBLE)")
            .replace("regr_slope(y, x)", "nullif(regr_slope(y, x), 'NaN'::DOUBLE)")
            .replace("approx_count_distinct(s)", "count(DISTINCT s)")
            .replace("approx_quantile(x, 0.5)", "percentile_disc(0.5) WITHIN GROUP (ORDER BY x)")
            .replace("approx_quantile(k, 0.9)", "percentile_disc(0.9) WITHIN GROUP (ORDER BY k)")).toList();

    private static DuckDbOracle duck;
    /** Every node holding every table, and every node holding a part of each (round robin). */
    private static final List<Troupe> replicated = new ArrayList<>();
    private static final List<Troupe> partitioned = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        List<Table> tables = List.of(AggregateSqlTest.table("t", 3000, 23), AggregateSqlTest.table("e", 0, 0));
        duck = new DuckDbOracle();
        duck.load(tables);
        TroupeSettings settings = TroupeSettings.load().withBatchSize(128);
        for (int n = 0; n < NODES; n++) {
            Troupe all = Troupe.start(settings);
            Troupe part = Troupe.start(settings);
            replicated.add(all);
            partitioned.add(part);
            for (Table table : tables) {
                all.register(table);
                part.register(table.part(new Table.Part(n, NODES, null)));
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        replicated.forEach(Troupe::close);
        partitioned.forEach(Troupe::close);
        if (duck != null) {
            duck.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> spreadAggregatesReturnDuckDbsRows() {
        List<DynamicTest> tests = new ArrayList<>();
        for (int q = 0; q < QUERIES.size(); q++) {
            String sql = QUERIES.get(q);
            String duckSql = DUCK.get(q);
            tests.add(DynamicTest.dynamicTest(sql, () -> {
                List<List<Object>> expected = duck.query(duckSql).rows();
                for (List<Troupe> nodes : List.of(replicated, partitioned)) {
                    for (int workers : new int[] {1, 2}) {
                        Plan plan = nodes.get(0).planSql(sql);
                        List<List<Object>> actual = DuckDbOracle.normalise(runSpread(nodes, plan, workers).rows());
                        String diff = AggregateSqlTest.compare(expected, actual);
                        if (diff != null) {
                            fail(sql + " over " + NODES + " nodes, " + workers + " workers each, "
                                    + (nodes == replicated ? "replicated" : "partitioned") + ":\n" + diff);
                        }
                    }
                }
            }));
        }
        return tests.stream();
    }

    @Test
    void anUngroupedAggregateGathersPartialStatesUnlessItKeepsEveryValue() {
        String partial = replicated.get(0).explainSpread(replicated.get(0).planSql(
                "SELECT corr(y, x), approx_count_distinct(s), avg(x) FROM t"), QueryOptions.defaults(), NODES);
        int aggregate = partial.indexOf("Hash Aggregate corr(");
        assertTrue(aggregate > 0, partial);
        assertTrue(partial.substring(0, aggregate).contains("Nodes: 3, sent from every node"), partial);
        assertTrue(!partial.substring(aggregate).contains("Gather"), partial);
        String gathered = replicated.get(0).explainSpread(replicated.get(0).planSql(
                "SELECT median(x), corr(y, x) FROM t"), QueryOptions.defaults(), NODES);
        aggregate = gathered.indexOf("Hash Aggregate median(");
        assertTrue(aggregate > 0, gathered);
        assertTrue(gathered.substring(aggregate).contains("Gather to the coordinator"), gathered);
    }

    /** Runs {@code plan} on every node; a part that fails cancels the others. Returns the coordinator's result. */
    private static QueryResult runSpread(List<Troupe> nodes, Plan plan, int workers) {
        InMemoryNodeLinks.Hub hub = new InMemoryNodeLinks.Hub(NODES);
        QueryOptions options = QueryOptions.defaults().withWorkers(workers).withTimeout(PART_TIMEOUT);
        List<RunningQuery> parts = new ArrayList<>();
        for (int n = 0; n < NODES; n++) {
            parts.add(nodes.get(n).submitPart(plan, options, hub.node(n)));
        }
        for (RunningQuery part : parts) {
            part.result().whenComplete((r, e) -> {
                if (e != null) {
                    parts.forEach(other -> other.cancel("another node's part failed: " + e));
                }
            });
        }
        QueryResult result = parts.get(0).await();
        for (int n = 1; n < NODES; n++) {
            parts.get(n).await();
        }
        return result;
    }
}
