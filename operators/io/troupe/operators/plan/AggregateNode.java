package io.troupe.operators.plan;

import io.troupe.operators.agg.AggregateFunction;
import io.troupe.operators.agg.AggregateResult;
import io.troupe.operators.agg.AggregateSpec;
import io.troupe.operators.agg.AggregateTypes;
import io.troupe.operators.agg.HashAggregateSink;
import io.troupe.operators.agg.HashAggregateSource;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.expr.Expression;
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
 * <p>When every aggregate is count(DISTINCT x) of one x, it compiles to two aggregates instead, as
 * PostgreSQL and DuckDB plan it: GROUP BY keys, x (the distinct pairs), then GROUP BY keys with
 * count(x), which skips the NULL x of a group as count(DISTINCT x) does. Both are plain
 * aggregates, which spill over the budget, where the one-step count(DISTINCT)'s set of pairs
 * cannot.
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
            boolean counts = spec.function().name().startsWith("COUNT");
            fields.add(new Field(null, aggregate.outputName(), spec.resultType(), !counts));
        }
        return new Schema(fields);
    }

    /** Binds one output aggregate against the input schema, checking its argument's type. */
    private AggregateSpec bind(Expr aggregate, Schema in) {
        AggregateCall call = call(aggregate);
        Expression argument = call.argument() == null ? null : call.argument().bind(in, label());
        DataType result;
        try {
            result = AggregateTypes.resultType(call.function(), argument == null ? null : argument.type());
        } catch (IllegalArgumentException e) {
            throw new PlanException(label(), e.getMessage() + ": " + call);
        }
        return new AggregateSpec(call.function(), argument, call.distinct(), result, call.toString());
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
        Expression distinct = distinctArgument(specs);
        if (distinct != null) {
            List<Expression> pairKeys = new ArrayList<>(keys);
            pairKeys.add(distinct);
            StateKey<AggregateResult> pairs = compiler.newKey("aggregate", AggregateResult.class);
            Pipeline build = rows.into(new HashAggregateSink(pairKeys, List.of(), pairs));
            rows = compiler.source(new HashAggregateSource(pairs)).dependsOn(build);
            List<Expression> outerKeys = new ArrayList<>();
            for (int k = 0; k < keys.size(); k++) {
                outerKeys.add(new ColumnExpression(k, keys.get(k).type(), groupBy.get(k).outputName()));
            }
            Expression x = new ColumnExpression(keys.size(), distinct.type(), distinct.toString());
            List<AggregateSpec> counts = new ArrayList<>();
            for (AggregateSpec spec : specs) {
                counts.add(new AggregateSpec(AggregateFunction.COUNT, x, false, spec.resultType(), spec.text()));
            }
            keys = outerKeys;
            specs = counts;
        }
        StateKey<AggregateResult> result = compiler.newKey("aggregate", AggregateResult.class);
        Pipeline build = rows.into(new HashAggregateSink(keys, specs, result));
        return compiler.source(new HashAggregateSource(result)).dependsOn(build);
    }

    /** The bound x when the aggregates are all count(DISTINCT x) of one x, else null. */
    private Expression distinctArgument(List<AggregateSpec> specs) {
        if (specs.isEmpty()) {
            return null;
        }
        Expr x = call(aggregates.get(0)).argument();
        for (Expr aggregate : aggregates) {
            AggregateCall call = call(aggregate);
            if (!call.distinct() || !call.argument().equals(x)) {
                return null;
            }
        }
        return specs.get(0).argument();
    }
}
