package io.troupe.actors.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.troupe.actors.api.QueryOptions;
import io.troupe.config.ClusterSettings;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.profile.SpreadProfile;
import io.troupe.transport.aeron.SharedDriverStreams;
import io.troupe.transport.aeron.StandaloneDriver;
import org.apache.pekko.Done;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.event.Logging;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import static io.troupe.operators.Arguments.notNull;

/**
 * A client of a Troupe cluster: submits plans to its nodes, each of which runs the query it is given on
 * its own Troupe and streams the rows back (the node coordinates the query; queries across nodes come
 * with fragments).
 *
 * <pre>{@code
 * try (TroupeCluster cluster = TroupeCluster.connect("127.0.0.1:17355")) {
 *     QueryResult r = cluster.query(Plan.scan("orders").filter(col("amount").gt(lit(100))));
 * }
 * }</pre>
 *
 * <h2>How it connects</h2>
 * The client is a member of the Pekko cluster with the role {@code troupe-client} (a node's is
 * {@code troupe-node}): it holds no data and runs nothing, and the nodes' split-brain resolver counts
 * only nodes. Pekko's sanctioned ways in from outside are a member, or the Cluster Client, which its
 * documentation deprecates in favour of gRPC; a member gets the Receptionist (the nodes'
 * {@link QueryService}s), death watch of the node that runs a query (a lost node fails the query within
 * the failure detector's bound, not by a timeout), and Troupe's wire serializer for every message, as
 * the nodes do. The cost: a client joins and leaves like a node (a second or so each way), so it is made
 * once and shared by the application's threads. It binds Artery TCP on {@code troupe.cluster.host}, on
 * any free port.
 *
 * <p>Rows cross through the host's standalone media driver, which the node names when it starts a query
 * ({@link ClusterQueryStream}): the client must run on the same host as the node it queries (that node
 * spreads the query over nodes on other hosts, whose rows reach it over Aeron UDP).
 *
 * <p>Which node: {@link #query(Plan, QueryOptions)} and {@link #stream(Plan, QueryOptions)} take the
 * nodes whose media driver this client sees in turn (round robin over those of {@link #nodes()} on its
 * host); {@link #stream(Plan, QueryOptions, String)} names one.
 *
 * <p>Threadsafe: queries from any number of threads. {@link #close()} closes the streams still open
 * (cancelling their queries on the nodes), leaves the cluster and stops the client's actor system,
 * bounded by {@link #STOP_TIMEOUT}.
 */
public final class TroupeCluster implements AutoCloseable {

    /** How long {@link #connect(String)} waits to join and to find a node that takes queries. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final long POLL_MS = 50;

    private final ActorSystem<Void> system;
    private final ClusterSettings settings;
    private final TroupeSettings.Transport transport;
    private final Duration timeout;
    private final AtomicReference<List<ActorRef<QueryService.Command>>> services = new AtomicReference<>(List.of());
    /** Every node's data-plane endpoint, by node id, as the Receptionist lists them. */
    private final AtomicReference<Map<String, DataPlaneEndpoint>> endpoints = new AtomicReference<>(Map.of());
    /** By driver directory, whether this client saw a driver run there. */
    private final Map<String, Boolean> seenDrivers = new ConcurrentHashMap<>();
    private final AtomicInteger nextNode = new AtomicInteger();
    /** Unique among this client's queries, and random enough that two clients' ids rarely meet in a node's log. */
    private final AtomicLong nextQueryId = new AtomicLong(ThreadLocalRandom.current().nextInt(1 << 20) * 1000L);
    private final Map<Path, SharedDriverStreams> drivers = new ConcurrentHashMap<>();
    private final Set<ClusterQueryStream> open = ConcurrentHashMap.newKeySet();
    private final Object closeLock = new Object();
    /** Guarded by closeLock. */
    private boolean closed;

    private TroupeCluster(ActorSystem<Void> system, ClusterSettings settings, TroupeSettings.Transport transport,
                          Duration timeout) {
        this.system = system;
        this.settings = settings;
        this.transport = transport;
        this.timeout = timeout;
    }

    /**
     * Connects through the node at {@code seed} ({@code host:port}), with the settings of
     * reference.conf, application.conf and {@code -Dtroupe.*} (the cluster's name among them).
     *
     * @throws IllegalStateException when it cannot join within {@link #CONNECT_TIMEOUT}, or no node takes queries
     */
    public static TroupeCluster connect(String seed) throws InterruptedException {
        notNull(seed, "TroupeCluster.connect", "seed");
        ClusterSettings.SeedNode.parse(seed);
        Config config = ConfigFactory.parseMap(Map.of("troupe.cluster.seed-nodes", List.of(seed)))
                .withFallback(ConfigFactory.load());
        return connect(config, CONNECT_TIMEOUT);
    }

    /**
     * Connects with the settings of {@code config}: {@code troupe.cluster.seed-nodes} (at least one),
     * {@code name}, {@code host} and the failure detector's; {@code troupe.transport.*} for the streams.
     * Waits at most {@code timeout} to join, then as long again for a node that takes queries.
     *
     * @throws IllegalArgumentException when a setting is bad or no seed node is given
     * @throws IllegalStateException    naming the seed nodes when the client cannot join within
     *                                  {@code timeout} (no node there, or a cluster of another name), or
     *                                  when no node offers queries within it
     */
    public static TroupeCluster connect(Config config, Duration timeout) throws InterruptedException {
        notNull(config, "TroupeCluster.connect", "config");
        notNull(timeout, "TroupeCluster.connect", "timeout");
        ClusterSettings given = ClusterSettings.from(config);
        if (given.seedNodes().isEmpty()) {
            throw new IllegalArgumentException("a Troupe client needs a node to join through:"
                    + " troupe.cluster.seed-nodes is empty");
        }
        ClusterSettings cluster = new ClusterSettings(given.name(), given.host(), 0, given.seedNodes(),
                given.heartbeatInterval(), given.acceptablePause(), given.downing(), given.stableAfter(), "",
                given.tableChunkRows(), given.dataPort(), given.dataMtu(), given.dataTermLength());
        TroupeSettings.Transport transport = TroupeSettings.from(config).transport();
        // Initialise SLF4J before Pekko logs, or SLF4J prints a "replay" warning.
        LoggerFactory.getLogger(TroupeCluster.class);
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), cluster.name(),
                ClusterConfig.of(cluster, config, ClusterConfig.CLIENT_ROLE));
        TroupeCluster client = new TroupeCluster(system, cluster, transport, timeout);
        try {
            client.join();
            system.systemActorOf(client.listing(), "troupe-query-services", Props.empty());
            client.awaitServices();
            return client;
        } catch (InterruptedException | RuntimeException e) {
            client.close();
            throw e;
        }
    }

    private void join() throws InterruptedException {
        Cluster cluster = Cluster.get(system);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            MemberStatus status = cluster.selfMember().status();
            if (status.equals(MemberStatus.up()) || status.equals(MemberStatus.weaklyUp())) {
                return;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("could not join Troupe cluster '" + settings.name() + "' through "
                        + settings.seedNodes() + " within " + timeout.toSeconds() + " s: no node answers there"
                        + " (start one: bin/troupe node or bin/troupe cluster start), or the cluster has another name"
                        + " (troupe.cluster.name)");
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MS);
        }
    }

    /**
     * An actor that keeps {@link #services} as the Receptionist lists them, sorted by node, and
     * {@link #endpoints}, where each node's rows come from.
     */
    private Behavior<Receptionist.Listing> listing() {
        return Behaviors.setup(context -> {
            context.getSystem().receptionist().tell(Receptionist.subscribe(QueryService.KEY, context.getSelf()));
            context.getSystem().receptionist().tell(Receptionist.subscribe(DataPlaneEndpoint.KEY, context.getSelf()));
            return Behaviors.receive(Receptionist.Listing.class).onMessage(Receptionist.Listing.class, listing -> {
                if (listing.isForKey(QueryService.KEY)) {
                    List<ActorRef<QueryService.Command>> found = new ArrayList<>(
                            listing.getServiceInstances(QueryService.KEY));
                    found.sort(Comparator.comparing(TroupeCluster::nodeOf));
                    services.set(List.copyOf(found));
                } else {
                    Map<String, DataPlaneEndpoint> found = new HashMap<>();
                    for (ActorRef<Void> ref : listing.getServiceInstances(DataPlaneEndpoint.KEY)) {
                        DataPlaneEndpoint.of(ref).ifPresent(endpoint -> found.put(endpoint.nodeId(), endpoint));
                    }
                    endpoints.set(Map.copyOf(found));
                }
                return Behaviors.same();
            }).build();
        });
    }

    private void awaitServices() throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (services.get().isEmpty()) {
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("joined Troupe cluster '" + settings.name() + "' through "
                        + settings.seedNodes() + ", but no node offered queries within " + timeout.toSeconds() + " s");
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MS);
        }
    }

    /** The nodes that take queries now ({@code host:port}, sorted), as the Receptionist lists them. */
    public List<String> nodes() {
        return services.get().stream().map(TroupeCluster::nodeOf).toList();
    }

    /** Runs {@code plan} on the next node with {@link QueryOptions#defaults()}, returning all its rows. */
    public QueryResult query(Plan plan) throws InterruptedException {
        return query(plan, QueryOptions.defaults());
    }

    /**
     * Runs {@code plan} on the next node, returning all its rows (for small results: it holds them all).
     *
     * @throws io.troupe.operators.exec.QueryFailedException naming the node when the plan fails there
     *         (refused, or failed while running), or the node is lost
     * @throws IllegalStateException when no node takes queries now, or the client is closed
     */
    public QueryResult query(Plan plan, QueryOptions options) throws InterruptedException {
        try (ClusterQueryStream stream = stream(plan, options)) {
            return stream.remaining();
        }
    }

    /**
     * EXPLAIN ANALYZE over the cluster: runs {@code plan} on node {@code nodeId} (spread over the nodes, as
     * {@link #stream} runs it), for real, counting rows, batches and time per plan node, per
     * node and per worker, and the batches, rows and bytes each node sent and received per exchange
     * between nodes; returns its rows with that profile, every node's part merged by the node that
     * coordinated it ({@link SpreadProfile#render()} prints it). A node that runs the query alone
     * profiles it as {@code Troupe.explainAnalyze} does, as a profile of one node.
     *
     * @throws io.troupe.operators.exec.QueryFailedException naming the node when the plan fails there
     * @throws IllegalArgumentException when no such node takes queries, naming those that do
     */
    public AnalyzedQuery explainAnalyze(Plan plan, QueryOptions options, String nodeId) throws InterruptedException {
        try (ClusterQueryStream stream = submit(service(nodeId), plan, options, true)) {
            QueryResult result = stream.remaining();
            return new AnalyzedQuery(result, stream.profile());
        }
    }

    /**
     * Starts {@code plan} on the next node (round robin) of those whose media driver this client sees (the
     * nodes of its host, which it can read rows from); on all of them while it knows no node's driver yet.
     * Its result to be pulled batch by batch.
     */
    public ClusterQueryStream stream(Plan plan, QueryOptions options) {
        List<ActorRef<QueryService.Command>> listed = reachable(services.get(), endpoints.get(), this::seesDriver);
        if (listed.isEmpty()) {
            throw new IllegalStateException("no node of Troupe cluster '" + settings.name() + "' takes queries now");
        }
        return submit(listed.get(Math.floorMod(nextNode.getAndIncrement(), listed.size())), plan, options, false);
    }

    /**
     * Of {@code services}, those whose node's driver directory (in {@code endpoints}) {@code seen} says this
     * client sees; all of them when that leaves none (endpoints not listed yet, or no driver seen).
     */
    static List<ActorRef<QueryService.Command>> reachable(List<ActorRef<QueryService.Command>> services,
                                                          Map<String, DataPlaneEndpoint> endpoints,
                                                          Predicate<String> seen) {
        List<ActorRef<QueryService.Command>> reachable = services.stream().filter(service -> {
            DataPlaneEndpoint endpoint = endpoints.get(nodeOf(service));
            return endpoint != null && !endpoint.aeronDirectory().isEmpty() && seen.test(endpoint.aeronDirectory());
        }).toList();
        return reachable.isEmpty() ? services : reachable;
    }

    /** Whether a media driver runs in {@code directory} as this client sees the file system; asked once each. */
    private boolean seesDriver(String directory) {
        return seenDrivers.computeIfAbsent(directory, dir -> StandaloneDriver.isActive(Path.of(dir)));
    }

    /**
     * Starts {@code plan} on node {@code nodeId} ({@code host:port}, one of {@link #nodes()}).
     *
     * @throws IllegalArgumentException when no such node takes queries, naming those that do
     */
    public ClusterQueryStream stream(Plan plan, QueryOptions options, String nodeId) {
        return submit(service(nodeId), plan, options, false);
    }

    /** The query service of node {@code nodeId}; throws when no such node takes queries, naming those that do. */
    private ActorRef<QueryService.Command> service(String nodeId) {
        notNull(nodeId, "TroupeCluster.stream", "nodeId");
        Optional<ActorRef<QueryService.Command>> service = services.get().stream()
                .filter(ref -> nodeOf(ref).equals(nodeId)).findFirst();
        return service.orElseThrow(() -> new IllegalArgumentException("no node " + nodeId
                + " takes queries in Troupe cluster '" + settings.name() + "'; these do: " + nodes()));
    }

    private ClusterQueryStream submit(ActorRef<QueryService.Command> service, Plan plan, QueryOptions options,
                                      boolean analyze) {
        notNull(plan, "TroupeCluster.stream", "plan");
        notNull(options, "TroupeCluster.stream", "options");
        long queryId = nextQueryId.incrementAndGet();
        BlockingQueue<QueryRelay.Event> events = ClusterQueryStream.newEventQueue();
        ClusterQueryStream stream;
        // Under the lock, so that close() sees every stream submitted before it and none after.
        synchronized (closeLock) {
            if (closed) {
                throw new IllegalStateException("the Troupe cluster client is closed");
            }
            ActorRef<QueryRelay.Event> relay = system.systemActorOf(QueryRelay.create(service, events::add),
                    "troupe-query-" + queryId, Props.empty());
            stream = new ClusterQueryStream(queryId, nodeOf(service), service, relay, events, this::driver,
                    open::remove);
            open.add(stream);
            long timeoutMillis = options.timeout() == null ? 0 : Math.max(1, options.timeout().toMillis());
            service.tell(new QueryService.Submit(queryId, plan, options.workers(), timeoutMillis,
                    options.memoryBytes(), analyze, relay));
        }
        return stream;
    }

    /** This client's connection to the media driver in {@code directory}, made on first use. */
    private SharedDriverStreams driver(Path directory) {
        return drivers.computeIfAbsent(directory, dir -> {
            try {
                return SharedDriverStreams.connect(dir, transport, ClusterQueryStream.SUBSCRIBE_WAIT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while connecting to the media driver in " + dir, e);
            }
        });
    }

    /** Queries whose streams have not ended, failed or been closed yet. */
    public int openQueries() {
        return open.size();
    }

    /** Aeron subscriptions this client holds now: 0 once every stream has ended or closed. */
    public int openSubscriptions() {
        return drivers.values().stream().mapToInt(SharedDriverStreams::openStreams).sum();
    }

    /**
     * Closes every stream still open (their queries are cancelled on the nodes), leaves the cluster, stops
     * the actor system (bounded by {@link #STOP_TIMEOUT}) and the media-driver clients. Idempotent. A clean close
     * logs nothing: once the client has left, its actor system logs errors only, so that the nodes' closing of its
     * connections is no warning.
     */
    @Override
    public void close() {
        List<ClusterQueryStream> left;
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
            left = List.copyOf(open);
        }
        // A reader blocked in one of these wakes with "closed" (see ClusterQueryStream.close).
        left.forEach(ClusterQueryStream::close);
        CoordinatedShutdown shutdown = CoordinatedShutdown.get(system);
        // Once the client has left, the nodes drop their connections to it and Artery's outbound streams report
        // each abort as a warning, which tells of no failure. Only this client's actor system is quieted, and only
        // from then on: a connection lost while it was a member still warns.
        shutdown.addTask(CoordinatedShutdown.PhaseClusterExitingDone(), "troupe-quiet-after-leaving", () -> {
            system.classicSystem().eventStream().setLogLevel(Logging.ErrorLevel());
            return CompletableFuture.completedFuture(Done.getInstance());
        });
        shutdown.run(CoordinatedShutdown.clusterLeavingReason());
        try {
            system.getWhenTerminated().toCompletableFuture().get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            system.log().warn("the Troupe client's actor system did not stop within {} s", STOP_TIMEOUT.toSeconds());
        }
        drivers.values().forEach(SharedDriverStreams::close);
        drivers.clear();
    }

    /** The node of a query service: its actor's address, {@code host:port}. */
    private static String nodeOf(ActorRef<?> service) {
        return MembershipTracker.address(service.path().address());
    }
}
