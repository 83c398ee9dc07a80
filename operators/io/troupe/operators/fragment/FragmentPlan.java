package io.troupe.operators.fragment;

import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.PipelineRun;
import io.troupe.operators.sort.SortedStreams;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A compiled query cut into fragments at its exchanges ({@link #cut}), as data: which fragment runs
 * which pipelines, and which exchange carries batches from which fragment to which. The package
 * comment says where exchanges go and why.
 *
 * <p>Immutable; data only (records of ints, {@link ExchangeKind}s and enums), so that the same
 * fragments can be shipped to other JVMs.
 */
public record FragmentPlan(List<Fragment> fragments, List<ExchangeSpec> exchanges) {

    public FragmentPlan {
        fragments = List.copyOf(fragments);
        exchanges = List.copyOf(exchanges);
        check(fragments, exchanges);
    }

    /** How the compiler declared each pipeline boundary. */
    @FunctionalInterface
    public interface Reads {
        /** The exchange through which {@code consumer} reads what {@code producer}'s sink made; null if none. */
        ExchangeKind through(Pipeline producer, Pipeline consumer);
    }

    /**
     * Cuts {@code pipelines} at every dependency: pipeline {@code d} that pipeline {@code p} depends
     * on feeds it through an exchange of the kind the compiler declared ({@code reads}), from d's
     * fragment to p's. The last pipeline in dependency order makes the result:
     * when it reads a sort's output alone ({@link SortedStreams#of}) the sort's Gather Merge moves
     * batches over channels and its fragment is the root (it runs after the merge); otherwise a
     * Gather over channels carries its output to a root fragment that runs no pipeline. Every other
     * exchange is elided: in one JVM the consumer reads the producer's shared state.
     *
     * @throws IllegalStateException when a pipeline boundary has no exchange declared
     */
    public static FragmentPlan cut(List<Pipeline> pipelines, Reads reads) {
        List<Pipeline> ordered = PipelineRun.inDependencyOrder(pipelines);
        if (ordered.isEmpty()) {
            throw new IllegalArgumentException("no pipeline to cut into fragments");
        }
        Pipeline last = ordered.get(ordered.size() - 1);
        boolean merged = SortedStreams.of(last).isPresent();
        Map<Integer, Integer> fragmentOf = new LinkedHashMap<>();
        for (Pipeline p : ordered) {
            fragmentOf.put(p.id(), fragmentOf.size());
        }
        List<ExchangeSpec> exchanges = new ArrayList<>();
        for (Pipeline p : ordered) {
            Set<Integer> seen = new HashSet<>();
            for (Pipeline d : p.dependencies()) {
                if (!seen.add(d.id())) {
                    continue; // a union reading one shared subplan twice: one exchange
                }
                ExchangeKind kind = reads.through(d, p);
                if (kind == null) {
                    throw new IllegalStateException("pipeline " + p.id() + " reads pipeline " + d.id()
                            + " (into " + d.sink().role() + ") through no exchange");
                }
                boolean top = merged && p == last && kind instanceof ExchangeKind.GatherMerge;
                exchanges.add(new ExchangeSpec(exchanges.size(), kind, fragmentOf.get(d.id()), fragmentOf.get(p.id()),
                        d.id(), p.id(), top ? ExchangeSpec.Mode.CHANNELS : ExchangeSpec.Mode.ELIDED));
            }
        }
        int fragmentCount = ordered.size();
        if (!merged) {
            exchanges.add(new ExchangeSpec(exchanges.size(), new ExchangeKind.Gather(), fragmentOf.get(last.id()),
                    fragmentCount,
                    last.id(), ExchangeSpec.RESULT, ExchangeSpec.Mode.CHANNELS));
            fragmentCount++;
        }
        List<Fragment> fragments = new ArrayList<>();
        for (int f = 0; f < fragmentCount; f++) {
            List<Integer> ids = f < ordered.size() ? List.of(ordered.get(f).id()) : List.of();
            List<Integer> inputs = new ArrayList<>();
            List<Integer> feeds = new ArrayList<>();
            for (ExchangeSpec e : exchanges) {
                if (e.consumer() == f) {
                    inputs.add(e.id());
                }
                if (e.producer() == f) {
                    feeds.add(e.id());
                }
            }
            fragments.add(new Fragment(f, ids, inputs, feeds));
        }
        return new FragmentPlan(fragments, exchanges);
    }

    private static void check(List<Fragment> fragments, List<ExchangeSpec> exchanges) {
        int roots = 0;
        for (int f = 0; f < fragments.size(); f++) {
            Fragment fragment = fragments.get(f);
            if (fragment.id() != f) {
                throw new IllegalArgumentException("fragment " + fragment.id() + " listed at position " + f);
            }
            roots += fragment.root() ? 1 : 0;
        }
        if (roots != 1) {
            throw new IllegalArgumentException(roots + " root fragments (that feed no exchange); a query has one");
        }
        for (int x = 0; x < exchanges.size(); x++) {
            ExchangeSpec e = exchanges.get(x);
            if (e.id() != x || e.producer() < 0 || e.producer() >= fragments.size() || e.consumer() < 0
                    || e.consumer() >= fragments.size()) {
                throw new IllegalArgumentException(e + " at position " + x + " of " + fragments.size() + " fragments");
            }
            if (!fragments.get(e.producer()).outputs().contains(e.id())
                    || !fragments.get(e.consumer()).inputs().contains(e.id())) {
                throw new IllegalArgumentException(e + " is not among its producer's outputs and its consumer's"
                        + " inputs");
            }
        }
    }

    /** Exchange {@code id}. */
    public ExchangeSpec exchange(int id) {
        return exchanges.get(id);
    }

    /** Fragment {@code id}. */
    public Fragment fragment(int id) {
        return fragments.get(id);
    }

    /** The fragment that makes the result. */
    public Fragment root() {
        return fragments.stream().filter(Fragment::root).findFirst().orElseThrow();
    }

    /** The exchanges that move batches over channels, in id order. */
    public List<ExchangeSpec> overChannels() {
        return exchanges.stream().filter(e -> e.mode() == ExchangeSpec.Mode.CHANNELS).toList();
    }

    /** The same fragments run by the leader alone (0 workers): every exchange elided. */
    public FragmentPlan leaderAlone() {
        return new FragmentPlan(fragments, exchanges.stream().map(e -> e.withMode(ExchangeSpec.Mode.ELIDED)).toList());
    }

    /** One fragment a line, with what it reads and feeds: {@code fragment 1: pipelines [1], reads 0, feeds 1}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Fragment f : fragments) {
            sb.append("fragment ").append(f.id()).append(f.root() ? " (root)" : "").append(": pipelines ")
                    .append(f.pipelines());
            for (int in : f.inputs()) {
                sb.append(", reads ").append(exchange(in));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
