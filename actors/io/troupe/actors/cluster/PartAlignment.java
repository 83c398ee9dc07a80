package io.troupe.actors.cluster;

import io.troupe.actors.api.Troupe;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Keeps a node's parts of partitioned tables cut for the nodes a query runs on. A table cut into N parts
 * answers only a query over those N nodes; after a node is lost (or one joins) the next query runs on
 * M nodes, and each of them, before it runs its part, re-reads every table of the query whose part
 * count is not M from its source ({@link TableParts}) and keeps part i of M, i being its place among the
 * query's node ids in sorted order. Every node of a query gets the same list (the coordinator's, in
 * {@link QueryService.RunPart}), so their new parts cover the table once; {@link PartCoverage} then
 * checks that they do, so a node that cut otherwise (or had no source) fails the query, never its rows.
 *
 * <p>Only the count decides: a node whose count already matches keeps its part, even where its place
 * in the sorted list moved, since the parts were cut for a set of that size and the coverage check
 * finds any clash. A source that cannot be read fails the query naming the table and the node.
 *
 * <p>Threadsafe: {@link #align} is serialised per node, so two queries never re-read the same table at
 * once; a query already running keeps the table it compiled against.
 */
final class PartAlignment {

    private static final Logger LOG = LoggerFactory.getLogger(PartAlignment.class);

    private final Troupe troupe;
    private final TableParts parts;
    private final String nodeId;

    PartAlignment(Troupe troupe, TableParts parts, String nodeId) {
        this.troupe = troupe;
        this.parts = parts;
        this.nodeId = nodeId;
    }

    /**
     * Cuts this node's parts of the tables {@code plan} reads again where they were cut for another number
     * of nodes than {@code nodeIds} (the query's, this node among them).
     *
     * @throws QueryFailedException naming the table when its source cannot be read
     */
    synchronized void align(Plan plan, List<String> nodeIds) {
        int count = nodeIds.size();
        List<String> sorted = new ArrayList<>(nodeIds);
        sorted.sort(null);
        int index = sorted.indexOf(nodeId);
        if (index < 0) {
            throw new IllegalArgumentException("node " + nodeId + " is not among the query's nodes " + nodeIds);
        }
        for (String name : plan.tablesRead()) {
            if (!troupe.catalog().contains(name)) {
                continue;
            }
            Table.Part part = troupe.catalog().table(name).part();
            if (part == null || part.count() == count) {
                continue;
            }
            Optional<Table> cut;
            try {
                cut = parts.cut(name, index, count);
            } catch (RuntimeException e) {
                throw new QueryFailedException("node " + nodeId + " holds part "
                        + (part.index() + 1) + " of " + part.count() + " of table " + name + ", the query runs on "
                        + count + " nodes, and its source cannot be read again: " + e.getMessage(), e);
            }
            if (cut.isPresent()) {
                troupe.register(cut.get());
                LOG.info("[{}] table {}: part {} of {} re-read from its source for a query on {} nodes (was part {}"
                        + " of {})", nodeId, name, index + 1, count, count, part.index() + 1, part.count());
            }
        }
    }
}
