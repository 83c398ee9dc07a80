package io.troupe.operators.fragment;

import java.util.List;

/**
 * One fragment of a query: the pipelines that run between exchanges, with the exchanges that feed
 * it and those it feeds, by id ({@link FragmentPlan#exchange}). Every pipeline boundary of a
 * compiled query is an exchange (a breaker's sink is where rows change hands between workers, see
 * {@link FragmentPlan}), so a fragment holds one pipeline, except the root fragment: the one that
 * feeds no exchange and makes the query's result. Under a Gather the root holds none (the Gather
 * delivers straight into the result); under a Gather Merge it holds the pipeline that reads the
 * merged sort, whose operators run after the merge.
 *
 * <p>Data only: an immutable record of ints.
 *
 * @param id        the fragment's number in its query, from 0, producers before consumers
 * @param pipelines the ids of its pipelines, in the order they run
 * @param inputs    the ids of the exchanges it reads
 * @param outputs   the ids of the exchanges it feeds; empty for the root
 */
public record Fragment(int id, List<Integer> pipelines, List<Integer> inputs, List<Integer> outputs) {

    public Fragment {
        pipelines = List.copyOf(pipelines);
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
    }

    /** Whether this is the root: it feeds no exchange, and makes the query's result. */
    public boolean root() {
        return outputs.isEmpty();
    }
}
