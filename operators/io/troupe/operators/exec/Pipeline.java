package io.troupe.operators.exec;

import java.util.List;

/**
 * A unit of execution: one or more branches, each a {@link Source} followed by streaming
 * {@link Operator}s, all ending in one {@link Sink}. A pipeline has several branches only below a
 * UNION ALL: each branch feeds the operators above the union and the shared sink. A pipeline
 * starts only when every pipeline in {@code dependencies} has finalized its sink.
 *
 * <p>Immutable. Operators appended above a union appear in every branch as the same object; the
 * executor opens each operator once per execution, so such an operator's state (a limit's
 * counter) is shared by the branches.
 */
public record Pipeline(int id, List<Branch> branches, Sink sink, List<Pipeline> dependencies) {

    public Pipeline {
        branches = List.copyOf(branches);
        dependencies = List.copyOf(dependencies);
    }

    /** A source and the operators its batches pass through, in order. */
    public record Branch(Source source, List<Operator> operators) {
        public Branch {
            operators = List.copyOf(operators);
        }
    }
}
