package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.profile.NodeProfile;
import io.troupe.operators.profile.QueryProfile;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static io.troupe.operators.plan.Expr.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hash join over its memory budget, end to end and against DuckDB: every join type, on an INT,
 * a BIGINT, a VARCHAR and a two-column key, with 0, 1, 2 and 4 workers, under a budget of 1/4 and
 * of 1/20 of what the query needs in memory, returns DuckDB's rows (streamed, so the test holds
 * them), spills (the Troupe's spill files grew) and leaves no file, memory or worker behind. The
 * build side has NULL keys and a hot key (2% of its rows), the probe side NULL keys and keys the
 * build lacks; the build's columns are of every type, so every type goes through the files and back.
 *
 * <p>Chunks are the smallest (4 KiB) so that a small table needs many and 1/20 of it still holds
 * one chunk and the spill buffers (an eighth of a chunk per partition): the limit below which a join
 * cannot spill.
 */
class JoinSpillTest {

    static final int CHUNK = 4 * 1024;
    /** The probe side's columns: an id, the key in three types, and a VARCHAR. */
    static final Schema PROBE_SCHEMA = Schema.of(Field.of("id", DataType.INT64), Field.of("ki", DataType.INT32),
            Field.of("kl", DataType.INT64), Field.of("ks", DataType.VARCHAR), Field.of("note", DataType.VARCHAR));
    private static final int[] WORKERS = {0, 1, 2, 4};
    private static final int[] DIVISORS = {4, 20};

    @TempDir
    static Path spillDirectory;
    private static DuckDbOracle duck;
    private static Troupe unlimited;

    /** The key columns a test joins on: one of each key path of the table, and two columns. */
    enum Keys {
        INT("ki"), BIGINT("kl"), VARCHAR("ks"), TWO_COLUMNS("ki", "ks"),
        /** INT with a residual that refuses about a third of the pairs of equal keys. */
        INT_AND_RESIDUAL("ki");

        final List<String> columns;

        Keys(String... columns) {
            this.columns = List.of(columns);
        }

        Expr on() {
            Expr on = null;
            for (String c : columns) {
                Expr eq = col("p." + c).eq(col("b." + c));
                on = on == null ? eq : on.and(eq);
            }
            return this == INT_AND_RESIDUAL ? on.and(col("p.id").plus(col("b.id")).mod(Expr.lit(3L)).ne(Expr.lit(0L)))
                    : on;
        }

        String sqlOn() {
            return String.join(" AND ", columns.stream().map(c -> "p." + c + " = b." + c).toList())
                    + (this == INT_AND_RESIDUAL ? " AND (p.id + b.id) % 3 <> 0" : "");
        }
    }

    @BeforeAll
    static void load() throws Exception {
        List<Table> tables = tables(20_000, 16_000, new Random(20_251_203));
        duck = new DuckDbOracle();
        duck.load(tables);
        unlimited = start(Long.MAX_VALUE / 4, true);
        tables.forEach(unlimited::register);
    }

    @AfterAll
    static void close() throws Exception {
        if (unlimited != null) {
            unlimited.close();
        }
        if (duck != null) {
            duck.close();
        }
    }

    /** A Troupe whose queries together may hold {@code budget} bytes, spilling into the test's directory when on. */
    static Troupe start(long budget, boolean spill) {
        return Troupe.start(TroupeSettings.load().withBatchSize(512)
                .withMemory(new TroupeSettings.Memory(CHUNK, 0, budget))
                .withSpill(new TroupeSettings.Spill(spill, spillDirectory.toString(), 1L << 34)));
    }

    /**
     * Every key path with the join types that have one of their own (spilled build rows by match flag: RIGHT,
     * FULL; probe rows by their own: LEFT, SEMI, ANTI); RIGHT_SEMI and RIGHT_ANTI, which follow RIGHT's path,
     * and a residual, which every path checks alike, on one key (the suite's time is bounded).
     */
    static Stream<Arguments> typesAndKeys() {
        List<Arguments> cases = new ArrayList<>();
        for (JoinType type : List.of(JoinType.INNER, JoinType.LEFT, JoinType.RIGHT, JoinType.FULL, JoinType.SEMI,
                JoinType.ANTI)) {
            for (Keys keys : List.of(Keys.INT, Keys.BIGINT, Keys.VARCHAR, Keys.TWO_COLUMNS)) {
                cases.add(Arguments.of(type, keys));
            }
        }
        cases.add(Arguments.of(JoinType.RIGHT_SEMI, Keys.INT));
        cases.add(Arguments.of(JoinType.RIGHT_ANTI, Keys.TWO_COLUMNS));
        for (JoinType type : List.of(JoinType.LEFT, JoinType.FULL, JoinType.ANTI, JoinType.RIGHT_SEMI)) {
            cases.add(Arguments.of(type, Keys.INT_AND_RESIDUAL));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} join on {1}")
    @MethodSource("typesAndKeys")
    @Timeout(300)
    void spilledJoinReturnsDuckDbsRows(JoinType type, Keys keys) throws Exception {
        Plan plan = plan(type, keys);
        List<List<Object>> expected = duck.query(sql(type, keys)).rows();
        long need = inMemoryNeed(unlimited, plan);
        for (int divisor : DIVISORS) {
            try (Troupe troupe = start(need / divisor, true)) {
                registerAll(troupe);
                for (int workers : WORKERS) {
                    String run = type + " on " + keys + ", budget 1/" + divisor + " of " + need + " bytes, "
                            + workers + " workers";
                    long spilledBefore = troupe.spillSpace().writtenBytes();
                    List<List<Object>> rows = stream(troupe, plan, workers);
                    String diff = ResultComparator.compare(expected, DuckDbOracle.normalise(rows), false);
                    assertNull(diff, run + ": " + diff);
                    assertTrue(troupe.spillSpace().writtenBytes() > spilledBefore, run + ": nothing spilled");
                    assertNothingLeft(troupe, run);
                }
            }
        }
    }

    /**
     * What {@code plan} needs in memory: the peaks of its nodes in a run without a budget, together
     * (its join's table, and the result it collects).
     */
    static long inMemoryNeed(Troupe troupe, Plan plan) {
        QueryProfile profile = troupe.explainAnalyze(plan, QueryOptions.defaults().withWorkers(0));
        assertEquals(0, hashLine(profile).memory().spilledBytes(), "the unlimited run spilled");
        return profile.nodes().stream().mapToLong(n -> n.memory().peakBytes()).sum();
    }

    static NodeProfile hashLine(QueryProfile profile) {
        return profile.nodes().stream().filter(n -> n.kind() == NodeProfile.Kind.HASH).findFirst().orElseThrow();
    }

    /** Every row, streamed (so that the result is held by the test, not under the query's budget). */
    static List<List<Object>> stream(Troupe troupe, Plan plan, int workers) throws InterruptedException {
        List<List<Object>> rows = new ArrayList<>();
        try (QueryStream stream = troupe.stream(plan, QueryOptions.defaults().withWorkers(workers))) {
            for (Batch b = stream.next(); b != null; b = stream.next()) {
                for (int i = 0; i < b.size(); i++) {
                    rows.add(Arrays.asList(b.rowObjects(i)));
                }
            }
        }
        return rows;
    }

    static void assertNothingLeft(Troupe troupe, String run) {
        assertEquals(0, troupe.spillSpace().fileCount(), run + ": spill files left");
        assertEquals(0, troupe.memoryArena().inUseBytes(), run + ": memory held");
        assertEquals(0, troupe.liveWorkers(), run + ": workers alive");
    }

    private static void registerAll(Troupe troupe) {
        for (String name : List.of("p", "b")) {
            troupe.register(unlimited.catalog().table(name));
        }
    }

    /** p joined with b on {@code keys}: p's id and key and b's columns of every type. */
    static Plan plan(JoinType type, Keys keys) {
        Plan join = Plan.scan("p").join(Plan.scan("b"), type, keys.on());
        if (!type.emitsRight()) {
            return join.project(col("p.id"), col("p.ki"), col("p.note"));
        }
        if (!type.emitsLeft()) {
            return join.project(col("b.id"), col("b.ks"), col("b.pay"), col("b.f"), col("b.m"), col("b.d"), col("b.t"));
        }
        return join.project(col("p.id"), col("p.ki"), col("b.id"), col("b.ks"), col("b.pay"), col("b.f"),
                col("b.m"), col("b.d"), col("b.t"));
    }

    static String sql(JoinType type, Keys keys) {
        if (!type.emitsLeft()) {
            return "SELECT b.id, b.ks, b.pay, b.f, b.m, b.d, b.t FROM b " + sqlJoin(type) + " p ON " + keys.sqlOn();
        }
        String columns = type.emitsRight() ? "p.id, p.ki, b.id, b.ks, b.pay, b.f, b.m, b.d, b.t" : "p.id, p.ki, p.note";
        return "SELECT " + columns + " FROM p " + sqlJoin(type) + " b ON " + keys.sqlOn();
    }

    /** DuckDB's spelling of a join of {@code type}; RIGHT_SEMI and RIGHT_ANTI with the sides swapped. */
    static String sqlJoin(JoinType type) {
        return switch (type) {
            case INNER -> "JOIN";
            case LEFT -> "LEFT JOIN";
            case RIGHT -> "RIGHT JOIN";
            case FULL -> "FULL JOIN";
            case SEMI, RIGHT_SEMI -> "SEMI JOIN";
            case ANTI, RIGHT_ANTI -> "ANTI JOIN";
        };
    }

    /**
     * The probe side p ({@code probeRows}: keys 0..7999, 2% NULL) and the build side b
     * ({@code buildRows}: keys 0..5999, a hot key 7 on 2% of the rows, 1% NULL), their BIGINT and
     * VARCHAR keys made from the INT key so that every key path joins the same pairs.
     */
    static List<Table> tables(int buildRows, int probeRows, Random random) {
        TableBuilder b = new TableBuilder("b", Schema.of(Field.of("id", DataType.INT64), Field.of("ki", DataType.INT32),
                Field.of("kl", DataType.INT64), Field.of("ks", DataType.VARCHAR), Field.of("pay", DataType.VARCHAR),
                Field.of("f", DataType.FLOAT64), Field.of("m", DataType.decimal(12, 2)), Field.of("d", DataType.DATE),
                Field.of("t", DataType.BOOLEAN)), 1000);
        for (int id = 0; id < buildRows; id++) {
            double draw = random.nextDouble();
            Integer k = draw < 0.01 ? null : draw < 0.03 ? 7 : random.nextInt(6000);
            b.addRow((long) id, k, longKey(k), stringKey(k), "payload " + id + " " + "x".repeat(random.nextInt(30)),
                    random.nextInt(10) == 0 ? null : random.nextGaussian() * 1e6,
                    random.nextInt(10) == 0 ? null : BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2),
                    LocalDate.of(1990, 1, 1).plusDays(random.nextInt(20_000)), random.nextBoolean());
        }
        TableBuilder p = new TableBuilder("p", PROBE_SCHEMA, 1000);
        for (int id = 0; id < probeRows; id++) {
            Integer k = random.nextInt(50) == 0 ? null : random.nextInt(8000);
            p.addRow((long) id, k, longKey(k), stringKey(k), random.nextInt(5) == 0 ? null : "note " + id);
        }
        return List.of(p.build(), b.build());
    }

    private static Long longKey(Integer k) {
        return k == null ? null : k * 1_000_000_007L - 3;
    }

    private static String stringKey(Integer k) {
        return k == null ? null : "key " + k + (k % 3 == 0 ? " with a longer tail, past sixteen bytes" : "");
    }
}
