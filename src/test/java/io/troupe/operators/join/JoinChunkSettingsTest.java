package io.troupe.operators.join;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Lesson 2's settings change where join rows live, never which rows a join returns: every join type,
 * on the packed (INT32), two-long (INT64) and generic (VARCHAR, two keys) paths, gives the same rows
 * with chunks of 4 KiB (many chunks), 32 KiB and 128 KiB, preallocated or on demand, with the leader
 * alone and two workers, over a whole table and over a filtered one (whose last chunks are cut to their
 * rows), and the arena holds nothing afterwards.
 */
class JoinChunkSettingsTest {

    private static final int BUILD_ROWS = 3000;

    private static List<Table> tables() {
        Schema schema = Schema.of(Field.of("i", DataType.INT32), Field.of("l", DataType.INT64),
                Field.of("s", DataType.VARCHAR), Field.of("v", DataType.FLOAT64));
        TableBuilder build = new TableBuilder("b", schema, 250);
        for (int r = 0; r < BUILD_ROWS; r++) {
            build.addRow(r % 7 == 0 ? null : r % 1100, (long) (r % 900), "k" + (r % 800), r * 0.25);
        }
        TableBuilder probe = new TableBuilder("p", schema, 300);
        for (int r = 0; r < 2000; r++) {
            probe.addRow(r % 11 == 0 ? null : r % 1300, (long) (r % 1000), r % 13 == 0 ? null : "k" + (r % 950), r * 0.5);
        }
        return List.of(build.build(), probe.build());
    }

    private static List<Plan> plans() {
        List<Plan> plans = new ArrayList<>();
        for (JoinType type : JoinType.values()) {
            plans.add(Plan.scan("p").join(Plan.scan("b"), type, col("p.i").eq(col("b.i"))));
            plans.add(Plan.scan("p").join(Plan.scan("b"), type, col("p.l").eq(col("b.l"))));
            plans.add(Plan.scan("p").join(Plan.scan("b"), type, col("p.s").eq(col("b.s")).and(col("p.l").eq(col("b.l")))));
            // A filtered build side has no known count: its workers' last chunks end part-full and are cut to their rows.
            Plan some = Plan.scan("b").filter(col("b.v").lt(lit(137.5)));
            plans.add(Plan.scan("p").join(some, type, col("p.i").eq(col("b.i"))));
            plans.add(Plan.scan("p").join(some, type, col("p.s").eq(col("b.s")).and(col("p.l").eq(col("b.l")))));
        }
        return plans;
    }

    @Test
    @Timeout(120)
    void sameRowsUnderEveryChunkSizeAndPreallocation() {
        List<Table> tables = tables();
        List<List<String>> reference = run(tables, new TroupeSettings.Memory(32 * 1024, 0, Long.MAX_VALUE), 0);
        int[] sizes = {4 * 1024, 32 * 1024, 128 * 1024};
        for (int size : sizes) {
            for (long preallocate : new long[] {0, 4L * 1024 * 1024}) {
                for (int workers : new int[] {0, 2}) {
                    TroupeSettings.Memory memory = new TroupeSettings.Memory(size, preallocate, Long.MAX_VALUE);
                    assertEquals(reference, run(tables, memory, workers),
                            "chunk " + size + ", preallocate " + preallocate + ", workers " + workers);
                }
            }
        }
    }

    private static List<List<String>> run(List<Table> tables, TroupeSettings.Memory memory, int workers) {
        List<List<String>> results = new ArrayList<>();
        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0).withBatchSize(128).withMemory(memory))) {
            tables.forEach(troupe::register);
            for (Plan plan : plans()) {
                List<String> rows = new ArrayList<>();
                for (List<Object> row : troupe.execute(plan, QueryOptions.defaults().withWorkers(workers)).rows()) {
                    rows.add(String.join(" | ", row.stream().map(Objects::toString).toList()));
                }
                Collections.sort(rows);
                results.add(rows);
                assertEquals(0, troupe.memoryArena().inUseBytes());
            }
        }
        return results;
    }
}
