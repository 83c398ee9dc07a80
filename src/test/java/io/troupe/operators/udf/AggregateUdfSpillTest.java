package io.troupe.operators.udf;

import io.troupe.actors.api.QueryStream;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.SortKey;
import io.troupe.operators.profile.NodeProfile;
import io.troupe.operators.profile.QueryProfile;
import io.troupe.operators.table.Table;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.troupe.operators.plan.Expr.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Aggregates of one's own spill: grouped by a unique key under a fifth of the memory they hold at their peak, their
 * states go to spill files as rows of their fields and come back merged, and the rows are DuckDB's.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class AggregateUdfSpillTest {

    private static final Plan PLAN = Plan.scan("sales")
            .aggregate(List.of(col("id")), Expr.call("sum_sq", col("x")).as("ss"), Expr.call("span", col("d")).as("sp"),
                    Expr.call("words", col("s")).as("w"))
            .sort(new SortKey(col("id"), true, false));
    private static final String DUCK = "SELECT id, sum(x * x), CAST(max(d) - min(d) AS DOUBLE), count(s) FROM sales GROUP BY id "
            + "ORDER BY id";

    private static TroupeSettings settings(long budget) {
        TroupeSettings s = TroupeSettings.load().withBatchSize(1024);
        return s.withMemory(new TroupeSettings.Memory(TroupeSettings.Memory.MIN_CHUNK_BYTES, 0, budget))
                .withSpill(new TroupeSettings.Spill(true, s.spill().directory(), s.spill().maxSizeBytes()));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void statesSpillAndComeBackMerged(int workers) throws Exception {
        List<Table> tables = List.of(UdfTables.sales(20_261_209L, 40_000));
        long peak;
        try (UdfEngines unbounded = UdfEngines.over(settings(Long.MAX_VALUE / 4), tables,
                AggregateUdfTest::register)) {
            QueryProfile profile = unbounded.troupe().explainAnalyze(PLAN, UdfEngines.options(workers));
            NodeProfile aggregate = profile.nodes().stream().filter(n -> n.label().startsWith("Hash Aggregate"))
                    .findFirst().orElseThrow(() -> new AssertionError(profile.render()));
            assertEquals(0, aggregate.memory().spilledBytes(), profile.render());
            peak = aggregate.memory().peakBytes();
            assertTrue(peak > 0, profile.render());
        }
        try (UdfEngines spilling = UdfEngines.over(settings(peak / 5), tables, AggregateUdfTest::register)) {
            Troupe troupe = spilling.troupe();
            List<List<Object>> rows;
            try (QueryStream stream = troupe.stream(PLAN, UdfEngines.options(workers))) {
                rows = stream.remaining().rows();
            }
            assertTrue(troupe.spillSpace().writtenBytes() > 0, "the aggregate spilled");
            assertEquals(0, troupe.spillSpace().fileCount(), "spill files left");
            spilling.assertAgrees(DUCK, rows);
            spilling.assertReleased();
        }
    }
}
