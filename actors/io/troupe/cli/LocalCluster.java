package io.troupe.cli;

import io.aeron.CommonContext;
import io.troupe.actors.cluster.NodeStatusFile;
import io.troupe.actors.cluster.NodeView;
import io.troupe.actors.cluster.NodeView.MemberStatus;
import io.troupe.config.TroupeSettings;
import io.troupe.transport.aeron.StandaloneDriver;
import org.agrona.IoUtil;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * A cluster of Troupe nodes on this host, each a JVM of its own, with one standalone Aeron media driver
 * (another JVM) whose directory they share: what {@code bin/troupe cluster start|status|stop} run, and
 * what the tests start. Everything it starts is written down in the run directory
 * ({@link ClusterManifest}: pids, ports, logs, the Aeron directory), so that a later command (another
 * process) finds it; each process's output goes to its log there, each node's view to its status file.
 *
 * <p>Processes are stopped by their own pids, and only while the pid is still the process this class
 * started (its start time matches the manifest's): a pid reused by another program is never signalled.
 * Every wait is bounded.
 *
 * <p>Not threadsafe: one command at a time per run directory.
 */
final class LocalCluster {

    /** How long the driver may take to answer before start gives up. */
    static final Duration DRIVER_START = Duration.ofSeconds(30);
    /** A node's close leaves the cluster within 30 s (TroupeNode.STOP_TIMEOUT); a little more before SIGKILL. */
    static final Duration NODE_STOP = Duration.ofSeconds(40);
    static final Duration DRIVER_STOP = Duration.ofSeconds(10);
    private static final long POLL_MS = 200;
    static final String DRIVER_HEAP = "-Xmx128m";
    /** The kernel's transparent huge page mode: "always [madvise] never", the chosen one in brackets. */
    private static final Path TRANSPARENT_HUGE_PAGES = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");

    /**
     * What to start.
     *
     * @param nodes      how many node JVMs
     * @param workers    workers per query on each node ({@code troupe.workers.default})
     * @param basePort   the first node's Artery port (the seed); the others take the next ones
     * @param runDir     where the manifest, logs and status files go
     * @param classpath  the JVMs' classpath
     * @param jvmOptions options for each node JVM (heap, GC)
     * @param settings   {@code troupe.*} settings for every node, passed as {@code -D} options
     * @param tables     a directory of CSV tables every node loads ({@code node --tables}); empty for none
     * @param upTimeout  how long start waits for every node to be Up
     * @param partitioned the tables each node keeps only its part of ({@code node --partitioned}:
     *                    {@code NAME[:COLUMN]}); node i (from 1) gets part i of {@code nodes}
     * @param generate    a benchmark every node generates at start ({@code node --generate BENCHMARK:SF});
     *                    empty for none
     */
    record Spec(int nodes, int workers, int basePort, Path runDir, String classpath, List<String> jvmOptions,
                Map<String, String> settings, Optional<Path> tables, Duration upTimeout, List<String> partitioned,
                Optional<String> generate) {

        Spec {
            jvmOptions = List.copyOf(jvmOptions);
            settings = Map.copyOf(settings);
            partitioned = List.copyOf(partitioned);
        }

        /** Nothing generated. */
        Spec(int nodes, int workers, int basePort, Path runDir, String classpath, List<String> jvmOptions,
             Map<String, String> settings, Optional<Path> tables, Duration upTimeout, List<String> partitioned) {
            this(nodes, workers, basePort, runDir, classpath, jvmOptions, settings, tables, upTimeout, partitioned,
                    Optional.empty());
        }

        /** Every table replicated. */
        Spec(int nodes, int workers, int basePort, Path runDir, String classpath, List<String> jvmOptions,
             Map<String, String> settings, Optional<Path> tables, Duration upTimeout) {
            this(nodes, workers, basePort, runDir, classpath, jvmOptions, settings, tables, upTimeout, List.of());
        }
    }

    private LocalCluster() {
    }

    /**
     * Starts the driver, then the nodes (the first the seed), and waits until every node is Up and sees
     * all N members Up and N endpoints, printing a line to {@code progress} as nodes come up.
     *
     * @return the manifest of what runs
     * @throws IllegalStateException naming the node that did not come up and its log (everything
     *         started is stopped first), or when a cluster runs in the run directory already
     */
    static ClusterManifest start(Spec spec, TroupeSettings.Transport transport, PrintWriter progress)
            throws IOException, InterruptedException {
        Files.createDirectories(spec.runDir());
        Optional<ClusterManifest> existing = ClusterManifest.read(spec.runDir());
        if (existing.isPresent() && existing.get().anyAlive()) {
            throw new IllegalStateException("a cluster runs in " + spec.runDir() + " already: bin/troupe cluster stop"
                    + " --run-dir " + spec.runDir() + " first");
        }
        Path aeronParent = aeronParent();
        Path driverDir = aeronParent.resolve("driver");
        Files.createDirectories(aeronParent);
        ClusterManifest manifest = new ClusterManifest(spec.runDir(), aeronParent);
        try {
            List<String> driverCommand = new ArrayList<>(javaCommand(List.of(DRIVER_HEAP)));
            driverCommand.addAll(StandaloneDriver.systemProperties(transport, driverDir));
            driverCommand.addAll(List.of("-cp", spec.classpath(), StandaloneDriver.mainClass()));
            manifest.driver(launch(driverCommand, spec.runDir().resolve("driver.log")));
            manifest.write();
            if (!StandaloneDriver.awaitActive(driverDir, DRIVER_START)) {
                throw new IllegalStateException("the media driver did not start within " + DRIVER_START.toSeconds()
                        + " s: see " + spec.runDir().resolve("driver.log"));
            }
            for (int i = 1; i <= spec.nodes(); i++) {
                int port = spec.basePort() + i - 1;
                Path log = spec.runDir().resolve("node-" + i + ".log");
                manifest.node(i, port, launch(nodeCommand(spec, port, driverDir, aeronParent), log), log);
                manifest.write();
            }
            awaitUp(spec, manifest, progress);
            return manifest;
        } catch (IOException | InterruptedException | RuntimeException e) {
            stop(manifest, progress);
            throw e;
        }
    }

    /**
     * Stops the nodes (SIGTERM: each leaves the cluster; SIGKILL past {@link #NODE_STOP}), then the
     * driver, removes the cluster's Aeron directory and the manifest, and says what it did on
     * {@code out}. Logs and status files stay.
     */
    static void stop(ClusterManifest manifest, PrintWriter out) throws InterruptedException {
        // Taken before the signals: a node that ends at once is then "stopped", not "not running".
        Map<ClusterManifest.Started, Optional<ProcessHandle>> nodes = new LinkedHashMap<>();
        for (ClusterManifest.Started node : manifest.nodes()) {
            nodes.put(node, node.handle());
        }
        nodes.values().forEach(handle -> handle.ifPresent(ProcessHandle::destroy));
        for (Map.Entry<ClusterManifest.Started, Optional<ProcessHandle>> node : nodes.entrySet()) {
            out.println("node " + node.getKey().index() + " (pid " + node.getKey().pid() + "): "
                    + stopped(node.getValue(), NODE_STOP));
        }
        Optional<ClusterManifest.Started> driver = manifest.driverProcess();
        if (driver.isPresent()) {
            Optional<ProcessHandle> handle = driver.get().handle();
            handle.ifPresent(ProcessHandle::destroy);
            out.println("media driver (pid " + driver.get().pid() + "): " + stopped(handle, DRIVER_STOP));
        }
        if (Files.exists(manifest.aeronParent())) {
            IoUtil.delete(manifest.aeronParent().toFile(), true);
            out.println("removed " + manifest.aeronParent());
        }
        manifest.delete();
        out.flush();
    }

    /** Waits for a process sent SIGTERM to end; kills it past {@code grace}. What happened. */
    private static String stopped(Optional<ProcessHandle> handle, Duration grace) throws InterruptedException {
        if (handle.isEmpty()) {
            return "not running";
        }
        if (waitGone(handle.get(), grace)) {
            return "stopped";
        }
        handle.get().destroyForcibly();
        return waitGone(handle.get(), DRIVER_STOP) ? "killed (SIGKILL) after " + grace.toSeconds() + " s"
                : "still running after SIGKILL";
    }

    private static boolean waitGone(ProcessHandle handle, Duration timeout) throws InterruptedException {
        try {
            handle.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return !handle.isAlive();
        }
    }

    /** Polls the nodes' status files until each is Up and sees everybody, or fails naming the node. */
    private static void awaitUp(Spec spec, ClusterManifest manifest, PrintWriter progress)
            throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + spec.upTimeout().toNanos();
        int lastUp = -1;
        while (true) {
            int up = 0;
            ClusterManifest.Started notUp = null;
            for (ClusterManifest.Started node : manifest.nodes()) {
                if (node.handle().isEmpty()) {
                    throw new IllegalStateException("node " + node.index() + " (port " + node.port()
                            + ") exited before it was Up: see " + node.log());
                }
                if (isComplete(manifest.statusFile(node), spec.nodes())) {
                    up++;
                } else if (notUp == null) {
                    notUp = node;
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (up != lastUp) {
                progress.printf(Locale.ROOT, "troupe cluster: %d/%d nodes up (%.1f s)%n", up, spec.nodes(), seconds);
                progress.flush();
                lastUp = up;
            }
            if (notUp == null) {
                return;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("node " + notUp.index() + " (port " + notUp.port() + ") was not Up"
                        + " with all " + spec.nodes() + " members after " + spec.upTimeout().toSeconds()
                        + " s: see " + notUp.log());
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MS);
        }
    }

    /** Whether the node's status file shows it Up, hearing all {@code nodes} members Up and their endpoints. */
    private static boolean isComplete(Path statusFile, int nodes) {
        if (!Files.exists(statusFile)) {
            return false;
        }
        try {
            NodeView view = NodeStatusFile.read(statusFile);
            return view.state() == NodeView.NodeState.UP && view.reachableIn(MemberStatus.UP) == nodes
                    && view.endpoints().size() == nodes;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static List<String> nodeCommand(Spec spec, int port, Path driverDir, Path aeronParent) {
        List<String> options = new ArrayList<>(hugePages(TRANSPARENT_HUGE_PAGES));
        options.addAll(spec.jvmOptions());
        List<String> command = new ArrayList<>(javaCommand(options));
        command.add("-Dtroupe.cluster.media-driver-dir=" + driverDir);
        command.add("-Dtroupe.transport.dir=" + aeronParent);
        spec.settings().forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.addAll(List.of("-cp", spec.classpath(), TroupeCli.class.getName(), "node",
                "--run-dir", spec.runDir().toString(), "--port", String.valueOf(port),
                "--seed", "127.0.0.1:" + spec.basePort(), "--workers", String.valueOf(spec.workers())));
        spec.tables().ifPresent(dir -> command.addAll(List.of("--tables", dir.toString())));
        spec.generate().ifPresent(benchmark -> command.addAll(List.of("--generate", benchmark)));
        if (!spec.partitioned().isEmpty()) {
            command.addAll(List.of("--partitioned", String.join(",", spec.partitioned()),
                    "--part", (port - spec.basePort() + 1) + "/" + spec.nodes()));
        }
        return command;
    }

    /**
     * {@code -XX:+UseTransparentHugePages} where the kernel gives huge pages to the processes that ask
     * ({@code madvise}, as here), else nothing: where it gives them to all, or to none, the flag adds nothing
     * but a warning. A node's heap then takes 2 MiB pages, which a hash join's probe, a walk at random
     * through a table of hundreds of MiB, needs far fewer TLB entries for. Measured (docs/performance.md, W1
     * at 10M rows): 2x1's median 1.26-1.29 s with them, 1.53-1.86 s without. Before the caller's own options,
     * so that {@code -XX:-UseTransparentHugePages} there wins.
     */
    static List<String> hugePages(Path mode) {
        try {
            return Files.readString(mode).contains("[madvise]") ? List.of("-XX:+UseTransparentHugePages") : List.of();
        } catch (IOException e) {
            return List.of(); // no such file: a kernel without them
        }
    }

    /**
     * {@code java} with the flags every Troupe JVM needs (Agrona's export, and on JDK 24 and later the
     * sun.misc.Unsafe access Agrona and Aeron use), then {@code options}.
     */
    static List<String> javaCommand(List<String> options) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"));
        if (Runtime.version().feature() >= 24) {
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        command.addAll(options);
        return command;
    }

    private static ProcessHandle launch(List<String> command, Path log) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(devNull())).start();
        return process.toHandle();
    }

    private static java.io.File devNull() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    /**
     * A new directory for the cluster's Aeron files (the driver's and each node's own): where Aeron puts
     * a driver by default (/dev/shm on Linux), else java.io.tmpdir. cluster stop removes it whole.
     */
    static Path aeronParent() {
        Path preferred = Path.of(CommonContext.AERON_DIR_PROP_DEFAULT).getParent();
        Path parent = Files.isDirectory(preferred) && Files.isWritable(preferred) ? preferred
                : Path.of(System.getProperty("java.io.tmpdir"));
        return StandaloneDriver.newHostDirectory(parent);
    }

    /**
     * The first of {@code count} consecutive loopback ports free now, at random in 20000..59999 (a later
     * bind may still lose one to another program: start then fails naming the node).
     *
     * @throws IllegalStateException when 100 tries found none
     */
    static int freePorts(int count) {
        for (int attempt = 0; attempt < 100; attempt++) {
            int base = ThreadLocalRandom.current().nextInt(20000, 60000);
            if (IntStream.range(base, base + count).allMatch(ClusterCommand.Start::isFree)) {
                return base;
            }
        }
        throw new IllegalStateException("no " + count + " consecutive free loopback ports found in 20000..59999");
    }

    /** {@code dir}'s manifest, or a clear error when no cluster was started there. */
    static ClusterManifest manifest(Path runDir) {
        try {
            return ClusterManifest.read(runDir).orElseThrow(() -> new IllegalStateException(
                    "no cluster in " + runDir + " (no " + ClusterManifest.FILE + "): bin/troupe cluster start"));
        } catch (UncheckedIOException e) {
            throw new IllegalStateException("cannot read " + runDir.resolve(ClusterManifest.FILE) + ": "
                    + e.getMessage(), e);
        }
    }
}
