package io.troupe.operators.fragment;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanCompiler;
import io.troupe.operators.table.Catalog;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The compiler's exchanges and the cut into fragments: every pipeline boundary gets the exchange its
 * breaker asks for (a join's build side is broadcast, an aggregate's input repartitioned by its keys
 * or gathered without keys, a sort's runs gather-merged, a shared subplan forwarded), the fragments
 * cover every pipeline once and meet only through exchanges, and in one JVM exactly the exchange at
 * the top moves batches over channels: a Gather, or a Gather Merge when the last pipeline reads a
 * sort's output alone. The fragments are data: no lambda and no actor or transport type inside.
 */
class FragmentPlanTest {

    private static final Plan FACTS = Plan.series("x", 1, 1000);
    private static final Plan DIMS = Plan.series("y", 1, 100);

    @Test
    void aJoinUnderACountBroadcastsItsBuildAndGathersTheCountAtTheTop() {
        Plan plan = FACTS.join(DIMS, JoinType.INNER, col("x").eq(col("y"))).aggregate(List.of(), count().as("n"));
        FragmentPlan cut = cut(plan);
        assertEquals(List.of("Broadcast elided", "Gather elided", "Gather channels"), kinds(cut), cut.toString());
        ExchangeSpec top = cut.exchange(2);
        assertEquals(ExchangeSpec.RESULT, top.to());
        assertEquals(List.of(), cut.fragment(top.consumer()).pipelines(), "the root runs no pipeline under a Gather");
        assertEquals(4, cut.fragments().size(), cut.toString());
    }

    @Test
    void groupKeysRepartitionAndTheirLabelNamesThem() {
        Plan plan = FACTS.aggregate(List.of(col("x").mod(lit(7L)).as("k")), count().as("n"))
                .having(col("n").gt(lit(100L)));
        FragmentPlan cut = cut(plan);
        assertEquals(List.of("Repartition elided", "Gather channels"), kinds(cut), cut.toString());
        assertEquals("Repartition by hash ((x % 7))", cut.exchange(0).kind().label());
    }

    @Test
    void aDistinctRepartitionsByEveryColumnAndACountDistinctTwice() {
        FragmentPlan distinct = cut(FACTS.project(col("x").mod(lit(3L)).as("a"), col("x").mod(lit(5L)).as("b"))
                .distinct());
        assertEquals("Repartition by hash (a, b)", distinct.exchange(0).kind().label(), distinct.toString());
        FragmentPlan twoSteps = cut(FACTS.aggregate(List.of(col("x").mod(lit(3L)).as("g")),
                Expr.countDistinct(col("x").mod(lit(11L))).as("d")));
        assertEquals(List.of("Repartition elided", "Repartition elided", "Gather channels"), kinds(twoSteps),
                twoSteps.toString());
        assertEquals("Repartition by hash ((x % 3), (x % 11))", twoSteps.exchange(0).kind().label());
        assertEquals("Repartition by hash (g)", twoSteps.exchange(1).kind().label());
    }

    @Test
    void aPassTeedIntoSeveralAggregatesFeedsEachReaderThroughItsOwnExchange() {
        Plan plan = FACTS.aggregate(List.of(col("x").mod(lit(3L)).as("g")), Expr.sum(col("x")).as("s"),
                Expr.countDistinct(col("x").mod(lit(11L))).as("d11"),
                Expr.countDistinct(col("x").mod(lit(13L))).as("d13"));
        PlanCompiler.CompiledQuery query = compile(plan);
        FragmentPlan cut = cut(plan);
        List<String> labels = cut.exchanges().stream().map(e -> e.kind().label()).sorted().toList();
        assertEquals(List.of("Gather", "Repartition by hash ((x % 3))", "Repartition by hash ((x % 3), (x % 11))",
                "Repartition by hash ((x % 3), (x % 13))", "Repartition by hash (g)", "Repartition by hash (g)",
                "Repartition by hash (g)"), labels, cut.toString());
        Fragment pass = cut.fragment(cut.exchanges().stream().filter(e -> e.kind().label().contains("(x % 11)"))
                .findFirst().orElseThrow().producer());
        assertEquals(3, pass.outputs().size(), "the pass feeds the two counts and the combining step: " + cut);
        assertEquals(query.pipelines().size() + 1, cut.fragments().size(), cut.toString());
    }

    @Test
    void anOrderByAtTheTopIsGatherMergedIntoTheRootThatRunsWhatIsAboveTheSort() {
        for (Plan plan : List.of(FACTS.sort(col("x").desc()).project(col("x")).limit(10),
                FACTS.sort(col("x").desc()).limit(5, 2))) {
            PlanCompiler.CompiledQuery query = compile(plan);
            FragmentPlan cut = query.fragments();
            assertEquals(List.of("Gather Merge channels"), kinds(cut), cut.toString());
            ExchangeSpec merge = cut.exchange(0);
            Pipeline last = query.pipelines().get(query.pipelines().size() - 1);
            assertEquals(last.id(), merge.to());
            assertEquals(List.of(last.id()), cut.root().pipelines());
            assertTrue(((ExchangeKind.GatherMerge) merge.kind()).keys().get(0).toString().startsWith("x DESC"));
        }
    }

    @Test
    void sortsBelowAUnionAreMergedInPlaceAndTheUnionGathered() {
        Plan plan = FACTS.sort(col("x").asc()).unionAll(FACTS.sort(col("x").desc()));
        assertEquals(List.of("Gather Merge elided", "Gather Merge elided", "Gather channels"), kinds(cut(plan)));
    }

    @Test
    void aSharedSubplanIsForwardedOncePerReadingPipeline() {
        Plan w = FACTS.filter(col("x").gt(lit(10L))).share("w");
        FragmentPlan union = cut(w.as("a").unionAll(w.as("b")));
        assertEquals(List.of("Forward elided", "Gather channels"), kinds(union),
                "one exchange for two reads in one pipeline");
        // Read on both sides of an aggregate's exchange: each reading pipeline is a fragment of its own.
        Plan perKey = w.as("c").aggregate(List.of(col("c.x").mod(lit(4L)).as("k")), count().as("n"));
        FragmentPlan both = cut(w.as("a").join(perKey, JoinType.INNER, col("a.x").mod(lit(4L)).eq(col("k"))));
        assertEquals(List.of("Forward elided", "Repartition elided", "Forward elided", "Broadcast elided",
                "Gather channels"), kinds(both), both.toString());
    }

    @Test
    void theLeaderAloneElidesEveryExchangeOfTheSameFragments() {
        FragmentPlan cut = cut(FACTS.join(DIMS, JoinType.LEFT, col("x").eq(col("y"))).sort(col("x").asc()));
        FragmentPlan alone = cut.leaderAlone();
        assertEquals(cut.fragments(), alone.fragments());
        assertEquals(List.of(), alone.overChannels());
        assertEquals(1, cut.overChannels().size());
    }

    @Test
    void aCompilerCompilesOneQuery() {
        PlanCompiler compiler = new PlanCompiler(new Catalog(), TroupeSettings.load());
        compiler.compile(FACTS);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> compiler.compile(DIMS));
        assertTrue(e.getMessage().contains("compiles one query"), e.getMessage());
    }

    @Test
    void aFragmentPlanThatDoesNotHoldTogetherIsRefused() {
        Fragment producer = new Fragment(0, List.of(0), List.of(), List.of(0));
        Fragment root = new Fragment(1, List.of(), List.of(0), List.of());
        ExchangeSpec gather = new ExchangeSpec(0, new ExchangeKind.Gather(), 0, 1, 0, ExchangeSpec.RESULT,
                ExchangeSpec.Mode.CHANNELS);
        assertEquals(root, new FragmentPlan(List.of(producer, root), List.of(gather)).root());
        IllegalArgumentException twoRoots = assertThrows(IllegalArgumentException.class, () -> new FragmentPlan(
                List.of(new Fragment(0, List.of(0), List.of(), List.of()), root), List.of(gather)));
        assertTrue(twoRoots.getMessage().contains("2 root fragments"), twoRoots.getMessage());
        IllegalArgumentException unlisted = assertThrows(IllegalArgumentException.class, () -> new FragmentPlan(
                List.of(producer, new Fragment(1, List.of(), List.of(), List.of())), List.of(gather)));
        assertTrue(unlisted.getMessage().contains("not among its producer's outputs"), unlisted.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ExchangeKind.Repartition(List.of()));
    }

    // ------------------------------------------------------------------ helpers

    private static PlanCompiler.CompiledQuery compile(Plan plan) {
        return new PlanCompiler(new Catalog(), TroupeSettings.load()).compile(plan);
    }

    /** The cut of {@code plan}, after checking what every cut must hold. */
    private static FragmentPlan cut(Plan plan) {
        PlanCompiler.CompiledQuery query = compile(plan);
        FragmentPlan cut = query.fragments();
        String text = cut.toString();
        Set<Integer> seen = new HashSet<>();
        for (Fragment f : cut.fragments()) {
            for (int p : f.pipelines()) {
                assertTrue(seen.add(p), "pipeline " + p + " in two fragments: " + text);
            }
            assertEquals(f.root(), f.outputs().isEmpty(), text);
        }
        assertEquals(query.pipelines().size(), seen.size(), "every pipeline in a fragment: " + text);
        int edges = 0;
        for (Pipeline p : query.pipelines()) {
            for (int d : p.dependencies().stream().map(Pipeline::id).distinct().toList()) {
                edges++;
                long exchanges = cut.exchanges().stream().filter(e -> e.from() == d && e.to() == p.id()).count();
                assertEquals(1, exchanges, "pipeline " + d + " feeds " + p.id() + " through one exchange: " + text);
            }
        }
        assertTrue(cut.exchanges().size() - edges <= 1, "at most the top Gather besides the dependencies: " + text);
        for (ExchangeSpec e : cut.exchanges()) {
            assertTrue(e.producer() < e.consumer(), "producers before consumers: " + text);
            assertTrue(cut.fragment(e.producer()).pipelines().contains(e.from()), text);
            assertTrue(e.to() == ExchangeSpec.RESULT ? cut.fragment(e.consumer()).pipelines().isEmpty()
                    : cut.fragment(e.consumer()).pipelines().contains(e.to()), text);
        }
        List<ExchangeSpec> channels = cut.overChannels();
        assertEquals(1, channels.size(), "in one JVM only the top exchange moves batches: " + text);
        assertTrue(cut.root().inputs().contains(channels.get(0).id()), text);
        assertDataOnly(cut, new IdentityHashMap<>(), "FragmentPlan");
        return cut;
    }

    /** Each exchange as "kind mode", in id order. */
    private static List<String> kinds(FragmentPlan cut) {
        List<String> kinds = new ArrayList<>();
        for (ExchangeSpec e : cut.exchanges()) {
            String label = e.kind().label();
            kinds.add((label.startsWith("Repartition") ? "Repartition" : label) + " "
                    + e.mode().name().toLowerCase(java.util.Locale.ROOT));
        }
        return kinds;
    }

    /** Walks every field reachable from {@code value}: no lambda, and nothing of the actors or the transport. */
    private static void assertDataOnly(Object value, Map<Object, Boolean> seen, String path) {
        if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean
                || value instanceof Enum<?> || seen.put(value, true) != null) {
            return;
        }
        Class<?> type = value.getClass();
        assertFalse(type.isSynthetic() || type.getName().contains("$$Lambda"), path + " is a lambda: " + type);
        for (String forbidden : List.of("org.apache.pekko", "io.troupe.actors", "io.troupe.transport")) {
            assertFalse(type.getName().startsWith(forbidden), path + " is a " + type.getName());
        }
        if (value instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                assertDataOnly(item, seen, path + "[" + i++ + "]");
            }
            return;
        }
        if (type.isArray()) {
            if (!type.getComponentType().isPrimitive()) {
                Object[] items = (Object[]) value;
                for (int i = 0; i < items.length; i++) {
                    assertDataOnly(items[i], seen, path + "[" + i + "]");
                }
            }
            return;
        }
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                    continue;
                }
                f.setAccessible(true);
                try {
                    assertDataOnly(f.get(value), seen, path + "." + f.getName());
                } catch (IllegalAccessException e) {
                    throw new AssertionError(path + "." + f.getName(), e);
                }
            }
        }
    }
}
