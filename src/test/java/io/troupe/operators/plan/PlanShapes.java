package io.troupe.operators.plan;

import io.troupe.operators.window.FrameBound;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Test helper: structural equality of two plans (plans have no {@code equals}) and the kinds of
 * node, expression, function, join and literal a plan holds. Reads the nodes' own fields, so it
 * states independently of {@link PlanSerializer} what a node is.
 */
public final class PlanShapes {

    private PlanShapes() {
    }

    /**
     * Asserts that {@code actual} is {@code expected} node for node: the same classes, fields
     * (expressions by their records' equality, so literal types count) and children, and the same
     * sharing of subplans: two uses of one shared subplan in {@code expected} are two uses of one in
     * {@code actual}, and different ones stay different.
     */
    public static void assertSamePlan(Plan expected, Plan actual) {
        same(expected, actual, new IdentityHashMap<>(), new IdentityHashMap<>(), "root");
    }

    private static void same(Plan e, Plan a, Map<CteNode, CteNode> ctes,
                             Map<RecursiveUnionNode.WorkTable, RecursiveUnionNode.WorkTable> workTables, String path) {
        assertEquals(e.getClass(), a.getClass(), path);
        assertEquals(fields(e), fields(a), path + ": " + e.label());
        if (e instanceof RecursiveUnionNode union) {
            workTables.put(union.table(), ((RecursiveUnionNode) a).table());
        }
        if (e instanceof WorkTableScanNode scan) {
            assertSame(workTables.get(scan.table()), ((WorkTableScanNode) a).table(),
                    path + ": a work table scan reads another recursive union");
        }
        if (e instanceof CteScanNode scan) {
            CteNode expectedCte = scan.cte();
            CteNode actualCte = ((CteScanNode) a).cte();
            CteNode seen = ctes.get(expectedCte);
            if (seen == null) {
                assertFalse(ctes.containsValue(actualCte), path + ": two shared subplans became one");
                ctes.put(expectedCte, actualCte);
                same(expectedCte, actualCte, ctes, workTables, path + "/" + expectedCte.label());
            } else {
                assertSame(seen, actualCte, path + ": one shared subplan became two");
            }
        }
        List<Plan> ec = e.children();
        List<Plan> ac = a.children();
        assertEquals(ec.size(), ac.size(), path + ": children of " + e.label());
        for (int i = 0; i < ec.size(); i++) {
            same(ec.get(i), ac.get(i), ctes, workTables, path + "/" + i);
        }
    }

    /** A node's own fields (not its children). */
    private static List<Object> fields(Plan p) {
        if (p instanceof ScanNode n) {
            return List.of(n.table(), n.alias());
        } else if (p instanceof SeriesNode n) {
            return Arrays.asList(n.column(), n.start(), n.stop(), n.step(), n.inclusive());
        } else if (p instanceof AliasNode n) {
            return List.of(n.alias());
        } else if (p instanceof FilterNode n) {
            return List.of(n.predicate(), n.isHaving());
        } else if (p instanceof ProjectNode n) {
            return List.of(n.columns());
        } else if (p instanceof JoinNode n) {
            return List.of(n.type(), n.on());
        } else if (p instanceof AggregateNode n) {
            return List.of(n.groupBy(), n.aggregates());
        } else if (p instanceof SortNode n) {
            return List.of(n.keys());
        } else if (p instanceof WindowNode n) {
            return List.of(n.partitionBy(), n.orderBy(), n.functions());
        } else if (p instanceof LimitNode n) {
            return List.of(n.count(), n.offset());
        } else if (p instanceof CteScanNode n) {
            return List.of(n.alias());
        } else if (p instanceof CteNode n) {
            return List.of(n.name());
        } else if (p instanceof ValuesNode n) {
            return List.of(String.valueOf(n.columns()), String.valueOf(n.types()), String.valueOf(n.rows()));
        } else if (p instanceof RecursiveUnionNode n) {
            return List.of(n.name(), n.all());
        } else if (p instanceof WorkTableScanNode n) {
            return List.of(n.table().name(), n.alias());
        } else if (p instanceof UnionAllNode || p instanceof DistinctNode || p instanceof PinnedNode) {
            return List.of();
        }
        throw new AssertionError("PlanShapes does not know " + p.getClass());
    }

    /**
     * What {@code plan} holds, as names: node classes ({@code node ScanNode}), expression records
     * ({@code expr Call}), functions ({@code function ADD}), aggregates ({@code aggregate SUM},
     * {@code aggregate COUNT DISTINCT}), join types ({@code join LEFT}), literal types
     * ({@code literal DECIMAL}, {@code null DATE}, {@code null untyped}), cast targets and sort orders.
     */
    public static Set<String> kinds(Plan plan) {
        Set<String> out = new TreeSet<>();
        kinds(plan, out, new IdentityHashMap<>());
        return out;
    }

    private static void kinds(Plan p, Set<String> out, Map<CteNode, Boolean> seen) {
        out.add("node " + p.getClass().getSimpleName());
        List<Object> fields = new ArrayList<>(fields(p));
        for (Object f : fields) {
            if (f instanceof Expr e) {
                kinds(e, out);
            } else if (f instanceof JoinType t) {
                out.add("join " + t);
            } else if (f instanceof List<?> list) {
                for (Object item : list) {
                    if (item instanceof SortKey k) {
                        out.add("sort " + (k.ascending() ? "ASC" : "DESC")
                                + (k.nullsFirst() ? " NULLS FIRST" : " NULLS LAST"));
                        kinds(k.expr(), out);
                    } else {
                        kinds((Expr) item, out);
                    }
                }
            }
        }
        if (p instanceof CteScanNode scan && seen.put(scan.cte(), true) == null) {
            kinds(scan.cte(), out, seen);
        }
        for (Plan child : p.children()) {
            kinds(child, out, seen);
        }
    }

    private static void kinds(Expr e, Set<String> out) {
        out.add("expr " + e.getClass().getSimpleName());
        if (e instanceof Call c) {
            out.add("function " + c.function());
            if (c.castType() != null) {
                out.add("cast " + c.castType().id());
            }
        } else if (e instanceof AggregateCall a) {
            out.add("aggregate " + a.function() + (a.distinct() ? " DISTINCT" : ""));
        } else if (e instanceof WindowCall w) {
            out.add("window " + w.function());
            out.add("frame " + w.frame().unit());
            out.add("exclude " + w.frame().exclusion());
            for (FrameBound b : List.of(w.frame().start(), w.frame().end())) {
                if (b.hasOffset()) {
                    out.add("offset " + b.offset().getClass().getSimpleName());
                }
            }
            if (w.ignoresNulls()) {
                out.add("ignore nulls");
            }
        } else if (e instanceof Literal l) {
            out.add((l.value() == null ? "null " : "literal ") + (l.type() == null ? "untyped" : l.type().id()));
        }
        for (Expr child : e.children()) {
            kinds(child, out);
        }
    }
}
