/**
 * Troupe nodes in a Pekko cluster: membership, failure detection, the discovery of each node's
 * data-plane endpoint, clients that submit queries to nodes, and queries spread over
 * every node with a data plane, on one host or several: the node that takes a client's query coordinates
 * it, each node running its part
 * on its {@link io.troupe.actors.api.Troupe} ({@link io.troupe.actors.cluster.QueryService} has the
 * protocol, {@link io.troupe.actors.cluster.SharedDriverNodeLinks} the streams between the nodes).
 * Tables partitioned across the nodes are checked to be held once by the query's nodes
 * ({@link io.troupe.actors.cluster.PartCoverage}), and cut again from their source for a query that
 * runs on another number of nodes than they were cut for ({@link io.troupe.actors.cluster.PartAlignment}):
 * after a node is lost, the survivors share its part.
 *
 * <h2>A node</h2>
 * {@link io.troupe.actors.cluster.TroupeNode} is a Troupe whose actor system is a cluster member
 * ({@link io.troupe.actors.cluster.ClusterConfig}: Artery TCP on {@code troupe.cluster.host} (loopback
 * unless configured) and {@code port}, the seed nodes, the phi-accrual failure detector, the split-brain
 * resolver, no Java serialization). One actor,
 * {@link io.troupe.actors.cluster.MembershipTracker} ({@code /system/troupe-membership}), registers the
 * node's {@link io.troupe.actors.cluster.DataPlaneEndpoint} with the Receptionist, subscribes to the
 * cluster's membership and reachability events and to the Receptionist's listing, and every second
 * publishes a {@link io.troupe.actors.cluster.NodeView} to the node and to its status file
 * ({@link io.troupe.actors.cluster.NodeStatusFile}, JSON). Pekko's cluster and Receptionist carry their
 * own messages, with their own serializers; the endpoint rides in the name of the registered actor.
 * A second actor, {@link io.troupe.actors.cluster.QueryService} ({@code /system/troupe-queries},
 * registered under its own key), runs clients' queries. Members have a role: {@code troupe-node} for
 * nodes, {@code troupe-client} for clients; the split-brain resolver decides by the nodes alone.
 *
 * <h2>A client</h2>
 * {@link io.troupe.actors.cluster.TroupeCluster#connect(String)} joins as a {@code troupe-client} member
 * (bounded: a seed where nothing answers is an error after the timeout), waits for a query service in the
 * Receptionist's listing, and sends each query to one node: a
 * {@link io.troupe.actors.cluster.QueryService.Submit} (the plan, the options, the client's
 * {@link io.troupe.actors.cluster.QueryRelay} for that query) serialized by Troupe's wire codec. The node
 * answers on the relay: Started (where the rows come: a session of a stream in the host's media driver,
 * and the columns), then Done with the row count, or Failed with the node's exception; the rows
 * themselves never ride in an actor message: they come as batches over {@code aeron:ipc}
 * ({@link io.troupe.transport.aeron.SharedDriverStreams}), with Aeron's back-pressure. Each side watches
 * the other: a lost node fails the client's query ({@link io.troupe.actors.cluster.ClusterQueryStream}),
 * a client gone (its relay stopped, its member removed, its subscription closed) stops the query on the
 * node. {@link io.troupe.actors.cluster.QueryService} has the protocol, ClusterQueryStream the reader's
 * states.
 *
 * <h2>Life cycle ({@link io.troupe.actors.cluster.NodeView.NodeState})</h2>
 * <pre>
 *   start ──> JOINING ──(the leader moves it Up)──> UP ──(close, SIGTERM)──> LEAVING ─> STOPPED
 *                                                    │
 *                     (unreachable for stable-after: the others' split-brain resolver downs it)
 *                                                    └──> REMOVED ──(its actor system ends)──> STOPPED
 * </pre>
 * <ul>
 *   <li>JOINING: the actor system runs and tries the seed nodes in order (a node whose own address
 *       comes first, or that has none, starts the cluster). Its Troupe runs queries already.</li>
 *   <li>UP: a member. Its endpoint is in every other node's listing soon after (the Receptionist is
 *       eventually consistent: it gossips through distributed data).</li>
 *   <li>LEAVING: {@code TroupeNode.close()} (the node command calls it from a JVM shutdown hook on
 *       SIGTERM or Ctrl-C) closes the Troupe, then runs Pekko's coordinated shutdown: leave, exit once
 *       the others have seen it, terminate the actor system; bounded by 30 s.</li>
 *   <li>REMOVED: the others stopped hearing it (a pause longer than
 *       {@code failure-detector.acceptable-heartbeat-pause}), marked it unreachable, and after
 *       {@code split-brain-resolver.stable-after} the side the strategy keeps downed it. A downed node
 *       terminates its own actor system; its {@code terminated()} future completes, and the node command
 *       then closes it and exits with status 1.</li>
 *   <li>STOPPED: the last view a node writes, once its actor system has terminated and its Troupe closed.
 *       A node killed with SIGKILL writes none: its file keeps its last view, which ages.</li>
 * </ul>
 * The others see a member go as events in their views: LEFT, EXITED, REMOVED for a node that leaves;
 * UNREACHABLE, DOWNED, REMOVED for one that dies. Measured on loopback: with a
 * 500 ms heartbeat, 1 s pause and 3 s stable-after, a killed node was unreachable after 2.2 s and removed
 * after 6.3 s.
 */
package io.troupe.actors.cluster;
