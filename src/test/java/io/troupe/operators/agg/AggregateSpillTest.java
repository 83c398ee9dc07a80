package io.troupe.operators.agg;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.QueryStream;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.memory.MemoryReservation;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.profile.NodeProfile;
import io.troupe.operators.profile.QueryProfile;
import io.troupe.operators.spill.SpillSpace;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.table.Tables;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.troupe.operators.plan.Expr.avg;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.countDistinct;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.max;
import static io.troupe.operators.plan.Expr.min;
import static io.troupe.operators.plan.Expr.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hash aggregate over the memory budget, through the public API and checked against DuckDB:
 * with a budget of 1/4 and 1/20 of what the aggregate held at its peak in memory, every aggregate
 * kind over every key shape (INT32, INT64, VARCHAR, several keys, NULL keys, DISTINCT) with 0, 1, 2
 * and 4 workers gives DuckDB's rows, and spills; so does W2 (a grouping of unique keys). A budget
 * smaller still makes the merge cut partitions again. count(DISTINCT x) of one x spills, alone or
 * beside other aggregates. With spill off, or with count(DISTINCT) of several arguments,
 * the query fails with the budget's error; the memory and files come back however it ends. The
 * rows of a batch refused to an empty partial, spilled as they were, count even when no partial
 * spilled its groups before that worker finished.
 */
@Timeout(300)
class AggregateSpillTest {

    private static final Schema SCHEMA = Schema.of(
            Field.of("k", DataType.INT32), Field.of("l", DataType.INT64), Field.of("s", DataType.VARCHAR),
            Field.of("d", DataType.DATE), Field.of("x", DataType.FLOAT64), Field.of("m", DataType.decimal(12, 2)),
            Field.of("b", DataType.BOOLEAN), Field.of("i", DataType.INT32));
    private static final int ROWS = 40_000;
    private static final int BATCH = 1024;

    private static final Expr[] AGGREGATES = {
            count(), count(col("i")), count(col("s")), sum(col("i")), sum(col("l")), sum(col("x")), sum(col("m")),
            avg(col("i")), avg(col("x")), avg(col("m")),
            min(col("k")), max(col("k")), min(col("s")), max(col("s")), min(col("d")), max(col("d")),
            min(col("l")), max(col("l")), min(col("x")), max(col("x")), min(col("m")), max(col("m")),
            min(col("b")), max(col("b"))};
    private static final String AGGREGATES_SQL = "count(*), count(i), count(s), sum(i), sum(l), sum(x), sum(m), "
            + "avg(i), avg(x), avg(m), min(k), max(k), min(s), max(s), min(d), max(d), "
            + "min(l), max(l), min(x), max(x), min(m), max(m), min(b), max(b)";

    private static DuckDbOracle duck;
    private static Table table;

    @BeforeAll
    static void load() throws Exception {
        Random r = new Random(20240611);
        List<Object[]> rows = new ArrayList<>();
        for (int j = 0; j < ROWS; j++) {
            rows.add(new Object[] {
                    nullOr(r, r.nextInt(12_000) - 500),
                    nullOr(r, (long) r.nextInt(15_000) * 1_000_003L),
                    nullOr(r, "s" + r.nextInt(8_000) + (r.nextBoolean() ? "" : "-a longer tail")),
                    nullOr(r, LocalDate.of(2001, 1, 1).plusDays(r.nextInt(3000))),
                    nullOr(r, r.nextInt(1000) / 8.0),
                    nullOr(r, BigDecimal.valueOf(r.nextLong() % 100_000_000_000L, 2)),
                    nullOr(r, r.nextBoolean()),
                    nullOr(r, r.nextInt(2_000_001) - 1_000_000)});
        }
        TableBuilder b = new TableBuilder("t", SCHEMA, BATCH);
        rows.forEach(b::addRow);
        table = b.build();
        duck = new DuckDbOracle();
        duck.load("t", SCHEMA, rows);
    }

    @AfterAll
    static void close() throws Exception {
        duck.close();
    }

    private static Object nullOr(Random r, Object value) {
        return r.nextInt(20) == 0 ? null : value;
    }

    private static TroupeSettings settings(long budget, boolean spill) {
        TroupeSettings s = TroupeSettings.load().withBatchSize(BATCH);
        return s.withMemory(new TroupeSettings.Memory(TroupeSettings.Memory.MIN_CHUNK_BYTES, 0, budget))
                .withSpill(new TroupeSettings.Spill(spill, s.spill().directory(), s.spill().maxSizeBytes()));
    }

    /** What the plan's (one) hash aggregate held at its peak, in memory without a budget. */
    private static long peak(Plan plan, int workers) {
        try (Troupe troupe = Troupe.start(settings(Long.MAX_VALUE / 4, true)).register(table)) {
            QueryProfile profile = troupe.explainAnalyze(plan, QueryOptions.defaults().withWorkers(workers));
            NodeProfile aggregate = aggregateNode(profile);
            assertEquals(0, aggregate.memory().spilledBytes(), profile.render());
            assertTrue(aggregate.memory().peakBytes() > 0, profile.render());
            return aggregate.memory().peakBytes();
        }
    }

    private static NodeProfile aggregateNode(QueryProfile profile) {
        return profile.nodes().stream()
                .filter(n -> n.label().startsWith("Hash Aggregate") || n.label().startsWith("Distinct"))
                .findFirst().orElseThrow(() -> new AssertionError(profile.render()));
    }

    /** Streams the plan's rows (the test holds them, not Troupe) and checks that it spilled and gave all back. */
    private static List<List<Object>> runSpilling(Troupe troupe, Plan plan, int workers) throws Exception {
        long written = troupe.spillSpace().writtenBytes();
        List<List<Object>> rows;
        try (QueryStream stream = troupe.stream(plan, QueryOptions.defaults().withWorkers(workers))) {
            rows = stream.remaining().rows();
        }
        assertTrue(troupe.spillSpace().writtenBytes() > written, "the aggregate spilled");
        assertEquals(0, troupe.spillSpace().fileCount(), "spill files left");
        assertEquals(0, troupe.memoryArena().inUseBytes(), "memory left");
        return rows;
    }

    /**
     * Runs the plan at a quarter and a twentieth of its aggregate's peak in memory (with as many
     * workers), and checks both against DuckDB.
     */
    private static void checkAtFractions(Plan plan, String sql, int workers) throws Exception {
        long peak = peak(plan, workers);
        List<List<Object>> expected = DuckDbOracle.canonical(duck.query(sql));
        for (int fraction : new int[] {4, 20}) {
            try (Troupe troupe = Troupe.start(settings(peak / fraction, true)).register(table)) {
                DuckDbOracle.assertSameRows(sql + " at 1/" + fraction, expected, runSpilling(troupe, plan, workers));
            }
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    void everyAggregatePerInt32KeyAtAQuarterAndATwentiethOfItsPeak(int workers) throws Exception {
        checkAtFractions(Plan.scan("t").aggregate(List.of(col("k")), AGGREGATES),
                "select k, " + AGGREGATES_SQL + " from t group by k", workers);
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    void everyAggregatePerInt64KeyAtAQuarterAndATwentiethOfItsPeak(int workers) throws Exception {
        checkAtFractions(Plan.scan("t").aggregate(List.of(col("l")), AGGREGATES),
                "select l, " + AGGREGATES_SQL + " from t group by l", workers);
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    void everyAggregatePerVarcharKeyAtAQuarterAndATwentiethOfItsPeak(int workers) throws Exception {
        checkAtFractions(Plan.scan("t").aggregate(List.of(col("s")), AGGREGATES),
                "select s, " + AGGREGATES_SQL + " from t group by s", workers);
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    void severalKeysWithNullsAndDistinctAtAQuarterAndATwentiethOfTheirPeak(int workers) throws Exception {
        checkAtFractions(Plan.scan("t").aggregate(List.of(col("s"), col("d"), col("b")), count(), sum(col("m")),
                        min(col("s")), max(col("x"))),
                "select s, d, b, count(*), sum(m), min(s), max(x) from t group by s, d, b", workers);
        checkAtFractions(Plan.scan("t").project(col("k"), col("s")).distinct(), "select distinct k, s from t", workers);
    }

    /** count(DISTINCT x) alone runs as two plain aggregates (the pairs, then their counts): both spill. */
    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    void countDistinctOfOneArgumentSpillsAtAQuarterAndATwentiethOfItsPeak(int workers) throws Exception {
        checkAtFractions(Plan.scan("t").aggregate(List.of(col("k")), countDistinct(col("l")).as("a"),
                        countDistinct(col("l")).as("b")),
                "select k, count(distinct l), count(distinct l) from t group by k", workers);
        checkAtFractions(Plan.scan("t").aggregate(List.of(), countDistinct(col("s"))),
                "select count(distinct s) from t", workers);
    }

    /**
     * count(DISTINCT x) beside other aggregates runs in steps (the others' partial states per keys
     * beside the distinct pairs, their counts, then both combined per keys): each spills, NULL x and
     * NULL keys included, and gives DuckDB's rows in memory too.
     */
    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    void countDistinctBesideOtherAggregatesSpillsAtAQuarterAndATwentiethOfItsPeak(int workers) throws Exception {
        Plan perK = Plan.scan("t").aggregate(List.of(col("k")), count(), sum(col("i")), countDistinct(col("l")),
                min(col("s")), max(col("s")), avg(col("x")), sum(col("m")), count(col("d")),
                countDistinct(col("l")).as("again"));
        String perKSql = "select k, count(*), sum(i), count(distinct l), min(s), max(s), avg(x), sum(m), count(d), "
                + "count(distinct l) from t group by k";
        Plan perDb = Plan.scan("t").aggregate(List.of(col("d"), col("b")), countDistinct(col("s")), max(col("l")),
                avg(col("m")), min(col("x")), avg(col("i")));
        String perDbSql = "select d, b, count(distinct s), max(l), avg(m), min(x), avg(i) from t group by d, b";
        Plan global = Plan.scan("t").aggregate(List.of(), count(), countDistinct(col("s")), sum(col("l")),
                min(col("d")), max(col("m")));
        String globalSql = "select count(*), count(distinct s), sum(l), min(d), max(m) from t";
        checkInMemoryThenAtFractions(List.of(perK, perDb, global), List.of(perKSql, perDbSql, globalSql), workers);
    }

    /** More groups than a partial holds before it splits, in both steps: each merges partition by partition. */
    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    void countDistinctBesideOtherAggregatesOverManyGroupsSplitsBothSteps(int workers) throws Exception {
        Schema schema = Schema.of(Field.of("g", DataType.INT64), Field.of("v", DataType.INT32),
                Field.of("w", DataType.INT32), Field.of("name", DataType.VARCHAR));
        Random r = new Random(7);
        List<Object[]> rows = new ArrayList<>();
        for (int j = 0; j < 200_000; j++) {
            rows.add(new Object[] {nullOr(r, (long) (j % 90_001)), nullOr(r, r.nextInt(4)), nullOr(r, r.nextInt(1000)),
                    nullOr(r, "n" + r.nextInt(50))});
        }
        TableBuilder b = new TableBuilder("u", schema, BATCH);
        rows.forEach(b::addRow);
        Table u = b.build();
        try (DuckDbOracle oracle = new DuckDbOracle()) {
            oracle.load("u", schema, rows);
            String sql = "select g, count(*), count(distinct v), sum(w), min(name), avg(w) from u group by g";
            List<List<Object>> expected = DuckDbOracle.canonical(oracle.query(sql));
            Plan plan = Plan.scan("u").aggregate(List.of(col("g")), count(), countDistinct(col("v")), sum(col("w")),
                    min(col("name")), avg(col("w")));
            try (Troupe troupe = Troupe.start(settings(Long.MAX_VALUE / 4, true)).register(u)) {
                DuckDbOracle.assertSameRows(sql, expected, rows(troupe, plan, workers));
            }
        }
    }

    /** Checks each plan against DuckDB (the SQL at the same index) in memory, then each at 1/4 and 1/20 of its peak. */
    private static void checkInMemoryThenAtFractions(List<Plan> plans, List<String> sql, int workers) throws Exception {
        for (int i = 0; i < plans.size(); i++) {
            checkInMemory(table, plans.get(i), sql.get(i), workers);
        }
        for (int i = 0; i < plans.size(); i++) {
            checkAtFractions(plans.get(i), sql.get(i), workers);
        }
    }

    /** Checks the plan against DuckDB in memory (no budget to speak of). */
    private static void checkInMemory(Table input, Plan plan, String sql, int workers) throws Exception {
        try (Troupe troupe = Troupe.start(settings(Long.MAX_VALUE / 4, true)).register(input)) {
            DuckDbOracle.assertSameRows(sql, DuckDbOracle.canonical(duck.query(sql)), rows(troupe, plan, workers));
            assertEquals(0, troupe.spillSpace().writtenBytes(), "spilled in memory");
        }
    }

    private static List<List<Object>> rows(Troupe troupe, Plan plan, int workers) throws Exception {
        try (QueryStream stream = troupe.stream(plan, QueryOptions.defaults().withWorkers(workers))) {
            return stream.remaining().rows();
        }
    }

    /** W2: every key once, so nothing merges away; HAVING keeps the rows with a duplicate key. */
    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    void w2AtAQuarterAndATwentiethOfItsPeakShowsItsSpillInExplainAnalyze(int workers) throws Exception {
        int n = 400_000;
        int[] aid = new int[n];
        for (int j = 0; j < n; j++) {
            aid[j] = n - j;
        }
        aid[n / 2] = 17;
        Table accounts = Tables.fromColumns("pgbench_accounts", Schema.of(Field.of("aid", DataType.INT32)), (Object) aid);
        Plan w2 = Plan.scan("pgbench_accounts").aggregate(List.of(col("aid")), count().as("count"))
                .having(col("count").gt(lit(1L)));
        long peak;
        try (Troupe troupe = Troupe.start(settings(Long.MAX_VALUE / 4, true)).register(accounts)) {
            peak = aggregateNode(troupe.explainAnalyze(w2, QueryOptions.defaults().withWorkers(workers)))
                    .memory().peakBytes();
        }
        for (int fraction : new int[] {4, 20}) {
            try (Troupe troupe = Troupe.start(settings(peak / fraction, true)).register(accounts)) {
                QueryProfile profile = troupe.explainAnalyze(w2, QueryOptions.defaults().withWorkers(workers));
                assertEquals(List.of(List.of(17, 2L)), profile.result().rows(), profile.render());
                NodeProfile aggregate = aggregateNode(profile);
                assertTrue(aggregate.memory().spilledBytes() > 0, profile.render());
                assertTrue(aggregate.memory().peakBytes() <= peak / fraction, profile.render());
                assertTrue(profile.render().contains(" spilled="), profile.render());
                assertEquals(0, troupe.spillSpace().fileCount());
                assertEquals(0, troupe.memoryArena().inUseBytes());
            }
        }
    }

    /**
     * So little memory that a partition's merged groups do not fit (1,560 groups a partition, room
     * for a few hundred): the merge cuts partitions by more hash bits, so the result has more parts
     * than partitions, and the rows are still DuckDB's. Driven at the sink, to see the parts.
     */
    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {1, 4})
    void aPartitionWhoseGroupsDoNotFitIsCutByMoreHashBits(int workers, @TempDir Path tmp) throws Exception {
        AggregateResult result = runGrouping(workers, PartialAggregation.SPLIT_AT, 96 * 1024, tmp);
        assertTrue(result.partCount() > PartitionedGroups.PARTITIONS, "parts: " + result.partCount());
    }

    /** Partials that split into partitions (at 512 groups) before they spill, and go on whole after. */
    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {1, 2})
    void partialsThatSplitSpillPartitionByPartition(int workers, @TempDir Path tmp) throws Exception {
        runGrouping(workers, 512, 4 * 1024 * 1024, tmp);
    }

    /**
     * Groups 200,000 rows of 100,000 keys (a NULL key among them) at the sink under {@code budget},
     * checks DuckDB's rows, that it spilled, and that memory and files came back.
     */
    private static AggregateResult runGrouping(int workers, int splitAt, long budget, Path tmp) throws Exception {
        Schema schema = Schema.of(Field.of("g", DataType.INT64), Field.of("v", DataType.INT32),
                Field.of("s", DataType.VARCHAR));
        List<Object[]> rows = new ArrayList<>();
        TableBuilder b = new TableBuilder("g", schema, BATCH);
        for (int j = 0; j < 200_000; j++) {
            Object[] row = {j % 5000 == 0 ? null : (j % 100_000) * 7919L, j % 1000, "s" + (j % 777)};
            rows.add(row);
            b.addRow(row);
        }
        String name = "g" + workers + "_" + splitAt + "_" + budget;
        duck.load(name, schema, rows);
        List<AggregateSpec> aggregates = List.of(
                new AggregateSpec(AggregateFunction.COUNT_STAR, null, false, DataType.INT64, "count(*)"),
                new AggregateSpec(AggregateFunction.SUM, column(schema, 1), false, DataType.INT64, "sum(v)"),
                new AggregateSpec(AggregateFunction.MAX, column(schema, 2), false, DataType.VARCHAR, "max(s)"),
                new AggregateSpec(AggregateFunction.MIN, column(schema, 1), false, DataType.INT32, "min(v)"));
        MemoryArena arena = new MemoryArena(TroupeSettings.Memory.MIN_CHUNK_BYTES, 0, budget);
        try (SpillSpace space = new SpillSpace(tmp, Long.MAX_VALUE, true)) {
            ExecContext ctx = new ExecContext(1, BATCH, arena.forQuery(1), space.forQuery(1), null);
            StateKey<AggregateResult> key = new StateKey<>("grouping", AggregateResult.class);
            List<List<Object>> result = HashAggregateSinkTest.run(ctx, key, List.of(column(schema, 0)), aggregates,
                    b.build().chunks(), workers, 2, splitAt);
            assertTrue(ctx.memory().reservations().get(0).spilledBytes() > 0);
            AggregateResult published = ctx.lookup(key);
            ctx.release();
            assertEquals(0, arena.inUseBytes());
            assertEquals(0, space.fileCount());
            duck.assertSameRows("select g, count(*), sum(v), max(s), min(v) from " + name + " group by g", result);
            return published;
        }
    }

    /**
     * A worker whose empty partial is refused its first batch (another operator holds the budget)
     * writes those rows to a spill file as they are; memory comes back, its next batch stays in
     * memory, and it finishes before any partial spilled its groups: the rows in the file count too.
     */
    @Test
    void rowsSpilledAsTheyWereBeforeAnyPartialSpilledAreMerged(@TempDir Path tmp) throws Exception {
        Schema schema = Schema.of(Field.of("g", DataType.INT64), Field.of("v", DataType.INT32));
        List<Object[]> rows = new ArrayList<>();
        TableBuilder b = new TableBuilder("refused", schema, BATCH);
        for (int j = 0; j < 2 * BATCH; j++) {
            Object[] row = {(long) (j % 1500), j};
            rows.add(row);
            b.addRow(row);
        }
        duck.load("refused", schema, rows);
        List<AggregateSpec> aggregates = List.of(
                new AggregateSpec(AggregateFunction.COUNT_STAR, null, false, DataType.INT64, "count(*)"),
                new AggregateSpec(AggregateFunction.SUM, column(schema, 1), false, DataType.INT64, "sum(v)"));
        long budget = 1 << 20;
        MemoryArena arena = new MemoryArena(TroupeSettings.Memory.MIN_CHUNK_BYTES, 0, budget);
        try (SpillSpace space = new SpillSpace(tmp, Long.MAX_VALUE, true)) {
            ExecContext ctx = new ExecContext(1, BATCH, arena.forQuery(1), space.forQuery(1), null);
            // Leaves less than the share a spillable operator must leave free: the aggregate gets nothing.
            MemoryReservation other = ctx.memory().reservation(this, "another operator");
            assertTrue(other.tryGrow(budget - budget / 16));
            StateKey<AggregateResult> key = new StateKey<>("refused", AggregateResult.class);
            Sink.SinkState state = new HashAggregateSink(List.of(column(schema, 0)), aggregates, key).open(ctx);
            BatchConsumer worker = state.local();
            List<Batch> batches = b.build().chunks();
            worker.accept(batches.get(0));
            assertEquals(1, space.fileCount(), "the refused rows went to a file");
            other.shrink(budget - budget / 16);
            worker.accept(batches.get(1));
            worker.finish();
            duck.assertSameRows("select g, count(*), sum(v) from refused group by g",
                    HashAggregateSinkTest.mergeAndRead(ctx, state, key));
            ctx.release();
            assertEquals(0, arena.inUseBytes());
            assertEquals(0, space.fileCount());
        }
    }

    private static ColumnExpression column(Schema schema, int index) {
        return new ColumnExpression(index, schema.type(index), schema.field(index).name());
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    void withSpillOffTheBudgetsErrorFailsTheQuery(int workers) {
        Plan plan = Plan.scan("t").aggregate(List.of(col("l")), count(), max(col("s")));
        try (Troupe troupe = Troupe.start(settings(256 * 1024, false)).register(table)) {
            QueryFailedException e = assertThrows(QueryFailedException.class,
                    () -> troupe.execute(plan, QueryOptions.defaults().withWorkers(workers)));
            assertTrue(e.getMessage().contains(": hash aggregate "), e.getMessage());
            assertTrue(e.getMessage().contains(" bytes, over troupe.memory.budget = 262144 bytes"), e.getMessage());
            assertEquals(0, troupe.spillSpace().writtenBytes());
            assertEquals(0, troupe.memoryArena().inUseBytes());
        }
    }

    /** count(DISTINCT) of several arguments, with and without other aggregates, with and without keys. */
    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    void countDistinctOfSeveralArgumentsSpillsAtAQuarterAndATwentiethOfItsPeak(int workers) throws Exception {
        Plan mixed = Plan.scan("t").aggregate(List.of(col("k")), count(), countDistinct(col("l")),
                countDistinct(col("s")), sum(col("i")), countDistinct(col("l")).as("again"), max(col("x")));
        String mixedSql = "select k, count(*), count(distinct l), count(distinct s), sum(i), count(distinct l), "
                + "max(x) from t group by k";
        Plan distinctOnly = Plan.scan("t").aggregate(List.of(col("d"), col("b")), countDistinct(col("s")),
                countDistinct(col("l")));
        String distinctOnlySql = "select d, b, count(distinct s), count(distinct l) from t group by d, b";
        Plan global = Plan.scan("t").aggregate(List.of(), countDistinct(col("l")), countDistinct(col("s")));
        String globalSql = "select count(distinct l), count(distinct s) from t";
        checkInMemoryThenAtFractions(List.of(mixed, distinctOnly, global), List.of(mixedSql, distinctOnlySql, globalSql),
                workers);
    }

    /**
     * The aggregates that keep every value of their groups (median, the percentiles, mode, string_agg) and the
     * sketches reserve what their values take and spill their partial states (a VARCHAR cell per group) as the others
     * spill theirs, beside count(DISTINCT) too. The sketches answer exactly here: the groups keep their few values,
     * but for the NULL key's, whose sketches count two booleans (exact) and pick the middle of five values (one with a
     * third of them: far from its neighbours' ranks).
     */
    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    void aggregatesThatKeepTheirValuesSpillAtAQuarterAndATwentiethOfTheirPeak(int workers) throws Exception {
        Plan perK = Plan.scan("t").aggregate(List.of(col("k")), Expr.median(col("i")),
                Expr.percentileCont(0.3, col("x").asc()), Expr.percentileDisc(0.7, col("s").desc()),
                Expr.mode(col("d").asc()), Expr.stringAgg(col("s"), ",", col("i").asc(), col("l").asc(),
                        col("x").asc(), col("s").asc()), Expr.approxCountDistinct(col("b")),
                Expr.approxQuantile(col("i").mod(lit(3)), 0.5), Expr.boolAnd(col("b")));
        String perKSql = "select k, median(i), percentile_cont(0.3) within group (order by x), percentile_disc(0.7) "
                + "within group (order by s desc), mode() within group (order by d), string_agg(s, ',' order by i, l, "
                + "x, s), count(distinct b), percentile_disc(0.5) within group (order by i % 3), bool_and(b) from t "
                + "group by k";
        Plan withDistinct = Plan.scan("t").aggregate(List.of(col("d")), countDistinct(col("k")),
                Expr.median(col("m")), Expr.stringAgg(col("s"), "/", col("l").asc(), col("i").asc(), col("s").asc()));
        String withDistinctSql = "select d, count(distinct k), median(m), string_agg(s, '/' order by l, i, s) from t "
                + "group by d";
        checkInMemoryThenAtFractions(List.of(perK, withDistinct), List.of(perKSql, withDistinctSql), workers);
    }

    /**
     * An aggregate without group keys cannot spill: one that keeps every value fails over the budget with the
     * budget's error naming it, and all its memory comes back; the same query fits a larger budget.
     */
    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    void anUngroupedAggregateThatKeepsEveryValueFailsOverTheBudgetNamingIt(int workers) throws Exception {
        Plan plan = Plan.scan("t").aggregate(List.of(), count(), Expr.median(col("i")),
                Expr.stringAgg(col("s"), ",", col("s").asc()));
        try (Troupe troupe = Troupe.start(settings(256 * 1024, true)).register(table)) {
            QueryFailedException e = assertThrows(QueryFailedException.class,
                    () -> troupe.execute(plan, QueryOptions.defaults().withWorkers(workers)));
            assertTrue(e.getMessage().contains("(median(i), string_agg(s, ',' ORDER BY s ASC NULLS LAST) holding every "
                    + "value of its group) asked for"), e.getMessage());
            assertTrue(e.getMessage().contains(" bytes, over troupe.memory.budget = 262144 bytes"), e.getMessage());
            assertEquals(0, troupe.spillSpace().writtenBytes());
            assertEquals(0, troupe.memoryArena().inUseBytes());
        }
        try (Troupe troupe = Troupe.start(settings(64L << 20, true)).register(table)) {
            duck.assertSameRows("select count(*), median(i), string_agg(s, ',' order by s) from t",
                    rows(troupe, plan, workers));
            assertEquals(0, troupe.memoryArena().inUseBytes());
        }
    }

    /** A grouped one with spill off fails as well, naming the aggregates that hold their values. */
    @Test
    void withSpillOffAGroupedAggregateThatKeepsEveryValueFailsNamingIt() {
        Plan plan = Plan.scan("t").aggregate(List.of(col("k")), Expr.percentileDisc(0.5, col("s").asc()));
        try (Troupe troupe = Troupe.start(settings(256 * 1024, false)).register(table)) {
            QueryFailedException e = assertThrows(QueryFailedException.class,
                    () -> troupe.execute(plan, QueryOptions.defaults().withWorkers(2)));
            assertTrue(e.getMessage().contains("(percentile_disc(0.5) WITHIN GROUP (ORDER BY s) holding every value "
                    + "of their groups)"), e.getMessage());
            assertEquals(0, troupe.memoryArena().inUseBytes());
        }
    }
}
