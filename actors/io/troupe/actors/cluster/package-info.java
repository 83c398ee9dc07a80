/**
 * Troupe nodes in a Pekko cluster: membership, failure detection and the discovery of each node's
 * data-plane endpoint (issue 10, point 2). Queries do not run across nodes yet: each node's
 * {@link io.troupe.actors.api.Troupe} runs its own queries as in one JVM.
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
 * ({@link io.troupe.actors.cluster.NodeStatusFile}, JSON). No message of Troupe's own crosses a JVM:
 * Pekko's cluster and Receptionist carry their own, with their own serializers, and the endpoint rides in
 * the name of the registered actor until Troupe's wire format lands.
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
 * UNREACHABLE, DOWNED, REMOVED for one that dies. Measured on loopback (shared/next-wave.md 0.4): with a
 * 500 ms heartbeat, 1 s pause and 3 s stable-after, a killed node was unreachable after 2.2 s and removed
 * after 6.3 s.
 */
package io.troupe.actors.cluster;
