package io.troupe.actors.cluster;

import io.troupe.transport.aeron.SharedDriverStreams;

import java.util.List;

/**
 * A node's data plane: its client of the host's media driver ({@code streams}), where the other nodes
 * reach it ({@code self}), and the frame size of what it sends to other hosts. It opens the streams of
 * each spread query the node takes part in ({@link #links}).
 *
 * @param streams this node's client of its host's driver
 * @param self    this node's endpoint, as the others see it through the Receptionist
 * @param udpMtu  the largest Aeron frame of the streams it sends to other hosts ({@code troupe.cluster.data-mtu})
 */
record DataPlane(SharedDriverStreams streams, DataPlaneEndpoint self, int udpMtu) {

    /**
     * The streams of spread query {@code tag} for this node, node {@code node} of {@code nodes}.
     *
     * @param workers workers per node of every pipeline (the most any pipeline runs)
     */
    SharedDriverNodeLinks links(int tag, int node, List<DataPlaneEndpoint> nodes, int workers) {
        return new SharedDriverNodeLinks(streams, tag, node, nodes, workers, udpMtu,
                QueryService.STREAM_CONNECT_TIMEOUT);
    }
}
