package io.troupe.operators.plan;

import io.troupe.operators.agg.AggregateFunction;
import io.troupe.operators.agg.AggregateResult;
import io.troupe.operators.agg.AggregateSpec;
import io.troupe.operators.agg.AggregateStep;
import io.troupe.operators.agg.HashAggregateSink;
import io.troupe.operators.agg.HashAggregateSource;
import io.troupe.operators.agg.PartialStatesSource;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.exec.TeeSink;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.fragment.ExchangeKind;

import java.util.ArrayList;
import java.util.List;

/**
 * How an aggregate with count(DISTINCT) compiles, as DuckDB runs distinct aggregates: into plain
 * aggregates, which spill over the budget, where a one-step count(DISTINCT)'s set of pairs cannot.
 *
 * <ol>
 *   <li>One pass over the input feeds, through a {@link TeeSink}, a PARTIAL step of the other
 *       aggregates per keys (when there are any) and, per distinct argument x, an aggregate per
 *       (keys, x) with no functions: each distinct x of a group is one row.</li>
 *   <li>Per distinct argument, a PARTIAL count(x) per keys of those rows: count skips the NULL x,
 *       as count(DISTINCT x) does.</li>
 *   <li>A FINAL step per keys combines them: each result is a branch of its pipeline, read as the
 *       FINAL step's columns ({@link PartialStatesSource}: the states that result carries, the state
 *       of no rows for the others). Every group of keys has a row in each result, so each
 *       aggregate's state is its whole input's.</li>
 * </ol>
 * With one distinct argument and no other aggregate, step 2 counts per keys and is the result.
 * The other aggregates never see the pairs: a pass over the input costs about what the one-step
 * aggregate's does, and the later steps read groups and pairs, not rows. Each step's result is read
 * through the exchange its keys ask for ({@link ExchangeKind#grouped}): the pairs by hash of
 * (keys, x), the partial states by hash of the keys.
 *
 * <p>Compile-time only; holds nothing.
 */
final class DistinctAggregates {

    private DistinctAggregates() {
    }

    /**
     * @param input     the aggregate's input node, which EXPLAIN draws the steps' exchanges above
     * @param rows      the input's pipeline
     * @param keys      the group keys, bound to the input
     * @param outer     the same keys as the first columns of a step's rows
     * @param specs     the aggregates, bound to the input
     * @param arguments the distinct arguments, bound to the input, each once
     * @param argumentOf per aggregate, its argument's index in {@code arguments}, or -1 when not distinct
     */
    static PipelineBuilder compile(PlanCompiler compiler, Plan input, PipelineBuilder rows,
                                   List<Expression> keys, List<Expression> outer, List<AggregateSpec> specs,
                                   List<Expression> arguments, int[] argumentOf) {
        int keyCount = keys.size();
        List<AggregateSpec> others = new ArrayList<>();
        for (int a = 0; a < specs.size(); a++) {
            if (argumentOf[a] < 0) {
                others.add(specs.get(a));
            }
        }
        List<Sink> firstPass = new ArrayList<>();
        StateKey<AggregateResult> othersResult = null;
        if (!others.isEmpty()) {
            othersResult = compiler.newKey("aggregate", AggregateResult.class);
            firstPass.add(new HashAggregateSink(keys, others, othersResult, AggregateStep.PARTIAL));
        }
        List<StateKey<AggregateResult>> pairs = new ArrayList<>();
        List<ExchangeKind> pairsThrough = new ArrayList<>();
        for (Expression x : arguments) {
            List<Expression> pairKeys = new ArrayList<>(keys);
            pairKeys.add(x);
            pairs.add(compiler.newKey("aggregate", AggregateResult.class));
            pairsThrough.add(ExchangeKind.grouped(pairKeys));
            firstPass.add(new HashAggregateSink(pairKeys, List.of(), pairs.get(pairs.size() - 1)));
        }
        ExchangeKind perKeys = ExchangeKind.grouped(outer);
        Pipeline pass = rows.into(firstPass.size() == 1 ? firstPass.get(0) : new TeeSink(firstPass));

        // As later steps see them: each count(DISTINCT x) is count(x) of the (keys, x) rows.
        List<AggregateSpec> finals = new ArrayList<>();
        for (int a = 0; a < specs.size(); a++) {
            AggregateSpec spec = specs.get(a);
            finals.add(argumentOf[a] < 0 ? spec : new AggregateSpec(AggregateFunction.COUNT,
                    new ColumnExpression(keyCount, arguments.get(argumentOf[a]).type(), spec.text()), false,
                    spec.resultType(), spec.text()));
        }
        if (others.isEmpty() && arguments.size() == 1) {
            StateKey<AggregateResult> result = compiler.newKey("aggregate", AggregateResult.class);
            Pipeline count = compiler.source(new HashAggregateSource(pairs.get(0)))
                    .dependsOn(pass, pairsThrough.get(0), input)
                    .into(new HashAggregateSink(outer, finals, result));
            return compiler.source(new HashAggregateSource(result)).dependsOn(count, perKeys, input);
        }
        PipelineBuilder states = null;
        if (othersResult != null) {
            boolean[] carried = new boolean[specs.size()];
            for (int a = 0; a < carried.length; a++) {
                carried[a] = argumentOf[a] < 0;
            }
            states = compiler.source(new PartialStatesSource(othersResult, keyCount, finals, carried))
                    .dependsOn(pass, ExchangeKind.grouped(keys), input);
        }
        for (int i = 0; i < arguments.size(); i++) {
            List<AggregateSpec> counts = new ArrayList<>();
            boolean[] carried = new boolean[specs.size()];
            for (int a = 0; a < carried.length; a++) {
                carried[a] = argumentOf[a] == i;
                if (carried[a]) {
                    counts.add(finals.get(a));
                }
            }
            StateKey<AggregateResult> counted = compiler.newKey("aggregate", AggregateResult.class);
            Pipeline count = compiler.source(new HashAggregateSource(pairs.get(i)))
                    .dependsOn(pass, pairsThrough.get(i), input)
                    .into(new HashAggregateSink(outer, counts, counted, AggregateStep.PARTIAL));
            PipelineBuilder branch = compiler.source(new PartialStatesSource(counted, keyCount, finals, carried))
                    .dependsOn(count, perKeys, input);
            states = states == null ? branch : states.union(branch);
        }
        StateKey<AggregateResult> result = compiler.newKey("aggregate", AggregateResult.class);
        Pipeline combine = states.into(new HashAggregateSink(outer, finals, result, AggregateStep.FINAL));
        return compiler.source(new HashAggregateSource(result)).dependsOn(combine, perKeys, input);
    }
}
