package io.troupe.operators.plan;

import io.troupe.actors.api.Troupe;
import io.troupe.actors.wire.WireCodec;
import io.troupe.actors.wire.WireException;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.agg.AggregateFunction;
import io.troupe.operators.expr.Function;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Schema;
import io.troupe.operators.types.TypeId;
import io.troupe.operators.window.FrameBound;
import io.troupe.operators.window.WindowFrame;
import io.troupe.operators.window.WindowFunction;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.Period;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.troupe.operators.plan.Expr.avg;
import static io.troupe.operators.plan.Expr.caseWhen;
import static io.troupe.operators.plan.Expr.coalesce;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.cumeDist;
import static io.troupe.operators.plan.Expr.denseRank;
import static io.troupe.operators.plan.Expr.firstValue;
import static io.troupe.operators.plan.Expr.lag;
import static io.troupe.operators.plan.Expr.lastValue;
import static io.troupe.operators.plan.Expr.lead;
import static io.troupe.operators.plan.Expr.nthValue;
import static io.troupe.operators.plan.Expr.ntile;
import static io.troupe.operators.plan.Expr.percentRank;
import static io.troupe.operators.plan.Expr.rank;
import static io.troupe.operators.plan.Expr.rowNumber;
import static io.troupe.operators.plan.Expr.countDistinct;
import static io.troupe.operators.plan.Expr.day;
import static io.troupe.operators.plan.Expr.length;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.lower;
import static io.troupe.operators.plan.Expr.max;
import static io.troupe.operators.plan.Expr.min;
import static io.troupe.operators.plan.Expr.month;
import static io.troupe.operators.plan.Expr.nullOf;
import static io.troupe.operators.plan.Expr.round;
import static io.troupe.operators.plan.Expr.substring;
import static io.troupe.operators.plan.Expr.sum;
import static io.troupe.operators.plan.Expr.upper;
import static io.troupe.operators.plan.Expr.year;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Plans over the wire ({@link PlanSerializer} through {@link WireCodec}): a plan with every node kind,
 * expression kind, function, aggregate, join type, sort order and literal type (DECIMAL, DATE and
 * typed and untyped NULLs among them, and a parameter) decodes to the same plan node for node, re-encodes to the same
 * bytes, explains the same and runs to the same rows; and every node class of this package has a tag.
 */
class PlanWireTest {

    private static final WireCodec CODEC = new WireCodec("plan-wire-test");

    private static Plan roundTrip(Plan plan) {
        byte[] payload = CODEC.encode(plan);
        Plan decoded = (Plan) CODEC.decode(payload);
        PlanShapes.assertSamePlan(plan, decoded);
        assertArrayEquals(payload, CODEC.encode(decoded), "the decoded plan re-encodes to other bytes");
        return decoded;
    }

    /** t(i INT32, l INT64, d FLOAT64, m DECIMAL(10,2), dt DATE, b BOOLEAN, s VARCHAR), NULLs in every column. */
    private static Table table() {
        Schema schema = Schema.of(new Field(null, "i", DataType.INT32, true),
                new Field(null, "l", DataType.INT64, true),
                new Field(null, "d", DataType.FLOAT64, true), new Field(null, "m", DataType.decimal(10, 2), true),
                new Field(null, "dt", DataType.DATE, true), new Field(null, "b", DataType.BOOLEAN, true),
                new Field(null, "s", DataType.VARCHAR, true));
        TableBuilder t = new TableBuilder("t", schema, 3);
        String[] words = {"apple", "Banana", "cherry", "abc", "date"};
        for (int r = 0; r < 20; r++) {
            boolean nulls = r % 7 == 6;
            t.addRow(nulls ? null : r % 5, nulls ? null : (long) r * 1_000_003L, nulls ? null : r / 4.0,
                    nulls ? null : new BigDecimal(r * 37 - 200).movePointLeft(2),
                    nulls ? null : LocalDate.of(1999 + r % 3, 1 + r % 12, 1 + r), nulls ? null : r % 3 == 0,
                    nulls ? null : words[r % words.length]);
        }
        return t.build();
    }

    /** One plan with every kind the wire must carry. */
    private static Plan everything() {
        Plan shared = Plan.scan("t").filter(col("i").isNotNull().and(col("i").ge(new Parameter(1, DataType.INT32))))
                .share("base");
        Plan nested = shared.as("n").project(col("n.i").as("k"), col("n.s").as("w")).share("keys");
        Plan computed = Plan.scan("t").as("x").project(
                col("x.i").plus(lit(1)).as("add"), col("x.i").minus(lit(1)).as("sub"),
                col("x.l").times(lit(2L)).as("mul"),
                col("x.l").div(lit(7L)).as("div"), col("x.i").mod(lit(3)).as("mod"), col("x.i").negate().as("neg"),
                col("x.i").eq(lit(1)).as("eq"), col("x.i").ne(lit(1)).as("ne"), col("x.i").lt(lit(2)).as("lt"),
                col("x.i").le(lit(2)).as("le"), col("x.i").gt(lit(0)).as("gt"), col("x.i").ge(lit(0)).as("ge"),
                col("x.b").and(lit(true)).as("and_"), col("x.b").or(lit(false)).as("or_"), col("x.b").not().as("not_"),
                col("x.s").isNull().as("isnull"), col("x.s").isNotNull().as("notnull"),
                col("x.i").in(lit(1), lit(2), lit(3)).as("in_"), col("x.i").between(lit(0), lit(2)).as("btw"),
                col("x.s").like("a%").as("like_"),
                caseWhen(col("x.b"), lit(1)).when(col("x.i").eq(lit(2)), lit(2)).otherwise(lit(0)).as("case_else"),
                caseWhen(col("x.b"), lit("yes")).end().as("case_end"),
                coalesce(col("x.s"), lit("none")).as("coal"), col("x.i").cast(DataType.decimal(12, 3)).as("cast_"),
                substring(col("x.s"), 2, 3).as("sub_"), upper(col("x.s")).as("up"), lower(col("x.s")).as("low"),
                length(col("x.s")).as("len"), year(col("x.dt")).as("y"), month(col("x.dt")).as("mo"),
                day(col("x.dt")).as("dy"), round(col("x.m"), 1).as("rnd"),
                Expr.call("greatest", col("x.i"), lit(2), col("x.m")).as("gr"), Expr.call("SQRT", col("x.d")).as("sq"),
                new UserCall("twice", List.of(col("x.d")), null).as("tw"),
                col("x.s").concatenate(lit("!")).as("cat"), Expr.concat(col("x.s"), lit("-"), col("x.s")).as("cats"),
                Expr.addDays(col("x.dt"), col("x.i")).as("ad"), Expr.addMonths(col("x.dt"), lit(-14L)).as("am"),
                Expr.datePart("dow", col("x.dt")).as("dp"),
                Expr.addMicros(lit(LocalDateTime.of(2024, 3, 10, 2, 30, 0, 123_456_000)), col("x.l")).as("amc"),
                lit(Instant.parse("2024-03-10T07:30:00.000001Z")).cast(DataType.TIMESTAMP, ZoneId.of("America/New_York"))
                        .as("local"),
                lit(LocalTime.of(23, 59, 59, 999_999_000)).as("tm"),
                lit(new Interval(14, -3, 3_600_000_001L)).as("iv"),
                Expr.addInterval(lit(Instant.parse("2024-03-09T17:00:00Z")), lit(Interval.ofDays(1)), "America/New_York")
                        .as("aiv"),
                col("x.m").plus(lit(new BigDecimal("12.50"))).as("dec"),
                col("x.dt").eq(lit(LocalDate.of(2000, 2, 29))).as("dte"),
                col("x.d").times(lit(-0.5)).as("dbl"), col("x.l").plus(lit(1_000_000_000_000L)).as("big"),
                col("x.s"), col("x.i"), col("x.dt"),
                nullOf(DataType.INT32).as("n32"), nullOf(DataType.INT64).as("n64"), nullOf(DataType.FLOAT64).as("nf"),
                nullOf(DataType.decimal(5, 1)).as("nd"), nullOf(DataType.DATE).as("ndt"),
                nullOf(DataType.BOOLEAN).as("nb"), nullOf(DataType.VARCHAR).as("ns"),
                nullOf(DataType.TIMESTAMP).as("nts"), nullOf(DataType.TIMESTAMP_TZ).as("ntz"),
                nullOf(DataType.TIME).as("ntm"), nullOf(DataType.INTERVAL).as("niv"),
                nullOf(DataType.INT16).as("n16"), nullOf(DataType.INT8).as("n8"), nullOf(DataType.FLOAT32).as("nf32"),
                lit((short) -32768).as("s16"), lit((byte) 127).as("s8"), lit(0.1f).as("f32"),
                lit(java.util.UUID.fromString("f81d4fae-7dec-11d0-a765-00a0c91e6bf6")).as("uu"),
                lit(new byte[] {0, 1, (byte) 0xff}).as("bl"), nullOf(DataType.UUID).as("nuu"),
                nullOf(DataType.BLOB).as("nbl"));
        Plan windowed = computed.filter(col("i").ge(lit(0)))
                .window(List.of(col("s")), List.of(col("i").asc(), col("dt").desc().withNullsLast()),
                        rowNumber().as("w1"), rank().as("w2"), denseRank().as("w3"), percentRank().as("w4"),
                        cumeDist().as("w5"), ntile(3).as("w6"),
                        count().over(WindowFrame.rows(FrameBound.preceding(2), FrameBound.following(1))).as("w7"),
                        count(col("i")).as("w8"), sum(col("dec")).as("w9"),
                        avg(col("dbl")).over(WindowFrame.rows(FrameBound.UNBOUNDED_PRECEDING,
                                FrameBound.UNBOUNDED_FOLLOWING)).as("w10"),
                        min(col("s")).over(WindowFrame.range(FrameBound.CURRENT_ROW, FrameBound.CURRENT_ROW))
                                .as("w11"), max(col("dt")).as("w12"), lag(col("i")).ignoreNulls().as("w13"),
                        lead(col("big"), 2, lit(0L)).as("w14"), firstValue(col("s")).as("w15"),
                        lastValue(col("dec")).over(WindowFrame.rows(FrameBound.CURRENT_ROW, FrameBound.following(3)))
                                .as("w16"),
                        nthValue(col("s"), 2).ignoreNulls().over(WindowFrame.groups(FrameBound.preceding(1),
                                FrameBound.following(1)).excluding(WindowFrame.Exclusion.TIES)).as("w17"))
                // RANGE offsets of every kind, each over its one ORDER BY key.
                .window(List.of(col("s")), List.of(col("dt").asc()), count().over(WindowFrame.range(
                        FrameBound.preceding(new Interval(1, 2, 3_600_000_000L)), FrameBound.CURRENT_ROW))
                        .as("w18"))
                .window(List.of(), List.of(col("dbl").desc()), sum(col("i")).over(WindowFrame.range(
                        FrameBound.preceding(1.5), FrameBound.following(new BigDecimal("2.5")))
                        .excluding(WindowFrame.Exclusion.GROUP)).as("w19"))
                .window(List.of(), List.of(col("big").asc()), max(col("i")).over(WindowFrame.range(
                        FrameBound.preceding(2_000_000L), FrameBound.UNBOUNDED_FOLLOWING)
                        .excluding(WindowFrame.Exclusion.CURRENT_ROW)).as("w20"));
        Plan grouped = windowed
                .aggregate(List.of(col("s")), count().as("n"), count(col("i")).as("ni"), sum(col("big")).as("sb"),
                        min(col("dec")).as("mi"), max(col("dt")).as("ma"), avg(col("dbl")).as("av"),
                        Expr.varSamp(col("big")).as("vs"), Expr.varPop(col("dec")).as("vp"),
                        Expr.stddevSamp(col("dbl")).as("ss"), Expr.stddevPop(col("i")).as("sp"),
                        Expr.median(col("i")).as("med"), Expr.percentileCont(0.5, col("dbl").asc()).as("pc"),
                        Expr.percentileDisc(0.25, col("s").desc()).as("pd"), Expr.mode(col("dec").asc()).as("mo_"),
                        Expr.stringAgg(col("s"), ",", col("i").desc(), col("dt").asc().withNullsFirst()).as("sa"),
                        Expr.boolAnd(col("and_")).as("ba"), Expr.boolOr(col("or_")).as("bo"),
                        Expr.corr(col("dbl"), col("i")).as("r1"), Expr.covarPop(col("dbl"), col("i")).as("r2"),
                        Expr.covarSamp(col("dbl"), col("big")).as("r3"), Expr.regrSlope(col("dec"), col("i")).as("r4"),
                        Expr.regrIntercept(col("dbl"), col("i")).as("r5"), Expr.regrR2(col("dbl"), col("i")).as("r6"),
                        Expr.regrCount(col("dbl"), col("i")).as("r7"), Expr.regrAvgx(col("dbl"), col("i")).as("r8"),
                        Expr.regrAvgy(col("dbl"), col("i")).as("r9"), Expr.regrSxx(col("dbl"), col("i")).as("r10"),
                        Expr.regrSyy(col("dbl"), col("i")).as("r11"), Expr.regrSxy(col("dbl"), col("i")).as("r12"),
                        Expr.approxCountDistinct(col("s")).as("acd"), Expr.approxQuantile(col("i"), 0.5).as("aq"))
                .having(col("n").gt(lit(0L)));
        Plan distinctCount = Plan.scan("t").aggregate(List.of(col("b")), countDistinct(col("i")).as("di"));
        Plan single = Plan.series("one", 1, 1).aggregate(List.of(), Expr.singleValue(col("one")).as("sv"));
        // Recursive unions (UNION over a series of 1..3, UNION ALL over a range by 3) and a series of months.
        Plan walk = Plan.series("w", 1, 3).recursiveUnion("walk", false,
                r -> r.as("r2").filter(col("r2.w").lt(lit(6L))).project(col("r2.w").plus(lit(1L)).as("w")));
        Plan counted = Plan.range("c", lit(0L), lit(10L), lit(3L)).recursiveUnion("cnt", true,
                r -> r.filter(col("cnt.c").lt(lit(20L))).project(col("cnt.c").plus(lit(5L)).as("c")));
        Plan months = Plan.series("ts", lit(LocalDate.of(2000, 1, 31)), lit(LocalDateTime.of(2001, 3, 1, 0, 0)),
                Period.ofMonths(1));
        // Each series value but -5..-1 probes the chain, which keeps its rows some value matched.
        Plan probes = Plan.series("rs", -5, 5).as("rs").join(Plan.series("ra", -100, 100).as("ra"), JoinType.RIGHT_ANTI,
                col("rs.rs").eq(col("ra.ra")).and(col("rs.rs").lt(lit(0L))));
        Plan chain = grouped.as("g")
                .join(shared.as("c1"), JoinType.INNER, col("g.s").eq(col("c1.s")))
                .join(nested.as("k1"), JoinType.LEFT, col("c1.i").eq(col("k1.k")).and(col("c1.s").eq(col("k1.w"))))
                .join(nested.as("k2"), JoinType.RIGHT, col("c1.i").eq(col("k2.k")))
                .join(distinctCount.as("dc"), JoinType.FULL, col("c1.b").eq(col("dc.b")))
                .join(Plan.scan("t").as("t2").pin(), JoinType.SEMI, col("c1.i").eq(col("t2.i")))
                .join(Plan.series("v", -3, 40).as("sr"), JoinType.ANTI, col("c1.l").eq(col("sr.v")))
                .join(Plan.values(List.of("vk", "vs"), List.of(DataType.INT32, DataType.VARCHAR),
                        List.of(List.of(new Literal(1, DataType.INT32), new Literal("one", DataType.VARCHAR)),
                                List.of(new Literal(null, DataType.INT32), new Literal(null, DataType.VARCHAR))))
                        .as("vv"), JoinType.LEFT, col("c1.i").eq(col("vv.vk")))
                .join(single.as("sg"), JoinType.LEFT, col("c1.l").eq(col("sg.sv")))
                .join(walk.as("wk"), JoinType.LEFT, col("c1.l").eq(col("wk.w")))
                .join(counted.as("ct"), JoinType.LEFT, col("c1.l").eq(col("ct.c")))
                .join(months.as("mo"), JoinType.LEFT, col("c1.dt").cast(DataType.TIMESTAMP).eq(col("mo.ts")));
        Plan joins = probes.join(chain, JoinType.RIGHT_SEMI, col("ra.ra").eq(col("c1.i").cast(DataType.INT64))
                        .and(col("ra.ra").plus(col("c1.l")).ge(lit(0L))))
                .project(col("g.s"), col("g.n"), col("c1.i"), col("k2.w"), col("dc.di"), col("g.ma"));
        return joins.unionAll(joins.filter(col("n").gt(lit(1L))))
                .distinct()
                .sort(col("s").asc(), col("i").desc(), col("w").asc().withNullsFirst(),
                        col("di").desc().withNullsLast(),
                        col("n").asc(), col("ma").asc())
                .limit(50, 1);
    }

    @Test
    void shouldCarryEveryKindOfNodeExpressionAndLiteral() {
        Plan plan = everything();
        Set<String> kinds = PlanShapes.kinds(plan);
        Set<String> missing = new TreeSet<>(expectedKinds());
        missing.removeAll(kinds);
        assertEquals(Set.of(), missing, "the test plan lacks these kinds; it holds " + kinds);
        Plan decoded = roundTrip(plan);
        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0).withBatchSize(4))) {
            troupe.register(table());
            troupe.functions().scalar("twice", List.of(DataType.FLOAT64), DataType.FLOAT64,
                    args -> (Double) args[0] * 2);
            // The parameter sits in a shared subplan used three times: binding keeps it one subplan.
            List<Literal> zero = List.of(new Literal(0, DataType.INT32));
            Plan bound = plan.withParameters(zero);
            assertEquals(plan.sharedSubplans().size(), bound.sharedSubplans().size());
            assertEquals(troupe.explain(bound), troupe.explain(decoded.withParameters(zero)));
            List<List<Object>> rows = troupe.execute(bound).rows();
            assertTrue(rows.size() > 3, "the test plan should return rows, got " + rows);
            assertEquals(rows, troupe.execute(decoded.withParameters(zero)).rows());
        }
    }

    private static Set<String> expectedKinds() {
        Set<String> kinds = new TreeSet<>();
        for (PlanSerializer.Kind k : PlanSerializer.Kind.values()) {
            kinds.add("node " + k.type.getSimpleName());
        }
        for (Class<?> e : Expr.class.getPermittedSubclasses()) {
            kinds.add("expr " + e.getSimpleName());
        }
        for (Function f : Function.values()) {
            kinds.add("function " + f);
        }
        for (AggregateFunction f : AggregateFunction.values()) {
            // An aggregate of one's own is called by name, a UserCall, never an AggregateCall of OWN.
            if (f != AggregateFunction.OWN) {
                kinds.add("aggregate " + f);
            }
        }
        kinds.add("aggregate COUNT DISTINCT");
        for (WindowFunction f : WindowFunction.values()) {
            kinds.add("window " + f);
        }
        for (WindowFrame.Unit u : WindowFrame.Unit.values()) {
            kinds.add("frame " + u);
        }
        for (WindowFrame.Exclusion x : WindowFrame.Exclusion.values()) {
            kinds.add("exclude " + x);
        }
        for (Class<?> offset : List.of(Long.class, BigDecimal.class, Double.class, Interval.class)) {
            kinds.add("offset " + offset.getSimpleName());
        }
        kinds.add("ignore nulls");
        for (JoinType t : JoinType.values()) {
            kinds.add("join " + t);
        }
        for (TypeId t : TypeId.values()) {
            kinds.add("literal " + t);
            kinds.add("null " + t);
        }
        kinds.add("null untyped");
        kinds.add("cast DECIMAL");
        for (String order : List.of("ASC NULLS LAST", "ASC NULLS FIRST", "DESC NULLS FIRST", "DESC NULLS LAST")) {
            kinds.add("sort " + order);
        }
        return kinds;
    }

    @Test
    void shouldKeepLiteralValuesAndTypesExactly() {
        List<Expr> literals = List.of(lit(0), lit(Integer.MIN_VALUE), lit(Long.MAX_VALUE), lit(-0.0), lit(Double.NaN),
                lit(Double.MIN_VALUE), lit(true), lit(false), lit(""), lit("it's ünïcødé ✓"),
                lit(LocalDate.of(1, 1, 1)),
                lit(LocalDate.of(9999, 12, 31)), lit(LocalDate.of(1970, 1, 1)), lit(new BigDecimal("12.50")),
                lit(new BigDecimal("12.5")), lit(new BigDecimal("-0.05")), lit(new BigDecimal("999999999999999999")),
                lit(new BigDecimal("-0.000000000000000001")), nullOf(DataType.decimal(18, 18)),
                lit(LocalDateTime.of(1, 1, 1, 0, 0)), lit(LocalDateTime.of(2024, 2, 29, 23, 59, 59, 999_999_000)),
                lit(Instant.parse("1969-12-31T23:59:59.999999Z")), lit(LocalTime.MIDNIGHT), lit(LocalTime.of(12, 0, 0, 1000)),
                nullOf(DataType.TIMESTAMP_TZ), lit(new Interval(Integer.MIN_VALUE, Integer.MAX_VALUE, Long.MIN_VALUE)),
                lit(Interval.ZERO), new Literal(null, null));
        for (Expr literal : literals) {
            Plan plan = Plan.series("x", 1, 1).project(literal.as("v"));
            Plan decoded = roundTrip(plan);
            // BigDecimal's equals counts the scale: 12.50 and 12.5 stay apart.
            assertEquals(plan.label(), decoded.label());
        }
    }

    @Test
    void shouldGiveEveryNodeClassOfThePackageATag() throws IOException {
        Pattern node = Pattern.compile("\\bclass\\s+(\\w+)\\s+extends\\s+Plan\\b");
        Set<String> declared = new TreeSet<>();
        try (Stream<Path> files = Files.list(Path.of("operators/io/troupe/operators/plan"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = node.matcher(Files.readString(f));
                while (m.find()) {
                    declared.add(m.group(1));
                }
            }
        }
        Set<String> tagged = Arrays.stream(PlanSerializer.Kind.values()).map(k -> k.type.getSimpleName())
                .collect(Collectors.toCollection(TreeSet::new));
        tagged.add("CteNode"); // written inside its first CTE Scan, not a node of the tree
        assertEquals(declared, tagged, "every Plan subclass needs a tag in PlanSerializer.Kind");
        Set<Integer> tags = new TreeSet<>();
        for (PlanSerializer.Kind k : PlanSerializer.Kind.values()) {
            assertTrue(tags.add(k.tag), "tag " + k.tag + " is used twice");
        }
    }

    @Test
    void shouldRefuseAPlanNodeWithoutATagNamingIt() {
        Plan alien = new Plan() {
            @Override
            public List<Plan> children() {
                return List.of();
            }

            @Override
            public String label() {
                return "Alien";
            }

            @Override
            Schema deriveSchema(io.troupe.operators.table.Catalog catalog) {
                throw new UnsupportedOperationException();
            }

            @Override
            Plan withParameters(ParameterBinding binding) {
                throw new UnsupportedOperationException();
            }

            @Override
            PipelineBuilder compileNode(PlanCompiler compiler) {
                throw new UnsupportedOperationException();
            }
        };
        WireException e = assertThrows(WireException.class, () -> CODEC.encode(Plan.scan("t").unionAll(alien)));
        assertTrue(e.getMessage().contains("plan node " + alien.getClass().getName() + " (Alien) has no wire form"),
                e.getMessage());
    }

    @Test
    void shouldShareASubplanUsedTwiceAndKeepTwoSharedSubplansApart() {
        Plan a = Plan.series("x", 1, 5).share("a");
        Plan b = Plan.series("x", 1, 5).share("b");
        Plan plan = a.as("a1").join(a.as("a2"), JoinType.INNER, col("a1.x").eq(col("a2.x")))
                .join(b, JoinType.INNER, col("a1.x").eq(col("b.x")));
        Plan decoded = roundTrip(plan);
        assertEquals(2, decoded.sharedSubplans().size());
        List<String> labels = new ArrayList<>();
        for (Plan cte : decoded.sharedSubplans()) {
            labels.add(cte.label());
        }
        assertEquals(List.of("CTE a", "CTE b"), labels);
    }
}
