package io.troupe.operators.plan;

import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.sort.OrderKey;
import io.troupe.operators.stream.ProjectOperator;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.operators.window.WindowCallSpec;
import io.troupe.operators.window.WindowFunction;
import io.troupe.operators.window.WindowParts;
import io.troupe.operators.window.WindowSink;
import io.troupe.operators.window.WindowSource;
import io.troupe.operators.window.WindowSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Window functions over partitions of the input: every input row, then one column per function. Compiles to a
 * {@link WindowSink} ending the input's pipeline, its rows read through a Repartition by hash of the
 * PARTITION BY keys (a Gather without keys), and a {@link WindowSource} starting the next pipeline, whose
 * readers sort and compute the hash parts in parallel (see {@code io.troupe.operators.window}). Keys and
 * arguments that are not plain columns are computed by a projection before the sink.
 */
final class WindowNode extends Plan {

    private final Plan input;
    private final List<Expr> partitionBy;
    private final List<SortKey> orderBy;
    private final List<Expr> functions;

    WindowNode(Plan input, List<Expr> partitionBy, List<SortKey> orderBy, List<Expr> functions) {
        this.input = input;
        this.partitionBy = List.copyOf(partitionBy);
        this.orderBy = List.copyOf(orderBy);
        this.functions = List.copyOf(functions);
    }

    List<Expr> partitionBy() {
        return partitionBy;
    }

    List<SortKey> orderBy() {
        return orderBy;
    }

    List<Expr> functions() {
        return functions;
    }

    @Override
    public List<Plan> children() {
        return List.of(input);
    }

    @Override
    public String label() {
        return "Window " + functions.stream().map(Expr::toString).collect(Collectors.joining(", "))
                + (partitionBy.isEmpty() ? "" : " Partition By: "
                + partitionBy.stream().map(Expr::toString).collect(Collectors.joining(", ")))
                + (orderBy.isEmpty() ? "" : " Order By: "
                + orderBy.stream().map(SortKey::toString).collect(Collectors.joining(", ")));
    }

    /**
     * The window bound to its input: the columns its sink holds (the input's, then each key or argument that is
     * not a plain column), the spec over them, and the partition keys as columns of them.
     */
    private record Bound(List<Expression> held, WindowSpec spec, List<Expression> partitionKeys) {
    }

    private Bound bind(Schema in) {
        if (functions.isEmpty()) {
            throw new PlanException(label(), "a window needs at least one function");
        }
        List<Expression> held = new ArrayList<>();
        for (int c = 0; c < in.size(); c++) {
            Field f = in.field(c);
            held.add(new ColumnExpression(c, f.type(), f.qualifiedName()));
        }
        List<Expression> partitionKeys = new ArrayList<>();
        int[] partitionColumns = new int[partitionBy.size()];
        for (int k = 0; k < partitionColumns.length; k++) {
            partitionColumns[k] = column(held, partitionBy.get(k).bind(in, label()));
            partitionKeys.add(ref(held, partitionColumns[k]));
        }
        List<OrderKey> orderKeys = new ArrayList<>();
        List<DataType> orderTypes = new ArrayList<>();
        for (SortKey k : orderBy) {
            int column = column(held, k.expr().bind(in, label()));
            orderKeys.add(new OrderKey(ref(held, column), k.ascending(), k.nullsFirst()));
            orderTypes.add(held.get(column).type());
        }
        List<WindowCallSpec> calls = new ArrayList<>();
        for (Expr f : functions) {
            calls.add(bindCall(f, in, held, orderTypes));
        }
        return new Bound(held, new WindowSpec(in.size(), partitionColumns, orderKeys, calls, label()), partitionKeys);
    }

    /** The held column of {@code e}: its input column, or a new computed one. */
    private static int column(List<Expression> held, Expression e) {
        if (e instanceof ColumnExpression c) {
            return c.index();
        }
        held.add(e);
        return held.size() - 1;
    }

    /** Held column {@code c} as a column reference. */
    private static Expression ref(List<Expression> held, int c) {
        Expression e = held.get(c);
        return e instanceof ColumnExpression ? e : new ColumnExpression(c, e.type(), e.toString());
    }

    private WindowCallSpec bindCall(Expr f, Schema in, List<Expression> held, List<DataType> orderTypes) {
        Expr e = f instanceof Alias a ? a.expr() : f;
        if (!(e instanceof WindowCall call)) {
            throw new PlanException(label(), f + " is not a window function; put plain expressions in a project() "
                    + "above or below the window");
        }
        WindowFunction function = call.function();
        List<Expr> args = call.arguments();
        boolean shift = function == WindowFunction.LAG || function == WindowFunction.LEAD;
        int least = function == WindowFunction.NTH_VALUE ? 2 : function.takesValue() || function == WindowFunction.NTILE
                ? 1 : 0;
        int most = shift ? 3 : least;
        if (args.size() < least || args.size() > most) {
            throw new PlanException(label(), call + " takes " + (least == most ? String.valueOf(least)
                    : least + " to " + most) + " argument(s), got " + args.size());
        }
        if (call.ignoresNulls() && !function.takesNullTreatment()) {
            throw new PlanException(label(), call + ": " + function.sqlName() + " does not take IGNORE NULLS; "
                    + "lag, lead, first_value, last_value and nth_value do");
        }
        if (function.framed()) {
            try {
                call.frame().check(orderTypes);
            } catch (IllegalArgumentException ex) {
                throw new PlanException(label(), call + ": " + ex.getMessage());
            }
        }
        int value = -1;
        DataType argument = null;
        if (function.takesValue()) {
            Expression bound = args.get(0).bind(in, label());
            value = column(held, bound);
            argument = bound.type();
        }
        long offset = 0;
        int fallback = -1;
        if (function == WindowFunction.NTILE) {
            offset = integer(call, args.get(0), 1);
        } else if (function == WindowFunction.NTH_VALUE) {
            offset = integer(call, args.get(1), 1);
        } else if (args.size() > 1) {
            offset = integer(call, args.get(1), 0);
            if (args.size() > 2) {
                Expression bound = args.get(2).bind(in, label());
                if (!bound.type().equals(argument)) {
                    throw new PlanException(label(), "the default of " + call + " is " + bound.type()
                            + ", its value " + argument + ": cast the default to " + argument);
                }
                fallback = column(held, bound);
            }
        } else if (shift) {
            offset = 1;
        }
        DataType type;
        try {
            type = function.resultType(argument);
        } catch (IllegalArgumentException ex) {
            throw new PlanException(label(), ex.getMessage() + ": " + call);
        }
        return new WindowCallSpec(function, value, fallback, offset, call.frame(), call.ignoresNulls(), type,
                call.toString());
    }

    /** The integer literal {@code arg} of {@code call}, at least {@code least}. */
    private long integer(WindowCall call, Expr arg, long least) {
        if (arg instanceof Literal l && (l.value() instanceof Integer || l.value() instanceof Long)
                && ((Number) l.value()).longValue() >= least) {
            return ((Number) l.value()).longValue();
        }
        throw new PlanException(label(), call + " takes an integer literal of at least " + least + " there, not "
                + arg);
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        Schema in = input.deriveSchema(catalog);
        Bound bound = bind(in);
        List<Field> fields = new ArrayList<>(in.fields());
        for (int f = 0; f < functions.size(); f++) {
            fields.add(new Field(null, functions.get(f).outputName(), bound.spec().calls().get(f).type(), true));
        }
        return new Schema(fields);
    }

    @Override
    Plan withParameters(ParameterBinding binding) {
        return new WindowNode(binding.plan(input), binding.exprs(partitionBy), binding.keys(orderBy),
                binding.exprs(functions));
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        Schema in = input.deriveSchema(compiler.catalog());
        Bound bound = bind(in);
        PipelineBuilder rows = input.compile(compiler);
        if (bound.held().size() > in.size()) {
            rows = rows.then(new ProjectOperator(bound.held()));
        }
        StateKey<WindowParts> key = compiler.newKey("window", WindowParts.class);
        Pipeline build = rows.into(new WindowSink(bound.spec(), key));
        return compiler.source(new WindowSource(key))
                .dependsOn(build, HashPlacement.grouping(compiler, input, bound.partitionKeys()), input);
    }
}
