package io.troupe.cli;

import com.typesafe.config.ConfigFactory;
import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.cluster.ClusterQueryStream;
import io.troupe.actors.cluster.TroupeCluster;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.table.Table;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Troupe as a local cluster of {@code bench --nodes NxW}, engine {@code troupe NxW}: for each workload a
 * media driver and N node JVMs ({@link LocalCluster}) with W workers each, loading the workload's tables
 * from the CSV files of {@link BenchTableFiles} (replicated: each node reads its share of every scan), and
 * this JVM as their {@link TroupeCluster} client. A query goes to the nodes in turn; its coordinator spreads
 * it over all N (the run fails unless it did) and streams the rows here. The time covers submitting the
 * plan, running it on every node and receiving its rows in this JVM; the checksum is computed afterwards,
 * untimed. The cluster is stopped by the pids its manifest holds when the workload is done, by
 * {@link #close()} whatever happened, and by a shutdown hook when this JVM ends first (Ctrl-C, kill), so
 * that no node JVM outlives the bench.
 *
 * <p>Not threadsafe (see {@link BenchEngine}).
 */
final class ClusterBenchEngine implements BenchEngine {

    /** How the node JVMs are launched: the same for every cluster of a bench. */
    record Launch(String classpath, List<String> jvmOptions, Map<String, String> settings, Duration upTimeout) {

        Launch {
            jvmOptions = List.copyOf(jvmOptions);
            settings = Map.copyOf(settings);
        }
    }

    private final BenchCluster shape;
    private final BenchTableFiles tableFiles;
    private final Path runRoot;
    private final Launch launch;
    private final PrintWriter progress;
    /** The running cluster and its client, between load and unload; null otherwise. */
    private ClusterManifest manifest;
    private TroupeCluster client;
    /** Stops the running cluster if this JVM ends while it runs; null when none runs. */
    private Thread shutdownHook;

    /**
     * @param runRoot where each workload's cluster gets its run directory (manifest, logs):
     *                {@code runRoot/NxW-<workload>}
     */
    ClusterBenchEngine(BenchCluster shape, BenchTableFiles tableFiles, Path runRoot, Launch launch,
                       PrintWriter progress) {
        this.shape = shape;
        this.tableFiles = tableFiles;
        this.runRoot = runRoot;
        this.launch = launch;
        this.progress = progress;
    }

    @Override
    public String id() {
        return "troupe " + shape;
    }

    @Override
    public List<Integer> workerCounts(List<Integer> asked) {
        return List.of(shape.workers());
    }

    @Override
    public int nodes() {
        return shape.nodes();
    }

    /** Writes the tables (once for every cluster), starts the cluster on them and connects to it. */
    @Override
    public void load(BenchWorkload workload, BenchSize size, List<Table> tables, long memoryNeed)
            throws IOException, InterruptedException {
        Path tablesDir = tableFiles.directory(workload, tables);
        long t0 = System.nanoTime();
        int basePort = LocalCluster.freePorts(shape.nodes());
        Path runDir = runRoot.resolve(shape + "-" + workload.id());
        LocalCluster.Spec spec = new LocalCluster.Spec(shape.nodes(), shape.workers(), basePort, runDir,
                launch.classpath(), launch.jvmOptions(), launch.settings(), Optional.of(tablesDir.toAbsolutePath()),
                launch.upTimeout());
        try {
            manifest = LocalCluster.start(spec, TroupeSettings.load().transport(), new PrintWriter(new StringWriter()));
            ClusterManifest started = manifest;
            shutdownHook = new Thread(() -> {
                try {
                    LocalCluster.stop(started, new PrintWriter(new StringWriter()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "bench-cluster-stop");
            Runtime.getRuntime().addShutdownHook(shutdownHook);
            client = TroupeCluster.connect(ConfigFactory.parseMap(Map.of("troupe.cluster.seed-nodes",
                    List.of("127.0.0.1:" + basePort))).withFallback(ConfigFactory.load()), launch.upTimeout());
            awaitNodes(workload);
        } catch (IllegalStateException e) {
            stop(workload);
            throw new BenchFailedException(id() + ": the cluster for " + workload.id() + " did not start: "
                    + e.getMessage(), e);
        }
        Rounds.progress(progress, "bench", "%s: %s: cluster of %d node JVMs up in %.2f s (run directory %s)",
                workload.id(), id(), shape.nodes(), Rounds.seconds(t0), runDir);
    }

    /** Waits, bounded, until the client lists every node (the Receptionist is eventually consistent). */
    private void awaitNodes(BenchWorkload workload) throws InterruptedException {
        long deadline = System.nanoTime() + launch.upTimeout().toNanos();
        while (client.nodes().size() < shape.nodes()) {
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("the client saw " + client.nodes() + " take queries, not "
                        + shape.nodes() + " nodes, after " + launch.upTimeout().toSeconds() + " s");
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    @Override
    public BenchOutcome run(BenchWorkload workload, int workers) throws InterruptedException {
        QueryOptions options = QueryOptions.defaults().withWorkers(workers);
        long t0 = System.nanoTime();
        QueryResult result;
        int ran;
        try (ClusterQueryStream stream = client.stream(workload.query(), options)) {
            result = stream.remaining();
            ran = stream.nodes();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (ran != shape.nodes()) {
            throw new BenchFailedException(id() + ": " + workload.id() + " ran on " + ran + " of the cluster's "
                    + shape.nodes() + " nodes, so its time is not one of " + shape, null);
        }
        return new BenchOutcome(seconds, result.rowCount(), BenchOutcome.checksum(result));
    }

    @Override
    public void unload(BenchWorkload workload) throws InterruptedException {
        stop(workload);
    }

    @Override
    public void close() throws InterruptedException {
        stop(null);
    }

    /** Closes the client and stops the cluster, if one runs, with one progress line of what happened. */
    private void stop(BenchWorkload workload) throws InterruptedException {
        if (client != null) {
            client.close();
            client = null;
        }
        if (manifest == null) {
            return;
        }
        long t0 = System.nanoTime();
        StringWriter said = new StringWriter();
        try {
            LocalCluster.stop(manifest, new PrintWriter(said));
        } finally {
            manifest = null;
            removeShutdownHook();
        }
        Rounds.progress(progress, "bench", "%s%s: cluster stopped in %.2f s: %s", workload == null ? ""
                : workload.id() + ": ", id(), Rounds.seconds(t0), String.join("; ", said.toString().strip().lines()
                .toList()));
    }

    private void removeShutdownHook() {
        if (shutdownHook == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down: the hook is stopping the cluster itself.
        }
        shutdownHook = null;
    }
}
