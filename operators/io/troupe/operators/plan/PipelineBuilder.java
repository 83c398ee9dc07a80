package io.troupe.operators.plan;

import io.troupe.operators.exec.Operator;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.Source;
import io.troupe.operators.fragment.ExchangeKind;

import java.util.ArrayList;
import java.util.List;

/**
 * A pipeline under construction: the branches that feed it (one, or several below a UNION ALL)
 * and the pipelines it must wait for, each read through the exchange it names. Each plan node
 * compiles by extending the builder of its child ({@link #then}) or by ending it in a sink
 * ({@link #into}) and starting a new one.
 *
 * <p>Not threadsafe; used only while compiling.
 */
public final class PipelineBuilder {

    private final PlanCompiler compiler;
    private final List<Source> sources = new ArrayList<>();
    private final List<List<Operator>> operators = new ArrayList<>();
    private final List<PlanCompiler.Read> reads = new ArrayList<>();

    PipelineBuilder(PlanCompiler compiler, Source source) {
        this.compiler = compiler;
        sources.add(source);
        operators.add(new ArrayList<>());
    }

    /** Appends a streaming operator to every branch. */
    public PipelineBuilder then(Operator operator) {
        compiler.recordOrigin(operator);
        for (List<Operator> ops : operators) {
            ops.add(operator);
        }
        return this;
    }

    /**
     * Adds a branch that reads {@code source}: every participant drives it after the branches added
     * before it, and the operators appended from now on are appended to it too (a hash join's spilled
     * partitions, joined after its probe and fed to the operators above the join).
     */
    public PipelineBuilder branch(Source source) {
        compiler.recordOrigin(source);
        sources.add(source);
        operators.add(new ArrayList<>());
        return this;
    }

    /**
     * This pipeline may start only after {@code pipeline} finished, and reads what that pipeline's
     * sink made through an exchange of kind {@code through} (see {@code io.troupe.operators.fragment}),
     * which EXPLAIN draws above the plan node {@code above} when it moves batches.
     */
    public PipelineBuilder dependsOn(Pipeline pipeline, ExchangeKind through, Plan above) {
        reads.add(new PlanCompiler.Read(pipeline, through, above));
        return this;
    }

    /** Adds {@code other}'s branches and dependencies to this builder (UNION ALL). */
    public PipelineBuilder union(PipelineBuilder other) {
        sources.addAll(other.sources);
        operators.addAll(other.operators);
        reads.addAll(other.reads);
        return this;
    }

    /** Ends this pipeline in {@code sink}; the result is registered with the compiler. */
    public Pipeline into(Sink sink) {
        compiler.recordOrigin(sink);
        List<Pipeline.Branch> branches = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            branches.add(new Pipeline.Branch(sources.get(i), operators.get(i)));
        }
        return compiler.register(branches, sink, reads);
    }
}
