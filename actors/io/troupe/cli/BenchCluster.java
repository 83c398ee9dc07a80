package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One value of {@code bench --nodes}: {@code NxW}, a local cluster of N node JVMs with W workers each
 * ({@link ClusterBenchEngine}). Immutable.
 *
 * @param nodes   node JVMs, 1..{@link ClusterCommand#MAX_NODES}
 * @param workers workers per query on each node, 1..{@link QueryOptions#MAX_WORKERS} (a node's part of a
 *                query runs on at least one worker)
 */
record BenchCluster(int nodes, int workers) {

    private static final Pattern SHAPE = Pattern.compile("([0-9]{1,9})[xX]([0-9]{1,9})");

    /**
     * {@code text} as NxW.
     *
     * @throws IllegalArgumentException a one-line message naming the value and what is wrong with it
     */
    static BenchCluster parse(String text) {
        Matcher m = SHAPE.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("--nodes takes NxW (N node JVMs with W workers each, e.g. 2x1), got '"
                    + text + "'");
        }
        int nodes = Integer.parseInt(m.group(1));
        int workers = Integer.parseInt(m.group(2));
        if (nodes < 1 || nodes > ClusterCommand.MAX_NODES) {
            throw new IllegalArgumentException("--nodes " + text + ": N (node JVMs) must be in 1.."
                    + ClusterCommand.MAX_NODES + ", got " + nodes);
        }
        if (workers < 1 || workers > QueryOptions.MAX_WORKERS) {
            throw new IllegalArgumentException("--nodes " + text + ": W (workers per node) must be in 1.."
                    + QueryOptions.MAX_WORKERS + ", got " + workers);
        }
        return new BenchCluster(nodes, workers);
    }

    /** Threads that run a query's parts, all nodes together: what a peer's thread count compares with. */
    int threads() {
        return nodes * workers;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%dx%d", nodes, workers);
    }
}
