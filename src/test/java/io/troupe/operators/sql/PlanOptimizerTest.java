package io.troupe.operators.sql;

import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.sum;
import static io.troupe.operators.sql.PlanShape.filters;
import static io.troupe.operators.sql.PlanShape.joins;
import static io.troupe.operators.sql.PlanShape.scans;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Java plans through the optimizer ({@link Troupe#optimize}): over a star schema of skewed sizes
 * ({@link StarTables}), a star join written dimensions first with its filters above the joins comes out with the
 * fact table probing, every dimension built and the filters on the scans; the columns keep their names and
 * order; an equality between numbers of two types that becomes a join key is cast to one; what is not a tree of
 * inner joins and filters over scans stays as written. Every plan returns DuckDB's rows for the same query in SQL.
 */
@Timeout(120)
class PlanOptimizerTest {

    /** Dimensions first, the fact table built by the second join, every filter above the joins. */
    private static final Plan STAR = Plan.scan("days").as("d")
            .join(Plan.scan("items").as("i"), JoinType.INNER, col("i.brand").eq(col("d.moy")))
            .join(Plan.scan("sales").as("s"), JoinType.INNER,
                    col("s.sold_day").eq(col("d.id")).and(col("s.item").eq(col("i.id"))))
            .join(Plan.scan("stores").as("st"), JoinType.INNER, col("s.store").eq(col("st.id")))
            .filter(col("d.yr").eq(lit(2000)).and(col("i.category").eq(lit("category3"))));

    private static final String STAR_SQL = """
            SELECT d.moy, i.category, st.state, COUNT(*) AS n, SUM(s.price) AS total
            FROM days d JOIN items i ON i.brand = d.moy
            JOIN sales s ON s.sold_day = d.id AND s.item = i.id
            JOIN stores st ON s.store = st.id
            WHERE d.yr = 2000 AND i.category = 'category3'
            GROUP BY d.moy, i.category, st.state""";

    private static SqlEngines engines;
    private static Troupe troupe;

    @BeforeAll
    static void load() throws Exception {
        List<Table> tables = new ArrayList<>(StarTables.generate(7));
        tables.addAll(numbersOfTwoTypes(11));
        engines = SqlEngines.over(tables);
        troupe = engines.troupe();
    }

    @AfterAll
    static void close() throws Exception {
        if (engines != null) {
            engines.close();
        }
    }

    @Test
    void shouldProbeWithTheFactTableAndPushTheFiltersToTheScans() throws Exception {
        Plan grouped = STAR.aggregate(List.of(col("d.moy"), col("i.category"), col("st.state")),
                count().as("n"), sum(col("s.price")).as("total"));
        Plan optimized = troupe.optimize(grouped);
        List<Plan> joins = joins(optimized);
        assertEquals(3, joins.size(), () -> troupe.explain(optimized));
        for (Plan join : joins) {
            assertTrue(!scans(join.children().get(1)).contains("sales"), () -> troupe.explain(optimized));
        }
        assertEquals("sales", scans(joins.get(0)).get(0), () -> troupe.explain(optimized));
        for (Plan filter : filters(optimized)) {
            assertTrue(filter.children().get(0).label().startsWith("Scan "), () -> troupe.explain(optimized));
        }
        assertEquals(2, filters(optimized).size(), () -> troupe.explain(optimized));
        assertEquals(grouped.validate(troupe.catalog()), optimized.validate(troupe.catalog()));
        check(STAR_SQL, optimized);
        check(STAR_SQL, grouped);
    }

    @Test
    void shouldKeepTheRegionsColumnsTheirNamesAndOrder() throws Exception {
        Plan optimized = troupe.optimize(STAR);
        assertEquals(STAR.validate(troupe.catalog()), optimized.validate(troupe.catalog()));
        Plan picked = optimized.project(col("s.price"), col("st.state"), col("d.id"), col("i.id"));
        check("SELECT s.price, st.state, d.id, i.id FROM days d JOIN items i ON i.brand = d.moy "
                + "JOIN sales s ON s.sold_day = d.id AND s.item = i.id JOIN stores st ON s.store = st.id "
                + "WHERE d.yr = 2000 AND i.category = 'category3'", picked);
    }

    @Test
    void shouldNarrowTheScansToTheColumnsAProjectionOrAnAggregateAboveNames() throws Exception {
        Plan region = Plan.scan("stores").as("st")
                .join(Plan.scan("sales").as("s"), JoinType.INNER, col("s.store").eq(col("st.id")));
        Plan grouped = region.aggregate(List.of(col("st.state")), sum(col("s.price")).as("total"));
        Plan optimized = troupe.optimize(grouped);
        String explain = troupe.explain(optimized);
        assertTrue(explain.contains("Project s.store, s.price\n"), explain);
        assertTrue(explain.contains("Scan stores AS st\n"), explain);
        assertEquals(grouped.validate(troupe.catalog()), optimized.validate(troupe.catalog()));
        check("SELECT st.state, SUM(s.price) AS total FROM stores st JOIN sales s ON s.store = st.id "
                + "GROUP BY st.state", optimized);

        // DISTINCT reads every column: under it the scans keep them all, projected above or not.
        Plan distinct = region.distinct().project(col("st.state"));
        Plan kept = troupe.optimize(distinct);
        assertTrue(!troupe.explain(kept).contains("Project s.store"), () -> troupe.explain(kept));
        check("SELECT x.state FROM (SELECT DISTINCT * FROM stores st JOIN sales s ON s.store = st.id) x", kept);
    }

    @Test
    void shouldOrderTheJoinsUnderAnOuterJoinAndKeepTheOuterJoinAsWritten() throws Exception {
        Plan inner = Plan.scan("stores").as("st")
                .join(Plan.scan("sales").as("s"), JoinType.INNER, col("s.store").eq(col("st.id")))
                .filter(col("s.price").gt(lit(new BigDecimal("400.00"))));
        Plan plan = Plan.scan("days").as("d").join(inner, JoinType.LEFT, col("s.sold_day").eq(col("d.id")))
                .aggregate(List.of(col("d.yr")), count(col("s.item")).as("n"));
        Plan optimized = troupe.optimize(plan);
        Plan outer = joins(optimized).get(0);
        assertTrue(outer.label().startsWith("Hash Join LEFT"), () -> troupe.explain(optimized));
        assertEquals(List.of("days"), scans(outer.children().get(0)), () -> troupe.explain(optimized));
        Plan under = joins(outer.children().get(1)).get(0);
        assertEquals(List.of("sales", "stores"), scans(under), () -> troupe.explain(optimized));
        check("SELECT d.yr, COUNT(x.item) AS n FROM days d LEFT JOIN (SELECT s.item, s.sold_day FROM stores st "
                + "JOIN sales s ON s.store = st.id WHERE s.price > 400.00) x ON x.sold_day = d.id GROUP BY d.yr",
                optimized);
    }

    @Test
    void shouldKeepAConditionThatIsNotCarriedWhereItWasWrittenAndOrderTheJoinsBelowIt() throws Exception {
        Plan plan = Plan.scan("stores").as("st")
                .join(Plan.scan("sales").as("s"), JoinType.INNER, col("s.store").eq(col("st.id")))
                .filter(col("st.state").like("T%"));
        Plan optimized = troupe.optimize(plan);
        assertTrue(optimized.label().startsWith("Filter (st.state LIKE"), () -> troupe.explain(optimized));
        assertEquals(List.of("sales", "stores"), scans(joins(optimized).get(0)), () -> troupe.explain(optimized));
        assertEquals(plan.validate(troupe.catalog()), optimized.validate(troupe.catalog()));
        check("SELECT st.*, s.* FROM stores st JOIN sales s ON s.store = st.id WHERE st.state LIKE 'T%'", optimized);

        // Strings are UTF-8 (config/saffron.properties) and carried; a date before year 1 Calcite cannot hold.
        Plan unicode = Plan.scan("stores").as("st")
                .join(Plan.scan("sales").as("s"), JoinType.INNER, col("s.store").eq(col("st.id")))
                .filter(col("st.state").ne(lit("東京")));
        Plan pushed = troupe.optimize(unicode);
        assertTrue(filters(pushed).get(0).children().get(0).label().startsWith("Scan stores"),
                () -> troupe.explain(pushed));
        check("SELECT st.*, s.* FROM stores st JOIN sales s ON s.store = st.id WHERE st.state <> '東京'", pushed);
        Plan ancient = Plan.scan("days").as("d")
                .join(Plan.scan("sales").as("s"), JoinType.INNER, col("s.sold_day").eq(col("d.id")))
                .filter(lit(LocalDate.of(-1, 6, 1)).lt(lit(LocalDate.of(2000, 1, 1))).and(col("d.yr").eq(lit(2000))));
        Plan optimizedAncient = troupe.optimize(ancient);
        assertTrue(optimizedAncient.label().startsWith("Filter ("), () -> troupe.explain(optimizedAncient));
        check("SELECT d.*, s.* FROM days d JOIN sales s ON s.sold_day = d.id WHERE DATE '0002-06-01 (BC)' < "
                + "DATE '2000-01-01' AND d.yr = 2000", optimizedAncient);
    }

    @Test
    void shouldCastTheSidesOfAnEqualityBetweenNumbersOfTwoTypesThatBecomesAJoinKey() throws Exception {
        // A filter compares a DECIMAL(9,2) with a DECIMAL(4,1) and an INT32 with an INT64 as they are; pushed into
        // the join below it, each equality becomes a key pair, and a hash join's keys are of one type.
        Plan plan = Plan.scan("prices").as("p")
                .join(Plan.scan("offers").as("o"), JoinType.INNER, lit(0).eq(lit(0)))
                .filter(col("p.price").eq(col("o.price")).and(col("o.day").eq(col("p.day"))));
        Plan optimized = troupe.optimize(plan);
        List<Plan> joins = joins(optimized);
        assertEquals(1, joins.size(), () -> troupe.explain(optimized));
        assertTrue(joins.get(0).label().contains("CAST(") && filters(optimized).isEmpty(),
                () -> troupe.explain(optimized));
        check("SELECT * FROM prices p JOIN offers o ON p.price = o.price AND o.day = p.day", optimized);
    }

    @Test
    void shouldLeaveAPinnedSubplanAndTheJoinsItTakesPartInAsWritten() throws Exception {
        // Written with sales, the larger table, as the hash table: the optimizer builds stores instead.
        Plan region = Plan.scan("stores").as("st")
                .join(Plan.scan("sales").as("s"), JoinType.INNER, col("s.store").eq(col("st.id")));
        Expr expensive = col("s.price").gt(lit(new BigDecimal("400.00")));
        assertEquals(List.of("sales", "stores"), scans(joins(troupe.optimize(region.filter(expensive))).get(0)));

        Plan pinned = troupe.optimize(region.pin().filter(expensive));
        assertEquals(List.of("stores", "sales"), scans(joins(pinned).get(0)), () -> troupe.explain(pinned));
        assertTrue(pinned.label().startsWith("Filter (s.price >"), () -> troupe.explain(pinned));

        // A join over a pinned subplan runs as written; a region beside it is still optimized.
        Plan beside = Plan.scan("items").as("i")
                .join(Plan.scan("sales").as("s2"), JoinType.INNER, col("s2.item").eq(col("i.id")));
        Plan plan = Plan.scan("days").as("d").join(region.pin(), JoinType.INNER, col("s.sold_day").eq(col("d.id")))
                .join(beside, JoinType.LEFT, col("i.id").eq(col("s.item")))
                .filter(col("d.yr").eq(lit(2000)));
        Plan optimized = troupe.optimize(plan);
        List<Plan> joins = joins(optimized);
        assertEquals(List.of("days", "stores", "sales"), scans(joins.get(1)), () -> troupe.explain(optimized));
        assertEquals(List.of("stores", "sales"), scans(joins.get(2)), () -> troupe.explain(optimized));
        assertEquals(List.of("sales", "items"), scans(joins.get(3)), () -> troupe.explain(optimized));
        assertTrue(optimized.label().startsWith("Filter (d.yr ="), () -> troupe.explain(optimized));
        assertEquals(optimized.explain(troupe.catalog()), troupe.optimize(optimized).explain(troupe.catalog()));
        check("SELECT * FROM days d JOIN stores st JOIN sales s ON s.store = st.id ON s.sold_day = d.id "
                + "LEFT JOIN (items i JOIN sales s2 ON s2.item = i.id) ON i.id = s.item WHERE d.yr = 2000", optimized);
    }

    @Test
    void shouldRunTheOptimizedPlanUnlessTheSettingIsOffAndSqlsPlansAsPlanned() throws Exception {
        String optimized = troupe.explain(STAR);
        assertEquals(troupe.explain(troupe.optimize(STAR)), optimized);
        assertTrue(!optimized.contains("Pinned"), optimized);

        try (Troupe asWritten = Troupe.start(TroupeSettings.load().withOptimizePlans(false))) {
            StarTables.generate(7).forEach(asWritten::register);
            String explain = asWritten.explain(STAR);
            assertTrue(explain.indexOf("Scan days AS d") < explain.indexOf("Scan items AS i")
                    && explain.indexOf("Scan items AS i") < explain.indexOf("Scan sales AS s"), explain);
            assertTrue(explain.contains("->  Filter ((d.yr = 2000) AND"), explain);
            assertTrue(!optimized.contains("->  Filter ((d.yr = 2000) AND"), optimized);
            assertEquals(sorted(troupe.execute(STAR).rows()), sorted(asWritten.execute(STAR).rows()));
        }

        Plan sql = troupe.planSql(STAR_SQL);
        assertEquals(sql.explain(troupe.catalog()), troupe.optimize(sql).explain(troupe.catalog()));
    }

    /** prices (day INT32, price DECIMAL(9,2)) and offers (day INT64, price DECIMAL(4,1)), many prices equal. */
    private static List<Table> numbersOfTwoTypes(long seed) {
        Random random = new Random(seed);
        TableBuilder prices = new TableBuilder("prices", Schema.of(
                new Field(null, "day", DataType.INT32, false), Field.of("price", DataType.decimal(9, 2))));
        TableBuilder offers = new TableBuilder("offers", Schema.of(
                new Field(null, "day", DataType.INT64, false), Field.of("price", DataType.decimal(4, 1))));
        for (int i = 0; i < 2_000; i++) {
            prices.addRow(random.nextInt(30), random.nextInt(10) == 0 ? null
                    : BigDecimal.valueOf(random.nextInt(4) == 0 ? random.nextInt(2_000) : random.nextInt(200) * 10, 2));
            offers.addRow((long) random.nextInt(30), random.nextInt(10) == 0 ? null
                    : BigDecimal.valueOf(random.nextInt(200), 1));
        }
        return List.of(prices.build(), offers.build());
    }

    private static List<String> sorted(List<?> rows) {
        return rows.stream().map(String::valueOf).sorted().toList();
    }

    private static void check(String sql, Plan plan) throws Exception {
        engines.assertSameRows(sql, plan);
    }
}
