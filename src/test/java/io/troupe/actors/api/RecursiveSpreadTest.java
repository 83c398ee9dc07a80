package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * WITH RECURSIVE and generate_series spread over three "nodes" that are Troupes in one JVM ({@link Troupe#submitPart},
 * in-memory streams between them), against DuckDB: the recursive term's rounds run on the coordinator alone, the
 * non-recursive term on every node (its rows gathered), a series split between the nodes; and a recursive term over a
 * table partitioned across the nodes refused before anything runs.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RecursiveSpreadTest {

    /** As many as {@link SpreadQueryTest#runSpread} runs a plan on. */
    private static final int NODES = 3;
    private static final List<String> CASES = List.of(
            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 100) SELECT n FROM r",
            "WITH RECURSIVE reach(node) AS (SELECT src FROM edges WHERE src < 5 "
                    + "UNION SELECT e.dst FROM reach JOIN edges e ON e.src = reach.node) SELECT node FROM reach",
            "WITH RECURSIVE walk(node, depth) AS (SELECT src, 0 FROM edges WHERE src < 3 "
                    + "UNION ALL SELECT e.dst, walk.depth + 1 FROM walk JOIN edges e ON e.src = walk.node "
                    + "WHERE walk.depth < 3) SELECT node, depth, count(*) FROM walk GROUP BY node, depth",
            "WITH RECURSIVE r(n) AS (SELECT * FROM generate_series(1, 5000) UNION ALL SELECT n + 5000 FROM r "
                    + "WHERE n < 20000) SELECT count(*), sum(n), min(n), max(n) FROM r",
            "SELECT x, count(*) FROM generate_series(1, 100000, 7) AS g(x) JOIN edges ON edges.src = x % 80 GROUP BY x");

    private static DuckDbOracle oracle;
    private static final List<Troupe> NODE_TROUPES = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        Table edges = edges();
        oracle = new DuckDbOracle();
        oracle.load(List.of(edges));
        for (int n = 0; n < NODES; n++) {
            Troupe troupe = Troupe.start(TroupeSettings.load().withBatchSize(64));
            troupe.register(edges);
            NODE_TROUPES.add(troupe);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        NODE_TROUPES.forEach(Troupe::close);
        if (oracle != null) {
            oracle.close();
        }
    }

    private static Table edges() {
        Random random = new Random(5);
        TableBuilder t = new TableBuilder("edges", Schema.of(new Field(null, "src", DataType.INT64, false),
                Field.of("dst", DataType.INT64)));
        for (int i = 0; i < 300; i++) {
            t.addRow((long) 1 + random.nextInt(80), random.nextInt(20) == 0 ? null : (long) 1 + random.nextInt(80));
        }
        return t.build();
    }

    @Test
    void spreadRecursionsReturnDuckDbsRows() throws Exception {
        for (String sql : CASES) {
            Plan plan = NODE_TROUPES.get(0).planSql(sql);
            for (int workers : new int[] {1, 2}) {
                QueryResult result = SpreadQueryTest.runSpread(NODE_TROUPES, plan, QueryOptions.defaults().withWorkers(workers));
                String diff = ResultComparator.compare(oracle.query(sql).rows(),
                        DuckDbOracle.normalise(result.rows()), false);
                assertNull(diff, sql + " spread over " + NODES + " nodes, " + workers + " workers each: " + diff);
            }
        }
        String explain = NODE_TROUPES.get(0).explainSpread(NODE_TROUPES.get(0).planSql(CASES.get(1)),
                QueryOptions.defaults(), NODES);
        assertTrue(explain.contains("Recursive Union reach (distinct rows)"), explain);
    }

    @Test
    void aRecursiveTermOverAPartitionedTableIsRefused() {
        Table edges = edges();
        try (Troupe partitioned = Troupe.start(TroupeSettings.load())) {
            partitioned.register(edges.part(new Table.Part(0, NODES, "src")));
            Plan plan = partitioned.planSql(CASES.get(1));
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> partitioned.explainSpread(plan, QueryOptions.defaults(), NODES));
            assertTrue(refused.getMessage().contains("partitioned across the nodes")
                    && refused.getMessage().contains("WITH RECURSIVE"), refused.getMessage());
        }
    }
}
