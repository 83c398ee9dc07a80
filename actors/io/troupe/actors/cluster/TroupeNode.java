package io.troupe.actors.cluster;

import com.typesafe.config.Config;
import io.troupe.actors.api.Troupe;
import io.troupe.config.ClusterSettings;
import io.troupe.config.TroupeSettings;
import io.troupe.transport.aeron.SharedDriverStreams;
import io.troupe.transport.aeron.StandaloneDriver;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A Troupe node: a {@link Troupe} whose actor system is a member of a Pekko cluster (Artery TCP, the
 * seed nodes, failure detector and split-brain resolver of {@code troupe.cluster.*}), which publishes
 * its {@link DataPlaneEndpoint} through the Receptionist, tracks the members and the endpoints of the
 * others ({@link MembershipTracker}) and writes its {@link NodeView} to its status file every second.
 * The package documentation has its life cycle.
 *
 * <p>Threadsafe: {@link #view()} and {@link #terminated()} from any thread; {@link #close()} is
 * idempotent and may race with the cluster downing the node.
 */
public final class TroupeNode implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TroupeNode.class);

    /** How often the node takes its view and rewrites its status file. */
    public static final Duration STATUS_INTERVAL = Duration.ofSeconds(1);
    /** How long a node waits for the host's media driver to answer before it refuses to start. */
    static final Duration DRIVER_WAIT = Duration.ofSeconds(10);
    /**
     * Bounds leaving the cluster and stopping the actor system: Pekko's exiting phase waits up to 10 s
     * for the others to see the node go; past this, close gives up waiting (the JVM may then exit).
     */
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final ClusterSettings settings;
    private final ActorSystem<Void> system;
    private final Troupe troupe;
    private final Path statusFile;
    private final AtomicReference<NodeView> view;
    /** The node's client of the host's media driver, for the rows of clients' queries; null without one. */
    private final SharedDriverStreams streams;
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();
    private final Object closeLock = new Object();
    /** Guarded by closeLock. */
    private boolean closed;

    private TroupeNode(ClusterSettings settings, ActorSystem<Void> system, Troupe troupe, Path statusFile,
                       AtomicReference<NodeView> view, SharedDriverStreams streams) {
        this.settings = settings;
        this.streams = streams;
        this.system = system;
        this.troupe = troupe;
        this.statusFile = statusFile;
        this.view = view;
    }

    /**
     * Starts a node: checks that the host's media driver runs (when {@code troupe.cluster.media-driver-dir}
     * names one), starts the cluster member's actor system and joins the seed nodes (in the background:
     * {@link #view()} says when it is Up), starts its Troupe in that system, and begins to publish its
     * endpoint and write {@code statusFile}.
     *
     * @param config     the configuration (Pekko's settings come from {@code cluster} over it)
     * @param statusFile where the node writes its view every {@link #STATUS_INTERVAL}
     * @throws IllegalStateException when no driver runs in the media-driver directory, or the actor system
     *                               cannot start (its port taken)
     */
    public static TroupeNode start(TroupeSettings troupeSettings, ClusterSettings cluster, Config config,
                                   Path statusFile) throws InterruptedException {
        return start(troupeSettings, cluster, config, statusFile, TableParts.NONE);
    }

    /**
     * Starts a node as {@link #start(TroupeSettings, ClusterSettings, Config, Path)} does, whose partitioned
     * tables can be re-read from {@code tableParts} and cut again for the nodes of a query.
     */
    public static TroupeNode start(TroupeSettings troupeSettings, ClusterSettings cluster, Config config,
                                   Path statusFile, TableParts tableParts) throws InterruptedException {
        LoggerFactory.getLogger(TroupeNode.class);
        if (!cluster.mediaDriverDir().isEmpty()
                && !StandaloneDriver.awaitActive(Path.of(cluster.mediaDriverDir()), DRIVER_WAIT)) {
            throw new IllegalStateException("no Aeron media driver runs in " + cluster.mediaDriverDir()
                    + " (troupe.cluster.media-driver-dir) after " + DRIVER_WAIT.toSeconds() + " s");
        }
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), cluster.name(),
                ClusterConfig.of(cluster, config, ClusterConfig.NODE_ROLE));
        Troupe troupe = null;
        SharedDriverStreams streams = null;
        try {
            troupe = Troupe.start(troupeSettings, system);
            streams = cluster.mediaDriverDir().isEmpty() ? null : SharedDriverStreams.connect(
                    Path.of(cluster.mediaDriverDir()), cluster.dataPlane(troupeSettings.transport()), DRIVER_WAIT);
            Address address = Cluster.get(system).selfMember().address();
            String nodeId = MembershipTracker.address(address);
            DataPlaneEndpoint endpoint = new DataPlaneEndpoint(nodeId, cluster.host(), cluster.mediaDriverDir(),
                    cluster.dataPort(address.getPort().orElseThrow()));
            DataPlane dataPlane = streams == null ? null : new DataPlane(streams, endpoint, cluster.dataMtu());
            AtomicReference<NodeView> view = new AtomicReference<>();
            TroupeNode node = new TroupeNode(cluster, system, troupe, statusFile, view, streams);
            Troupe started = troupe;
            system.systemActorOf(MembershipTracker.create(endpoint, statusFile, STATUS_INTERVAL, view::set,
                    () -> started.status().runningQueries()), "troupe-membership", DispatcherSelector.blocking());
            system.systemActorOf(QueryService.create(troupe, tableParts, nodeId, dataPlane, view::get), "troupe-queries",
                    Props.empty());
            system.getWhenTerminated().whenComplete((done, error) -> node.terminated.complete(null));
            LOG.info("[{}] node started: cluster {}, seed nodes {}, data plane {}", nodeId, cluster.name(),
                    cluster.seedNodes(), endpoint);
            return node;
        } catch (RuntimeException | Error e) {
            if (troupe != null) {
                troupe.close();
            }
            if (streams != null) {
                streams.close();
            }
            system.terminate();
            throw e;
        }
    }

    /** The node's cluster address, {@code host:port} (the port it bound when the setting was 0). */
    public String nodeId() {
        return MembershipTracker.address(Cluster.get(system).selfMember().address());
    }

    /** The node's Troupe: queries run here as in one JVM. */
    public Troupe troupe() {
        return troupe;
    }

    public ClusterSettings settings() {
        return settings;
    }

    /** The node's last view; empty until its first is taken (within a {@link #STATUS_INTERVAL}). */
    public Optional<NodeView> view() {
        return Optional.ofNullable(view.get());
    }

    /**
     * Completes when the node's actor system has terminated: after {@link #close()}, or when the cluster
     * removed the node (the split-brain resolver downed it), which ends the node too.
     */
    public CompletableFuture<Void> terminated() {
        return terminated;
    }

    /**
     * Leaves the cluster and stops: closes the Troupe (its queries end), runs Pekko's coordinated
     * shutdown (leave, exit, then terminate the actor system), bounded by {@link #STOP_TIMEOUT}, and
     * writes the last view with state {@link NodeView.NodeState#STOPPED}. Idempotent.
     */
    @Override
    public void close() {
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        String nodeId = nodeId();
        LOG.info("[{}] leaving the cluster", nodeId);
        troupe.close();
        CoordinatedShutdown.get(system).run(CoordinatedShutdown.clusterLeavingReason());
        try {
            terminated.get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("[{}] the actor system did not stop within {} s", nodeId, STOP_TIMEOUT.toSeconds());
        }
        if (streams != null) {
            streams.close();
        }
        NodeView last = view.get();
        if (last != null) {
            NodeView stopped = last.withState(NodeView.NodeState.STOPPED);
            view.set(stopped);
            try {
                NodeStatusFile.write(statusFile, stopped);
            } catch (RuntimeException e) {
                LOG.warn("[{}] {}", nodeId, e.getMessage());
            }
        }
        LOG.info("[{}] node stopped", nodeId);
    }
}
