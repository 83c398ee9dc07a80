package io.troupe.operators.plan;

import io.troupe.operators.exec.Operator;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.Source;

import java.util.ArrayList;
import java.util.List;

/**
 * A pipeline under construction: the branches that feed it (one, or several below a UNION ALL)
 * and the pipelines it must wait for. Each plan node compiles by extending the builder of its
 * child ({@link #then}) or by ending it in a sink ({@link #into}) and starting a new one.
 *
 * <p>Not threadsafe; used only while compiling.
 */
public final class PipelineBuilder {

    private final PlanCompiler compiler;
    private final List<Source> sources = new ArrayList<>();
    private final List<List<Operator>> operators = new ArrayList<>();
    private final List<Pipeline> dependencies = new ArrayList<>();

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

    /** This pipeline may start only after {@code pipeline} finished. */
    public PipelineBuilder dependsOn(Pipeline pipeline) {
        dependencies.add(pipeline);
        return this;
    }

    /** Adds {@code other}'s branches and dependencies to this builder (UNION ALL). */
    public PipelineBuilder union(PipelineBuilder other) {
        sources.addAll(other.sources);
        operators.addAll(other.operators);
        dependencies.addAll(other.dependencies);
        return this;
    }

    /** Ends this pipeline in {@code sink}; the result is registered with the compiler. */
    public Pipeline into(Sink sink) {
        compiler.recordOrigin(sink);
        List<Pipeline.Branch> branches = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            branches.add(new Pipeline.Branch(sources.get(i), operators.get(i)));
        }
        return compiler.register(branches, sink, dependencies);
    }
}
