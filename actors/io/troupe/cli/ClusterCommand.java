package io.troupe.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.cluster.NodeStatusFile;
import io.troupe.actors.cluster.NodeView;
import io.troupe.config.ClusterSettings;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.table.TableBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * {@code troupe cluster start|status|stop}: a local cluster of node JVMs and one media driver, run by
 * {@link LocalCluster} and written down in a run directory. Arguments and settings are checked before
 * anything starts (a bad one: one line, exit 2); a cluster that does not come up fails with the node and
 * its log (exit 1), after stopping what it started.
 */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = "Start, inspect or stop a local cluster of Troupe nodes.",
        subcommands = {ClusterCommand.Start.class, ClusterCommand.Status.class, ClusterCommand.Stop.class})
final class ClusterCommand implements Callable<Integer> {

    static final String DEFAULT_RUN_DIR = "troupe-run";
    /** More node JVMs than this on one host is a typo rather than a plan. */
    static final int MAX_NODES = 32;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw RoundOptions.bad(spec, "a cluster command is missing, one of: "
                + String.join(", ", spec.subcommands().keySet()));
    }

    /** {@code cluster start}. */
    @Command(name = "start", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Start a media driver and N node JVMs, and wait until all are Up.")
    static final class Start implements Callable<Integer> {

        static final Pattern HEAP = Pattern.compile("[1-9][0-9]*[kKmMgG]?");

        @Option(names = "--nodes", required = true, paramLabel = "N", description = "node JVMs, 1.." + MAX_NODES)
        int nodes;

        @Option(names = "--workers", paramLabel = "W", description = "workers per query on each node (default: ${DEFAULT-VALUE})")
        int workers = 1;

        @Option(names = "--run-dir", paramLabel = "DIR",
                description = "manifest, logs and status files (default: ${DEFAULT-VALUE})")
        Path runDir = Path.of(DEFAULT_RUN_DIR);

        @Option(names = "--base-port", paramLabel = "P",
                description = "the first node's Artery port, the seed; the others take the next (default: ${DEFAULT-VALUE})")
        int basePort = 17355;

        @Option(names = "--heap", paramLabel = "SIZE", description = "each node's -Xmx (default: ${DEFAULT-VALUE})")
        String heap = "1g";

        @Option(names = "--timeout", paramLabel = "SECONDS",
                description = "how long to wait for all nodes to be Up (default: ${DEFAULT-VALUE})")
        int timeoutSeconds = 120;

        @Option(names = "--tables", paramLabel = "DIR",
                description = "every node loads each DIR/NAME.csv as table NAME (replicated on all nodes, but"
                        + " those --partitioned names)")
        Path tables;

        @Option(names = "--generate", paramLabel = "BENCHMARK:SF",
                description = "every node generates a benchmark's tables at start (tpch:0.1, tpcds:1), replicated"
                        + " but those --partitioned")
        String generate;

        @Option(names = "--partitioned", split = ",", paramLabel = "NAME[:COLUMN]",
                description = "of the tables, node i keeps only part i of these: by the hash of COLUMN, or without"
                        + " one round robin by row (files) or by the generator's parts (generated)")
        List<String> partitioned = new ArrayList<>();

        @Option(names = "--set", paramLabel = "KEY=VALUE",
                description = "a troupe.* setting for every node, e.g. troupe.cluster.split-brain-resolver.stable-after=3s")
        Map<String, String> settings = new TreeMap<>();

        @Spec
        CommandSpec spec;

        // visible for testing: where the clusters this user started are written down
        Path registry = ClusterRegistry.defaultDirectory();

        @Override
        public Integer call() throws IOException, InterruptedException {
            if (nodes < 1 || nodes > MAX_NODES) {
                throw RoundOptions.bad(spec, "--nodes must be in 1.." + MAX_NODES + ", got " + nodes);
            }
            if (workers < 0 || workers > QueryOptions.MAX_WORKERS) {
                throw RoundOptions.bad(spec, "--workers must be in 0.." + QueryOptions.MAX_WORKERS + ", got " + workers);
            }
            if (basePort < 1 || basePort + nodes - 1 > ClusterSettings.MAX_PORT) {
                throw RoundOptions.bad(spec, "--base-port must leave " + nodes + " ports in 1.." + ClusterSettings.MAX_PORT
                        + ", got " + basePort);
            }
            if (!HEAP.matcher(heap).matches()) {
                throw RoundOptions.bad(spec, "--heap must be a size like 512m or 2g, got '" + heap + "'");
            }
            if (timeoutSeconds < 1) {
                throw RoundOptions.bad(spec, "--timeout must be at least 1 second, got " + timeoutSeconds);
            }
            TroupeSettings troupeSettings = checkSettings(spec, "--set", settings);
            try {
                NodeTables.of(tables, generate, partitioned, TableBuilder.DEFAULT_CHUNK_ROWS).check(nodes);
            } catch (IllegalArgumentException e) {
                throw RoundOptions.bad(spec, e.getMessage());
            }
            Optional<ClusterManifest> running = new ClusterRegistry(registry).onPorts(basePort, nodes);
            if (running.isPresent()) {
                spec.commandLine().getErr().println("troupe cluster start: a cluster is already running: "
                        + ClusterRegistry.describe(running.get()) + ". Stop it with: bin/troupe cluster stop --run-dir "
                        + running.get().runDir().toAbsolutePath() + " (or start this one with another --base-port)");
                return 1;
            }
            for (int port = basePort; port < basePort + nodes; port++) {
                if (!isFree(port)) {
                    throw RoundOptions.bad(spec, "--base-port: port " + port + " of 127.0.0.1 is in use");
                }
            }
            OutDirectory.prepare(spec, "--run-dir", runDir);
            // Absolute, so that the manifest's paths hold wherever a later command runs from.
            runDir = runDir.toAbsolutePath();

            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            LocalCluster.Spec cluster = new LocalCluster.Spec(nodes, workers, basePort, runDir,
                    System.getProperty("java.class.path"), List.of("-Xmx" + heap), settings,
                    Optional.ofNullable(tables).map(Path::toAbsolutePath), Duration.ofSeconds(timeoutSeconds),
                    partitioned, Optional.ofNullable(generate));
            long start = System.nanoTime();
            ClusterManifest manifest;
            try {
                manifest = LocalCluster.start(cluster, troupeSettings.transport(), err);
            } catch (IllegalStateException e) {
                err.println("troupe cluster start: " + e.getMessage());
                return 1;
            }
            new ClusterRegistry(registry).add(manifest);
            out.printf(Locale.ROOT, "%d nodes up in %.1f s; Aeron files in %s%n", nodes,
                    (System.nanoTime() - start) / 1e9, manifest.aeronParent());
            for (ClusterManifest.Started node : manifest.nodes()) {
                out.printf(Locale.ROOT, "node %d: 127.0.0.1:%d pid %d, log %s%n", node.index(), node.port(), node.pid(),
                        node.log());
            }
            out.println("bin/troupe cluster status; bin/troupe cluster stop (from any folder: the cluster is written"
                    + " down in " + registry + "; or --run-dir " + runDir + ")");
            out.flush();
            return 0;
        }

        /**
         * {@code settings}, given as {@code option}, over the application's, read as a node reads them: an
         * error names the key.
         */
        static TroupeSettings checkSettings(CommandSpec spec, String option, Map<String, String> settings) {
            for (String key : settings.keySet()) {
                if (!key.startsWith("troupe.")) {
                    throw RoundOptions.bad(spec, option + " takes troupe.* settings, got '" + key + "'");
                }
            }
            Config config = ConfigFactory.parseMap(settings).withFallback(ConfigFactory.load());
            NodeCommand.settings(spec, () -> ClusterSettings.from(config));
            return NodeCommand.settings(spec, () -> TroupeSettings.from(config));
        }

        /** Whether {@code port} of the loopback address can be bound now. */
        static boolean isFree(int port) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                return true;
            } catch (IOException e) {
                return false;
            }
        }
    }

    /**
     * A command on a cluster that {@code cluster start} wrote down: the one in {@code --run-dir}; without it, the one
     * in {@value #DEFAULT_RUN_DIR} of the current folder, or else the one this user runs ({@link ClusterRegistry}),
     * wherever it was started from.
     */
    abstract static class OnStartedCluster implements Callable<Integer> {

        @Option(names = "--run-dir", paramLabel = "DIR", description = "the cluster's run directory (default: "
                + DEFAULT_RUN_DIR + " here, else the cluster this user started, from any folder)")
        Path runDir;

        @Spec
        CommandSpec spec;

        // visible for testing: where the clusters this user started are written down
        Path registry = ClusterRegistry.defaultDirectory();

        @Override
        public Integer call() throws InterruptedException {
            ClusterManifest manifest;
            try {
                manifest = find();
            } catch (IllegalStateException e) {
                spec.commandLine().getErr().println("troupe cluster " + spec.name() + ": " + e.getMessage());
                return 1;
            }
            runDir = manifest.runDir();
            PrintWriter out = spec.commandLine().getOut();
            run(manifest, out);
            out.flush();
            return 0;
        }

        private ClusterManifest find() {
            if (runDir != null) {
                return LocalCluster.manifest(runDir);
            }
            Path here = Path.of(DEFAULT_RUN_DIR);
            if (Files.exists(here.resolve(ClusterManifest.FILE))) {
                return LocalCluster.manifest(here);
            }
            List<ClusterManifest> running = new ClusterRegistry(registry).running();
            if (running.isEmpty()) {
                throw new IllegalStateException("no cluster runs: none in " + here.toAbsolutePath()
                        + ", and none that this user started (" + registry + "); bin/troupe cluster start");
            }
            if (running.size() > 1) {
                throw new IllegalStateException(running.size() + " clusters run: " + running.stream()
                        .map(ClusterRegistry::describe).collect(Collectors.joining("; "))
                        + "; name one with --run-dir DIR");
            }
            return running.get(0);
        }

        ClusterRegistry registry() {
            return new ClusterRegistry(registry);
        }

        abstract void run(ClusterManifest manifest, PrintWriter out) throws InterruptedException;
    }

    /** {@code cluster status}. */
    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Print each node's pid, whether it runs, and its view of the members and endpoints.")
    static final class Status extends OnStartedCluster {

        @Override
        void run(ClusterManifest manifest, PrintWriter out) {
            out.println("cluster in " + runDir + ", Aeron files in " + manifest.aeronParent()
                    + (Files.exists(manifest.aeronParent()) ? "" : " (gone)"));
            manifest.driverProcess().ifPresent(driver -> out.println("media driver: pid " + driver.pid() + " "
                    + alive(driver) + ", log " + driver.log()));
            for (ClusterManifest.Started node : manifest.nodes()) {
                out.println("node " + node.index() + ": 127.0.0.1:" + node.port() + " pid " + node.pid() + " "
                        + alive(node) + ", log " + node.log());
                Path file = manifest.statusFile(node);
                if (!Files.exists(file)) {
                    out.println("  no view yet (" + file + ")");
                    continue;
                }
                try {
                    NodeView view = NodeStatusFile.read(file);
                    out.printf(Locale.ROOT, "  %s, view of %.1f s ago, %d queries running%n", view.state(),
                            Duration.between(view.writtenAt(), Instant.now()).toMillis() / 1000.0, view.queries());
                    out.println("  members: " + view.members().stream().map(Status::describe)
                            .collect(Collectors.joining(", ")));
                    out.println("  endpoints: " + view.endpoints().stream().map(e -> e.nodeId()
                            + (e.aeronDirectory().isEmpty() ? "" : " (aeron " + e.aeronDirectory() + ", udp "
                            + e.udpEndpoint() + ")"))
                            .collect(Collectors.joining(", ")));
                } catch (IllegalArgumentException e) {
                    out.println("  " + e.getMessage());
                }
            }
        }

        /** {@code host:port STATUS}, and "unreachable" for a member still in the cluster that is not heard. */
        private static String describe(NodeView.Member m) {
            boolean unheard = !m.reachable() && m.status() != NodeView.MemberStatus.REMOVED;
            return m.address() + " " + m.status() + (unheard ? " unreachable" : "");
        }

        private static String alive(ClusterManifest.Started process) {
            return process.handle().isPresent() ? "alive" : "not running";
        }
    }

    /** {@code cluster stop}. */
    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = "Stop the nodes (SIGTERM, then SIGKILL) and the driver, and remove their Aeron files.")
    static final class Stop extends OnStartedCluster {

        @Override
        void run(ClusterManifest manifest, PrintWriter out) throws InterruptedException {
            LocalCluster.stop(manifest, out);
            registry().remove(manifest);
        }
    }
}
