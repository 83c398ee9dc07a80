package io.troupe.oracle;

import io.troupe.operators.table.Table;
import io.troupe.oracle.RandomPlans.Case;
import io.troupe.oracle.RandomTables.TableSpec;
import io.troupe.oracle.RandomTables.World;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Checks the generator on its own, with every feature on (also those Troupe does not have yet):
 * DuckDB must accept and run every SQL text it produces (no syntax error, no overflow, no
 * division by zero), and the features must all show up.
 */
class GeneratorSelfTest {

    @Test
    void shouldGenerateSqlThatDuckDbRunsForEveryFeature() throws SQLException {
        Map<String, Integer> coverage = new TreeMap<>();
        try (DuckDbOracle oracle = new DuckDbOracle()) {
            for (long w = 1; w <= 6; w++) {
                World world = RandomTables.world(w);
                List<Table> tables = new ArrayList<>();
                for (TableSpec t : world.tables()) {
                    tables.add(t.table());
                }
                oracle.load(tables);
                for (int i = 0; i < 40; i++) {
                    Case c = new RandomPlans(w * 1000 + i, world, FeatureSet.all(), null, coverage).generate();
                    try {
                        if (oracle.count(c.sql()) <= 30_000) {
                            oracle.query(c.sql());
                        }
                    } catch (SQLException e) {
                        fail("world " + w + ", case " + i + ": DuckDB rejected\n" + c.sql() + "\n" + e.getMessage());
                    }
                }
            }
        }
        for (String expected : List.of("filter", "project computed", "join INNER (1 key)", "join SEMI (1 key)",
                "join ANTI (1 key)", "join FULL (1 key)", "aggregate (0 keys)", "aggregate (2 keys)", "having",
                "sort (total)", "top-N", "distinct", "union all", "series", "limit (no order)",
                "join RIGHT_SEMI (1 key)", "join RIGHT_ANTI (1 key)", "join residual", "fn ADD_DAYS", "fn ADD_MONTHS",
                "fn date_trunc", "fn datediff", "fn greatest", "fn lpad", "fn abs", "aggregate MEDIAN",
                "aggregate PERCENTILE_DISC", "aggregate STRING_AGG", "aggregate REGRESSION")) {
            assertTrue(coverage.containsKey(expected), "never generated: " + expected + "; got " + coverage);
        }
    }
}
