package io.troupe.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.cluster.TroupeNode;
import io.troupe.config.ClusterSettings;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.table.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * {@code troupe node}: runs one Troupe node in the foreground ({@link TroupeNode}) until SIGTERM or
 * Ctrl-C, when it leaves the cluster and stops (exit 0), or until the cluster removes it (exit 1). Its
 * view goes to {@code <run-dir>/node-<port>.json} every second. The options override
 * {@code troupe.cluster.host}, {@code port}, {@code data-port}, {@code seed-nodes} and
 * {@code troupe.workers.default}; {@code --tables} loads
 * delimited files and {@code --generate} a benchmark's tables for clients' queries, whole, or this node's
 * part ({@code --part I/N}) of those {@code --partitioned} names ({@link NodeTables}); every other setting
 * comes from application.conf and {@code -Dtroupe.*} (TROUPE_JAVA_OPTS). Arguments and settings are
 * checked before the node starts: a bad one gets one line and exit 2.
 */
@Command(name = "node", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run a Troupe node (a Pekko cluster member) in the foreground until SIGTERM.")
final class NodeCommand implements Callable<Integer> {

    @Option(names = "--run-dir", paramLabel = "DIR",
            description = "where the node writes its status file (default: ${DEFAULT-VALUE})")
    Path runDir = Path.of("troupe-run");

    @Option(names = "--host", paramLabel = "ADDRESS",
            description = "the address other nodes reach this one at; Artery and the data plane bind to it"
                    + " (default: troupe.cluster.host, loopback)")
    String host;

    @Option(names = "--port", paramLabel = "P", description = "Artery TCP port (default: troupe.cluster.port)")
    Integer port;

    @Option(names = "--data-port", paramLabel = "P",
            description = "UDP port of the data plane, where batches from nodes on other hosts arrive"
                    + " (default: troupe.cluster.data-port; 0: the Artery port's number)")
    Integer dataPort;

    @Option(names = "--seed", split = ",", paramLabel = "HOST:PORT",
            description = "seed nodes to join through (default: troupe.cluster.seed-nodes; none: start a cluster)")
    List<String> seeds;

    @Option(names = "--workers", paramLabel = "W", description = "workers per query (default: troupe.workers.default)")
    Integer workers;

    @Option(names = "--tables", paramLabel = "DIR",
            description = "load every DIR/NAME.csv as table NAME at start (first line: the columns; chunks of"
                    + " troupe.cluster.table-chunk-rows rows), for clients' queries; each node loads all of them"
                    + " (replicated) but those --partitioned names")
    Path tables;

    @Option(names = "--generate", paramLabel = "BENCHMARK:SF",
            description = "generate a benchmark's tables at start (tpch:0.1, tpcds:1), for clients' queries, whole but"
                    + " those --partitioned: a node generates only its part of those without a column")
    String generate;

    @Option(names = "--partitioned", split = ",", paramLabel = "NAME[:COLUMN]",
            description = "of the tables, keep only this node's part (--part) of these: by the hash of COLUMN,"
                    + " or round robin by row without one")
    List<String> partitioned;

    @Option(names = "--part", paramLabel = "I/N",
            description = "this node's part of the --partitioned tables: part I of N (N nodes, each with its own I)")
    String part;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        Map<String, Object> overrides = new HashMap<>();
        if (host != null) {
            overrides.put("troupe.cluster.host", host);
        }
        if (port != null) {
            overrides.put("troupe.cluster.port", port);
        }
        if (dataPort != null) {
            overrides.put("troupe.cluster.data-port", dataPort);
        }
        if (seeds != null) {
            for (String seed : seeds) {
                try {
                    ClusterSettings.SeedNode.parse(seed);
                } catch (IllegalArgumentException e) {
                    throw RoundOptions.bad(spec, "--seed: " + e.getMessage());
                }
            }
            overrides.put("troupe.cluster.seed-nodes", seeds);
        }
        if (workers != null) {
            if (workers < 0 || workers > QueryOptions.MAX_WORKERS) {
                throw RoundOptions.bad(spec, "--workers must be in 0.." + QueryOptions.MAX_WORKERS + ", got " + workers);
            }
            overrides.put("troupe.workers.default", workers);
        }
        Config config = ConfigFactory.parseMap(overrides).withFallback(ConfigFactory.load());
        TroupeSettings troupeSettings = settings(spec, () -> TroupeSettings.from(config));
        ClusterSettings cluster = settings(spec, () -> ClusterSettings.from(config));
        if (cluster.port() == 0) {
            throw RoundOptions.bad(spec, "--port must be in 1.." + ClusterSettings.MAX_PORT + " for a node (its status file and"
                    + " the others' seed lists name it), got 0");
        }
        NodeTables nodeTables;
        List<Table> loaded;
        try {
            nodeTables = NodeTables.of(tables, generate, partitioned, cluster.tableChunkRows());
            if (!nodeTables.partitioning().isEmpty() && part == null) {
                throw new IllegalArgumentException("--partitioned needs --part I/N");
            }
            int[] p = part == null ? new int[] {0, 1} : Partitioning.parsePart(part);
            nodeTables.generating().ifPresent(what -> {
                spec.commandLine().getOut().println("troupe node: generating " + what
                        + (part == null ? "" : ", part " + part + " of the partitioned tables"));
                spec.commandLine().getOut().flush();
            });
            loaded = nodeTables.load(p[0], p[1]);
        } catch (IllegalArgumentException e) {
            throw RoundOptions.bad(spec, e.getMessage());
        }
        OutDirectory.prepare(spec, "--run-dir", runDir);

        PrintWriter out = spec.commandLine().getOut();
        Path statusFile = ClusterManifest.statusFile(runDir, cluster.port());
        TroupeNode node;
        try {
            node = TroupeNode.start(troupeSettings, cluster, config, statusFile, nodeTables.parts());
        } catch (IllegalStateException e) {
            spec.commandLine().getErr().println("troupe node: " + e.getMessage());
            return 1;
        }
        loaded.forEach(node.troupe()::register);
        Thread shutdown = new Thread(node::close, "troupe-node-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);
        out.println("troupe node " + node.nodeId() + " (pid " + ProcessHandle.current().pid() + "): started, status in "
                + statusFile + (loaded.isEmpty() ? "" : ", tables " + loaded.stream().map(Table::toString).toList()));
        out.flush();
        node.terminated().join();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdown);
        } catch (IllegalStateException shuttingDown) {
            // SIGTERM or Ctrl-C: the hook closes the node, and the JVM exits when it is done.
            return 0;
        }
        node.close();
        spec.commandLine().getErr().println("troupe node " + node.nodeId() + ": removed from the cluster");
        return 1;
    }

    /** Settings read by {@code read}, an error in them a bad argument naming the key. */
    static <T> T settings(CommandSpec spec, Supplier<T> read) {
        try {
            return read.get();
        } catch (IllegalArgumentException e) {
            throw RoundOptions.bad(spec, e.getMessage());
        }
    }
}
