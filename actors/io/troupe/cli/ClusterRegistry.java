package io.troupe.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The local clusters this user started, found from any folder: {@code cluster start} writes the run directory of
 * each in a folder of the user's ({@link #defaultDirectory()}, {@code ~/.troupe/clusters}), one file a cluster
 * named by its seed port, and {@code cluster stop} removes it. {@code cluster stop} and {@code status} without
 * {@code --run-dir} find a cluster there, and a second {@code cluster start} on its ports says where it runs. An
 * entry whose cluster runs no more (stopped otherwise, or killed) is dropped when read.
 *
 * <p>Not threadsafe: one command at a time.
 */
final class ClusterRegistry {

    private final Path directory;

    ClusterRegistry(Path directory) {
        this.directory = directory;
    }

    /** {@code ~/.troupe/clusters}. */
    static Path defaultDirectory() {
        return Path.of(System.getProperty("user.home"), ".troupe", "clusters");
    }

    /** Writes down the cluster of {@code manifest}, started now. */
    void add(ClusterManifest manifest) throws IOException {
        Files.createDirectories(directory);
        Files.writeString(entry(manifest), manifest.runDir().toAbsolutePath() + "\n", StandardCharsets.UTF_8);
    }

    /** Forgets the cluster of {@code manifest}, stopped now. */
    void remove(ClusterManifest manifest) {
        try {
            Files.deleteIfExists(entry(manifest));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The clusters written down whose driver or a node still runs. */
    List<ClusterManifest> running() {
        List<ClusterManifest> running = new ArrayList<>();
        if (!Files.isDirectory(directory)) {
            return running;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                Optional<ClusterManifest> manifest = read(entry);
                if (manifest.isPresent() && manifest.get().anyAlive()) {
                    running.add(manifest.get());
                } else {
                    Files.deleteIfExists(entry);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        running.sort((a, b) -> Integer.compare(seedPort(a), seedPort(b)));
        return running;
    }

    /** A running cluster one of whose nodes has a port in {@code from} .. {@code from + count - 1}. */
    Optional<ClusterManifest> onPorts(int from, int count) {
        return running().stream().filter(m -> m.nodes().stream()
                .anyMatch(n -> n.port() >= from && n.port() < from + count)).findFirst();
    }

    /** How a user finds and stops {@code manifest}'s cluster, in words. */
    static String describe(ClusterManifest manifest) {
        List<ClusterManifest.Started> nodes = manifest.nodes();
        String ports = nodes.isEmpty() ? "" : nodes.size() == 1 ? "port " + nodes.get(0).port()
                : "ports " + nodes.get(0).port() + "-" + nodes.get(nodes.size() - 1).port();
        return nodes.size() + (nodes.size() == 1 ? " node" : " nodes") + " on 127.0.0.1, " + ports
                + ", run directory " + manifest.runDir().toAbsolutePath();
    }

    private Optional<ClusterManifest> read(Path entry) {
        try {
            Path runDir = Path.of(Files.readString(entry, StandardCharsets.UTF_8).trim());
            return ClusterManifest.read(runDir);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private Path entry(ClusterManifest manifest) {
        return directory.resolve(String.valueOf(seedPort(manifest)));
    }

    private static int seedPort(ClusterManifest manifest) {
        return manifest.nodes().isEmpty() ? 0 : manifest.nodes().get(0).port();
    }
}
