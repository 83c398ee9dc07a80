package io.troupe.operators.plan;

import io.troupe.operators.agg.AggregateFunction;
import io.troupe.operators.agg.AggregateResult;
import io.troupe.operators.agg.AggregateSpec;
import io.troupe.operators.agg.AggregateStep;
import io.troupe.operators.agg.HashAggregateSink;
import io.troupe.operators.agg.HashAggregateSource;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.fragment.ExchangeKind;
import io.troupe.operators.sort.OrderKey;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * GROUP BY keys with aggregate functions; output is the keys, then the aggregates. Compiles to a
 * {@link HashAggregateSink} ending the input's pipeline and a {@link HashAggregateSource} starting
 * the next one.
 *
 * <p>With count(DISTINCT), it compiles to plain aggregates in steps instead, which spill
 * ({@link DistinctAggregates}).
 */
final class AggregateNode extends Plan {

    private final Plan input;
    private final List<Expr> groupBy;
    private final List<Expr> aggregates;

    AggregateNode(Plan input, List<Expr> groupBy, List<Expr> aggregates) {
        this.input = input;
        this.groupBy = List.copyOf(groupBy);
        this.aggregates = List.copyOf(aggregates);
    }

    List<Expr> groupBy() {
        return groupBy;
    }

    List<Expr> aggregates() {
        return aggregates;
    }

    @Override
    public List<Plan> children() {
        return List.of(input);
    }

    @Override
    public String label() {
        String keys = groupBy.stream().map(Expr::toString).collect(Collectors.joining(", "));
        String aggs = aggregates.stream().map(Expr::toString).collect(Collectors.joining(", "));
        return "Hash Aggregate " + aggs + (groupBy.isEmpty() ? "" : " Group Key: " + keys);
    }

    /** The aggregate call of an output expression (unwrapping its alias). */
    AggregateCall call(Expr aggregate) {
        Expr e = aggregate instanceof Alias a ? a.expr() : aggregate;
        if (!(e instanceof AggregateCall call)) {
            throw new PlanException(label(), aggregate + " is not an aggregate function; "
                    + "put plain expressions in the group keys or in a project() above");
        }
        return call;
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        Schema in = input.deriveSchema(catalog);
        if (groupBy.isEmpty() && aggregates.isEmpty()) {
            throw new PlanException(label(), "an aggregate needs group keys or aggregate functions");
        }
        List<Field> fields = new ArrayList<>();
        for (Expr key : groupBy) {
            Expression bound = key.bind(in, label());
            if (key instanceof ColumnRef ref) {
                fields.add(in.field(in.resolve(ref.reference())));
            } else {
                fields.add(new Field(null, key.outputName(), bound.type(), true));
            }
        }
        for (Expr aggregate : aggregates) {
            AggregateSpec spec = bind(aggregate, in);
            fields.add(new Field(null, aggregate.outputName(), spec.resultType(), !spec.function().counts()));
        }
        return new Schema(fields);
    }

    /** Binds one output aggregate against the input schema, checking its argument's type. */
    private AggregateSpec bind(Expr aggregate, Schema in) {
        if ((aggregate instanceof Alias a ? a.expr() : aggregate) instanceof UserCall own
                && (own.functions() == null || own.isAggregate())) {
            return own.bindAggregate(in, label());
        }
        AggregateCall call = call(aggregate);
        List<Expression> arguments = new ArrayList<>();
        for (Expr argument : call.arguments()) {
            arguments.add(argument.bind(in, label()));
        }
        List<OrderKey> order = new ArrayList<>();
        for (SortKey key : call.order()) {
            order.add(new OrderKey(key.expr().bind(in, label()), key.ascending(), key.nullsFirst()));
        }
        try {
            return AggregateSpec.of(call.function(), arguments, call.distinct(), order, call.toString());
        } catch (IllegalArgumentException e) {
            throw new PlanException(label(), e.getMessage() + (e.getMessage().endsWith(call.toString()) ? ""
                    : ": " + call));
        }
    }

    @Override
    Plan withParameters(ParameterBinding binding) {
        return new AggregateNode(binding.plan(input), binding.exprs(groupBy), binding.exprs(aggregates));
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        Schema in = input.deriveSchema(compiler.catalog());
        List<Expression> keys = new ArrayList<>();
        for (Expr key : groupBy) {
            keys.add(key.bind(in, label()));
        }
        List<AggregateSpec> specs = new ArrayList<>();
        for (Expr aggregate : aggregates) {
            specs.add(bind(aggregate, in));
        }
        PipelineBuilder rows = input.compile(compiler);
        List<Expr> distinct = new ArrayList<>();
        List<Expression> arguments = new ArrayList<>();
        int[] argumentOf = new int[specs.size()];
        for (int a = 0; a < argumentOf.length; a++) {
            if (specs.get(a).own() != null) {
                argumentOf[a] = -1;
                continue;
            }
            AggregateCall call = call(aggregates.get(a));
            boolean counted = call.distinct() && call.function() == AggregateFunction.COUNT;
            argumentOf[a] = counted ? distinct.indexOf(call.argument()) : -1;
            if (counted && argumentOf[a] < 0) {
                argumentOf[a] = distinct.size();
                distinct.add(call.argument());
                arguments.add(specs.get(a).argument());
            }
        }
        if (!distinct.isEmpty()) {
            List<Expression> outer = new ArrayList<>();
            for (int k = 0; k < keys.size(); k++) {
                outer.add(new ColumnExpression(k, keys.get(k).type(), groupBy.get(k).outputName()));
            }
            return DistinctAggregates.compile(compiler, input, rows, keys, outer, specs, arguments, argumentOf);
        }
        StateKey<AggregateResult> result = compiler.newKey("aggregate", AggregateResult.class);
        if (compiler.spread() && keys.isEmpty() && specs.stream().noneMatch(s -> s.function().holistic())) {
            // Each node aggregates its own rows into one row of partial states, which stays there (Forward);
            // the partial rows, one a node, gather for the coordinator to combine. Gathering the input instead
            // would move every row it counts (W1's join output: 5M rows, 40 MB, over 2 nodes). An aggregate
            // that keeps every value (median, string_agg) gathers its input: its partial state is all of it, in
            // one cell. EXPLAIN draws the Gather above this node, not above the input.
            StateKey<AggregateResult> partial = compiler.newKey("partial-aggregate", AggregateResult.class);
            Pipeline perNode = rows.into(new HashAggregateSink(keys, specs, partial, AggregateStep.PARTIAL));
            Pipeline merge = compiler.source(new HashAggregateSource(partial))
                    .dependsOn(perNode, ExchangeKind.Forward.KEPT, input)
                    .into(new HashAggregateSink(keys, specs, result, AggregateStep.FINAL));
            return compiler.source(new HashAggregateSource(result))
                    .dependsOn(merge, new ExchangeKind.Gather(), this);
        }
        Pipeline build = rows.into(new HashAggregateSink(keys, specs, result));
        return compiler.source(new HashAggregateSource(result))
                .dependsOn(build, HashPlacement.grouping(compiler, input, keys), input);
    }
}
