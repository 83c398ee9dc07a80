package io.troupe.operators.plan;

import io.troupe.operators.types.DataType;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.ObjectMap;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Writes a whole plan tree for the wire (Kryo), and reads it back into the same nodes: the one Kryo
 * serializer of {@link Plan}, under which the wire registry files every node class (they are this
 * package's own, so no other package could register them one by one).
 *
 * <p>Layout, depth first: a node is its tag (one byte, {@link Kind}), its fields, then its children
 * in {@link Plan#children} order (their number is fixed by the tag). Expressions, sort keys, lists and
 * enums go through Kryo's registrations ({@code kryo.writeClassAndObject}); names are Kryo strings,
 * numbers var-longs. A shared subplan ({@link CteNode}) is written once per payload where its first
 * use is, and later uses point back to it by number, so a decoded plan shares it exactly as the sent
 * one did (the subplan runs once per query; see {@link Plan#share}). A recursive union's work table scans are
 * written by name and read back as scans of the innermost recursive union of that name being read.
 *
 * <p>Tags and field layouts are part of the wire protocol: a new node takes the next free tag; a
 * changed layout needs a new protocol version (see the wire package, {@code io.troupe.actors.wire}).
 * A node without a tag is refused when written, naming its class.
 *
 * <p>Stateless (the shared subplans of one payload live in Kryo's per-payload graph context), so one
 * instance may serve every Kryo; each Kryo is used by one thread at a time.
 */
public final class PlanSerializer extends Serializer<Plan> {

    /** The node kinds and their tags: stable, never reused. {@code arity}: the children written after the fields. */
    enum Kind {
        SCAN(1, ScanNode.class, 0),
        // Tags 2 and 16 are retired, never to be reused.
        ALIAS(3, AliasNode.class, 1),
        FILTER(4, FilterNode.class, 1),
        PROJECT(5, ProjectNode.class, 1),
        JOIN(6, JoinNode.class, 2),
        AGGREGATE(7, AggregateNode.class, 1),
        SORT(8, SortNode.class, 1),
        LIMIT(9, LimitNode.class, 1),
        UNION_ALL(10, UnionAllNode.class, 2),
        DISTINCT(11, DistinctNode.class, 1),
        CTE_SCAN(12, CteScanNode.class, 0),
        WINDOW(13, WindowNode.class, 1),
        VALUES(14, ValuesNode.class, 0),
        PINNED(15, PinnedNode.class, 1),
        RECURSIVE_UNION(17, RecursiveUnionNode.class, 2),
        WORK_TABLE(18, WorkTableScanNode.class, 0),
        SERIES(19, SeriesNode.class, 0);

        final int tag;
        final Class<? extends Plan> type;
        final int arity;

        Kind(int tag, Class<? extends Plan> type, int arity) {
            this.tag = tag;
            this.type = type;
            this.arity = arity;
        }
    }

    private static final Map<Class<?>, Kind> BY_CLASS = Arrays.stream(Kind.values())
            .collect(Collectors.toUnmodifiableMap(k -> k.type, k -> k));
    private static final Kind[] BY_TAG = byTag();
    /** Graph-context keys: the shared subplans written, and read, so far in this payload. */
    private static final Object WRITTEN = new Object();
    private static final Object READ = new Object();
    /** Graph-context key: the recursive unions whose recursive term is being read, innermost first. */
    private static final Object WORK_TABLES = new Object();

    public PlanSerializer() {
        setImmutable(true);
    }

    private static Kind[] byTag() {
        Kind[] table = new Kind[Arrays.stream(Kind.values()).mapToInt(k -> k.tag).max().orElse(0) + 1];
        for (Kind k : Kind.values()) {
            table[k.tag] = k;
        }
        return table;
    }

    /**
     * The tag table as text ({@code 1=ScanNode,2=SeriesNode,...}), which the wire registry folds into
     * its fingerprint, so that two builds whose node tags differ refuse each other's payloads.
     */
    public static String tags() {
        return Arrays.stream(Kind.values()).map(k -> k.tag + "=" + k.type.getSimpleName())
                .collect(Collectors.joining(","));
    }

    // ------------------------------------------------------------------ write

    @Override
    public void write(Kryo kryo, Output out, Plan plan) {
        Kind kind = BY_CLASS.get(plan.getClass());
        if (kind == null) {
            throw new KryoException("plan node " + plan.getClass().getName() + " (" + plan.label()
                    + ") has no wire form: give it a tag in " + PlanSerializer.class.getName());
        }
        out.writeByte(kind.tag);
        switch (kind) {
            case SCAN -> {
                ScanNode n = (ScanNode) plan;
                out.writeString(n.table());
                out.writeString(n.alias());
            }
            case SERIES -> {
                SeriesNode n = (SeriesNode) plan;
                out.writeString(n.column());
                out.writeBoolean(n.inclusive());
                kryo.writeClassAndObject(out, n.start());
                kryo.writeClassAndObject(out, n.stop());
                kryo.writeClassAndObject(out, n.step());
            }
            case ALIAS -> out.writeString(((AliasNode) plan).alias());
            case FILTER -> {
                FilterNode n = (FilterNode) plan;
                out.writeBoolean(n.isHaving());
                kryo.writeClassAndObject(out, n.predicate());
            }
            case PROJECT -> kryo.writeClassAndObject(out, ((ProjectNode) plan).columns());
            case JOIN -> {
                JoinNode n = (JoinNode) plan;
                kryo.writeObject(out, n.type());
                kryo.writeClassAndObject(out, n.on());
            }
            case AGGREGATE -> {
                AggregateNode n = (AggregateNode) plan;
                kryo.writeClassAndObject(out, n.groupBy());
                kryo.writeClassAndObject(out, n.aggregates());
            }
            case SORT -> kryo.writeClassAndObject(out, ((SortNode) plan).keys());
            case WINDOW -> {
                WindowNode n = (WindowNode) plan;
                kryo.writeClassAndObject(out, n.partitionBy());
                kryo.writeClassAndObject(out, n.orderBy());
                kryo.writeClassAndObject(out, n.functions());
            }
            case LIMIT -> {
                LimitNode n = (LimitNode) plan;
                out.writeVarLong(n.count(), false);
                out.writeVarLong(n.offset(), false);
            }
            case RECURSIVE_UNION -> {
                RecursiveUnionNode n = (RecursiveUnionNode) plan;
                out.writeString(n.name());
                out.writeBoolean(n.all());
            }
            case WORK_TABLE -> {
                WorkTableScanNode n = (WorkTableScanNode) plan;
                out.writeString(n.table().name());
                out.writeString(n.alias());
            }
            case UNION_ALL, DISTINCT, PINNED -> {
                // No fields: the children say it all.
            }
            case CTE_SCAN -> {
                CteScanNode n = (CteScanNode) plan;
                writeShared(kryo, out, n.cte());
                out.writeString(n.alias());
            }
            case VALUES -> {
                ValuesNode n = (ValuesNode) plan;
                kryo.writeClassAndObject(out, n.columns());
                kryo.writeClassAndObject(out, n.types());
                kryo.writeClassAndObject(out, n.rows());
            }
            default -> throw new AssertionError(kind);
        }
        List<Plan> children = plan.children();
        assert children.size() == kind.arity : kind + " has " + children.size() + " children";
        for (Plan child : children) {
            write(kryo, out, child);
        }
    }

    /** The subplan in full where the payload first meets it (a 0, its name, its tree), else its number + 1. */
    private void writeShared(Kryo kryo, Output out, CteNode cte) {
        Map<CteNode, Integer> written = payloadState(kryo, WRITTEN, IdentityHashMap::new);
        Integer number = written.get(cte);
        if (number != null) {
            out.writeVarInt(number + 1, true);
            return;
        }
        // Numbered before its subplan, as the reader numbers it before reading the subplan.
        written.put(cte, written.size());
        out.writeVarInt(0, true);
        out.writeString(cte.name());
        write(kryo, out, cte.children().get(0));
    }

    // ------------------------------------------------------------------ read

    @Override
    public Plan read(Kryo kryo, Input in, Class<? extends Plan> type) {
        int tag = in.readByte();
        if (tag < 1 || tag >= BY_TAG.length || BY_TAG[tag] == null) {
            throw new KryoException("unknown plan node tag " + tag + " (this build knows " + tags() + ")");
        }
        Kind kind = BY_TAG[tag];
        return switch (kind) {
            case SCAN -> new ScanNode(in.readString(), in.readString());
            case SERIES -> {
                String column = in.readString();
                boolean inclusive = in.readBoolean();
                Expr start = object(kryo, in, Expr.class, "a series' start");
                Expr stop = object(kryo, in, Expr.class, "a series' stop");
                Object step = kryo.readClassAndObject(in);
                if (step != null && !(step instanceof Expr)) {
                    throw new KryoException("a series' step must be Expr, got " + step.getClass().getName());
                }
                yield new SeriesNode(column, start, stop, (Expr) step, inclusive);
            }
            case ALIAS -> {
                String alias = in.readString();
                yield new AliasNode(read(kryo, in, Plan.class), alias);
            }
            case FILTER -> {
                boolean having = in.readBoolean();
                Expr predicate = object(kryo, in, Expr.class, "a filter's predicate");
                yield new FilterNode(read(kryo, in, Plan.class), predicate, having);
            }
            case PROJECT -> {
                List<Expr> columns = list(kryo, in, Expr.class, "a projection's columns");
                yield new ProjectNode(read(kryo, in, Plan.class), columns);
            }
            case JOIN -> {
                JoinType joinType = kryo.readObject(in, JoinType.class);
                Expr on = object(kryo, in, Expr.class, "a join's condition");
                Plan left = read(kryo, in, Plan.class);
                yield new JoinNode(left, read(kryo, in, Plan.class), joinType, on);
            }
            case AGGREGATE -> {
                List<Expr> groupBy = list(kryo, in, Expr.class, "an aggregate's group keys");
                List<Expr> aggregates = list(kryo, in, Expr.class, "an aggregate's functions");
                yield new AggregateNode(read(kryo, in, Plan.class), groupBy, aggregates);
            }
            case SORT -> {
                List<SortKey> keys = list(kryo, in, SortKey.class, "a sort's keys");
                yield new SortNode(read(kryo, in, Plan.class), keys);
            }
            case WINDOW -> {
                List<Expr> partitionBy = list(kryo, in, Expr.class, "a window's partition keys");
                List<SortKey> orderBy = list(kryo, in, SortKey.class, "a window's order keys");
                List<Expr> functions = list(kryo, in, Expr.class, "a window's functions");
                yield new WindowNode(read(kryo, in, Plan.class), partitionBy, orderBy, functions);
            }
            case LIMIT -> {
                long count = in.readVarLong(false);
                long offset = in.readVarLong(false);
                yield new LimitNode(read(kryo, in, Plan.class), count, offset);
            }
            case UNION_ALL -> {
                Plan left = read(kryo, in, Plan.class);
                yield new UnionAllNode(left, read(kryo, in, Plan.class));
            }
            case DISTINCT -> new DistinctNode(read(kryo, in, Plan.class));
            case RECURSIVE_UNION -> {
                String name = in.readString();
                boolean all = in.readBoolean();
                RecursiveUnionNode.WorkTable table = new RecursiveUnionNode.WorkTable(name, read(kryo, in, Plan.class));
                Deque<RecursiveUnionNode.WorkTable> open = payloadState(kryo, WORK_TABLES, ArrayDeque::new);
                open.push(table);
                try {
                    yield new RecursiveUnionNode(table, read(kryo, in, Plan.class), all);
                } finally {
                    open.pop();
                }
            }
            case WORK_TABLE -> {
                String name = in.readString();
                String alias = in.readString();
                Deque<RecursiveUnionNode.WorkTable> open = payloadState(kryo, WORK_TABLES, ArrayDeque::new);
                RecursiveUnionNode.WorkTable table = open.stream().filter(t -> t.name().equals(name)).findFirst()
                        .orElseThrow(() -> new KryoException("a work table scan of " + name
                                + " outside the recursive term of a recursive union of that name"));
                yield new WorkTableScanNode(table, alias);
            }
            case PINNED -> new PinnedNode(read(kryo, in, Plan.class));
            case CTE_SCAN -> {
                CteNode cte = readShared(kryo, in);
                yield new CteScanNode(cte, in.readString());
            }
            case VALUES -> {
                List<String> columns = list(kryo, in, String.class, "a VALUES' column names");
                List<DataType> types = list(kryo, in, DataType.class, "a VALUES' column types");
                List<List<Literal>> rows = new ArrayList<>();
                for (List<?> row : list(kryo, in, List.class, "a VALUES' rows")) {
                    rows.add(checked(row, Literal.class, "a VALUES row"));
                }
                yield new ValuesNode(columns, types, rows);
            }
        };
    }

    private CteNode readShared(Kryo kryo, Input in) {
        List<CteNode> read = payloadState(kryo, READ, ArrayList::new);
        int reference = in.readVarInt(true);
        if (reference > 0) {
            if (reference > read.size() || read.get(reference - 1) == null) {
                throw new KryoException("a CTE scan refers to shared subplan " + (reference - 1) + " of "
                        + read.size() + " read so far");
            }
            return read.get(reference - 1);
        }
        int number = read.size();
        read.add(null);
        String name = in.readString();
        CteNode cte = new CteNode(read(kryo, in, Plan.class), name);
        read.set(number, cte);
        return cte;
    }

    /** What this serializer keeps under {@code key} for the payload at hand (Kryo clears it after each). */
    @SuppressWarnings({"unchecked", "rawtypes"}) // Kryo's graph context is a raw map
    private static <T> T payloadState(Kryo kryo, Object key, Supplier<T> make) {
        ObjectMap context = kryo.getGraphContext();
        T state = (T) context.get(key);
        if (state == null) {
            state = make.get();
            context.put(key, state);
        }
        return state;
    }

    private static <T> T object(Kryo kryo, Input in, Class<T> type, String what) {
        Object value = kryo.readClassAndObject(in);
        if (!type.isInstance(value)) {
            throw new KryoException(what + " must be " + type.getSimpleName() + ", got "
                    + (value == null ? "null" : value.getClass().getName()));
        }
        return type.cast(value);
    }

    private static <T> List<T> list(Kryo kryo, Input in, Class<T> element, String what) {
        return checked(object(kryo, in, List.class, what), element, what);
    }

    private static <T> List<T> checked(List<?> list, Class<T> element, String what) {
        for (Object e : list) {
            if (!element.isInstance(e)) {
                throw new KryoException(what + " must be " + element.getSimpleName() + "s, got "
                        + (e == null ? "null" : e.getClass().getName()));
            }
        }
        @SuppressWarnings("unchecked")
        List<T> typed = (List<T>) list;
        return typed;
    }
}
