package io.troupe.cli;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * What {@link LocalCluster} started in a run directory, written down ({@value #FILE}, a properties file)
 * so that a later command finds it: the cluster's Aeron directory, the media driver's and each node's
 * pid, start time, port and log. The start time is what tells a process this class started from another
 * that later got the same pid.
 *
 * <p>Not threadsafe: one command at a time per run directory.
 */
final class ClusterManifest {

    static final String FILE = "cluster.properties";

    /**
     * A process the cluster started.
     *
     * @param index       the node's number from 1 (0 for the driver)
     * @param port        the node's Artery port (0 for the driver)
     * @param pid         its process id
     * @param startMillis its start time (epoch milliseconds), as the OS reports it
     * @param log         where its output goes
     */
    record Started(int index, int port, long pid, long startMillis, Path log) {

        /** The process, while it runs and is still the one started (not a later one with its pid). */
        Optional<ProcessHandle> handle() {
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .filter(h -> h.info().startInstant().map(s -> s.toEpochMilli() == startMillis).orElse(false));
        }
    }

    private final Path runDir;
    private final Path aeronParent;
    private Started driver;
    private final List<Started> nodes = new ArrayList<>();

    ClusterManifest(Path runDir, Path aeronParent) {
        this.runDir = runDir;
        this.aeronParent = aeronParent;
    }

    /** Where the node with Artery port {@code port} writes its view (the node command's choice too). */
    static Path statusFile(Path runDir, int port) {
        return runDir.resolve("node-" + port + ".json");
    }

    Path statusFile(Started node) {
        return statusFile(runDir, node.port());
    }

    Path runDir() {
        return runDir;
    }

    /** The directory of the cluster's Aeron files: the driver's and the nodes' own. */
    Path aeronParent() {
        return aeronParent;
    }

    Optional<Started> driverProcess() {
        return Optional.ofNullable(driver);
    }

    List<Started> nodes() {
        return List.copyOf(nodes);
    }

    void driver(ProcessHandle process) {
        driver = started(0, 0, process, runDir.resolve("driver.log"));
    }

    void node(int index, int port, ProcessHandle process, Path log) {
        nodes.add(started(index, port, process, log));
    }

    /** Whether the driver or a node still runs. */
    boolean anyAlive() {
        return driverProcess().flatMap(Started::handle).isPresent()
                || nodes.stream().anyMatch(n -> n.handle().isPresent());
    }

    void write() throws IOException {
        Properties p = new Properties();
        p.setProperty("aeron.dir", aeronParent.toString());
        if (driver != null) {
            put(p, "driver", driver);
        }
        p.setProperty("nodes", String.valueOf(nodes.size()));
        for (Started node : nodes) {
            put(p, "node." + node.index(), node);
        }
        Path temporary = runDir.resolve(FILE + ".tmp");
        try (Writer out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
            p.store(out, "Troupe local cluster: bin/troupe cluster status|stop --run-dir " + runDir);
        }
        Files.move(temporary, runDir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
    }

    void delete() {
        try {
            Files.deleteIfExists(runDir.resolve(FILE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The manifest in {@code runDir}; empty when there is none.
     *
     * @throws IllegalStateException naming the file when it cannot be read or is not a manifest
     */
    static Optional<ClusterManifest> read(Path runDir) {
        Path file = runDir.resolve(FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
            ClusterManifest manifest = new ClusterManifest(runDir, Path.of(required(p, "aeron.dir")));
            if (p.containsKey("driver.pid")) {
                manifest.driver = get(p, "driver");
            }
            int count = Integer.parseInt(required(p, "nodes"));
            for (int i = 1; i <= count; i++) {
                manifest.nodes.add(get(p, "node." + i));
            }
            return Optional.of(manifest);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("not a Troupe cluster manifest: " + file + " (" + e.getMessage() + ")", e);
        }
    }

    private static Started started(int index, int port, ProcessHandle process, Path log) {
        long start = process.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
        return new Started(index, port, process.pid(), start, log);
    }

    private static void put(Properties p, String prefix, Started s) {
        p.setProperty(prefix + ".index", String.valueOf(s.index()));
        p.setProperty(prefix + ".port", String.valueOf(s.port()));
        p.setProperty(prefix + ".pid", String.valueOf(s.pid()));
        p.setProperty(prefix + ".start", String.valueOf(s.startMillis()));
        p.setProperty(prefix + ".log", s.log().toString());
    }

    private static Started get(Properties p, String prefix) {
        return new Started(Integer.parseInt(required(p, prefix + ".index")),
                Integer.parseInt(required(p, prefix + ".port")), Long.parseLong(required(p, prefix + ".pid")),
                Long.parseLong(required(p, prefix + ".start")), Path.of(required(p, prefix + ".log")));
    }

    private static String required(Properties p, String key) {
        String value = p.getProperty(key);
        if (value == null) {
            throw new IllegalArgumentException("no " + key);
        }
        return value;
    }
}
