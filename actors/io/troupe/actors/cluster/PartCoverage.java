package io.troupe.actors.cluster;

import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Whether the nodes of a spread query hold every part of each table it reads that is partitioned across
 * nodes, each part once: a part on no node of the query (its node is down, or on another host) would
 * leave its rows out of the result without a word. Each node says what it holds of the query's tables
 * ({@link #held}: {@code table:index:count}, nothing for a whole table); the coordinator checks them all
 * ({@link #check}) before it ends the client's stream, and its own against the node count first
 * ({@link #checkCount}). Stateless.
 */
final class PartCoverage {

    private PartCoverage() {
    }

    /** What this node holds of the tables {@code plan} reads: an entry per partitioned one. */
    static List<String> held(Catalog catalog, Plan plan) {
        List<String> held = new ArrayList<>();
        for (String name : plan.tablesRead()) {
            if (catalog.contains(name)) {
                Table.Part part = catalog.table(name).part();
                if (part != null) {
                    held.add(name + ":" + part.index() + ":" + part.count());
                }
            }
        }
        return held;
    }

    /**
     * Fails when a table this node holds a part of is partitioned over another number of nodes than the
     * query runs on.
     */
    static void checkCount(long queryId, List<String> held, int nodes) {
        for (String entry : held) {
            String[] f = entry.split(":");
            int count = Integer.parseInt(f[2]);
            if (count != nodes) {
                throw new QueryFailedException("query " + queryId + ": table " + f[0] + " is partitioned over " + count
                        + " nodes, but the query runs on " + nodes + " (a node is down, or on another host)");
            }
        }
    }

    /**
     * Fails naming the table when the parts the nodes hold ({@code heldByNode}: node id to {@link #held})
     * do not cover it once: a part missing or twice, counts that differ, or a node holding it whole.
     */
    static void check(long queryId, Map<String, List<String>> heldByNode) {
        Map<String, Map<String, int[]>> byTable = new TreeMap<>();
        for (Map.Entry<String, List<String>> node : heldByNode.entrySet()) {
            for (String entry : node.getValue()) {
                String[] f = entry.split(":");
                byTable.computeIfAbsent(f[0], t -> new TreeMap<>()).put(node.getKey(),
                        new int[] {Integer.parseInt(f[1]), Integer.parseInt(f[2])});
            }
        }
        for (Map.Entry<String, Map<String, int[]>> table : byTable.entrySet()) {
            Map<String, int[]> parts = table.getValue();
            TreeSet<Integer> indexes = new TreeSet<>();
            for (int[] part : parts.values()) {
                indexes.add(part[0]);
            }
            int count = parts.values().iterator().next()[1];
            boolean sameCount = parts.values().stream().allMatch(p -> p[1] == count);
            if (parts.size() != heldByNode.size() || !sameCount || indexes.size() != count
                    || parts.size() != count) {
                StringBuilder held = new StringBuilder();
                heldByNode.keySet().forEach(node -> held.append(held.length() == 0 ? "" : ", ").append(node)
                        .append(parts.containsKey(node) ? " part " + (parts.get(node)[0] + 1) + " of "
                                + parts.get(node)[1] : " all of it"));
                throw new QueryFailedException("query " + queryId + ": the nodes of the query do not hold table "
                        + table.getKey() + " once: " + held);
            }
        }
    }
}
