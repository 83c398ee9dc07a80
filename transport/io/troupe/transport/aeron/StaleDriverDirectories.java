package io.troupe.transport.aeron;

import io.aeron.CommonContext;
import org.agrona.IoUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * Removes the directories that embedded drivers of JVMs gone without closing them left behind. A
 * driver deletes its directory ({@code troupe-aeron-<pid>-<unique>}) when Troupe closes it; a JVM
 * killed, crashed or halted first leaves it, 12 MiB of driver files and 24 MiB a channel, in
 * /dev/shm (memory) or java.io.tmpdir. Each start of a driver removes, in the parents it may use,
 * every such directory whose process is not alive ({@link ProcessHandle#of}) and whose driver has
 * not stamped its heartbeat for {@value #STALE_HEARTBEAT_MS} ms: never another live process's. The
 * heartbeat guards a parent shared with another pid namespace (a container's /dev/shm mounted in
 * another), where a live driver's pid is no process here; Troupe's drivers stamp it every
 * 100 ms.
 *
 * <p>A host's directory ({@code troupe-cluster-<unique>}, {@link StandaloneDriver#newHostDirectory}) holds a
 * standalone driver's directory and those of the JVMs beside it, and goes whole when its cluster stops. One
 * whose cluster was killed instead goes at a later start when it is older than {@value #HOST_GRACE_MS} ms (it
 * is made before its driver starts), no driver in it has stamped its heartbeat lately, and each of its JVMs'
 * directories is stale as above.
 *
 * <p>Threadsafe: stateless. Two starts may race to remove one directory; a failed removal is left
 * for the next start.
 */
final class StaleDriverDirectories {

    static final String PREFIX = "troupe-aeron-";
    /** The name of a host's directory, shared by its standalone driver and the JVMs that use it. */
    static final String HOST_PREFIX = "troupe-cluster-";
    /** How long a host's directory may wait for its driver to start: a cluster's start waits less. */
    static final long HOST_GRACE_MS = 120_000;
    /** Twenty heartbeats missed: a driver that long silent is gone, or stopped past serving anyone. */
    static final long STALE_HEARTBEAT_MS = 2_000;

    private static final Logger LOG = LoggerFactory.getLogger(StaleDriverDirectories.class);

    private StaleDriverDirectories() {
    }

    /** The name of a new driver directory of this process. */
    static String newName(String unique) {
        return PREFIX + ProcessHandle.current().pid() + "-" + unique;
    }

    /** Removes the stale driver directories directly under each of {@code parents}; returns them. */
    static List<Path> remove(List<Path> parents) {
        List<Path> removed = new ArrayList<>();
        for (Path parent : parents) {
            if (!Files.isDirectory(parent)) {
                continue;
            }
            try (Stream<Path> children = Files.list(parent)) {
                for (Path dir : (Iterable<Path>) children::iterator) {
                    if (isStale(dir)) {
                        IoUtil.delete(dir.toFile(), true);
                        if (!Files.exists(dir)) {
                            removed.add(dir);
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                LOG.debug("[{}] could not look for stale Troupe driver directories: {}", parent, e.toString());
            }
        }
        if (!removed.isEmpty()) {
            LOG.info("removed {} driver directories of Troupes whose process is gone: {}", removed.size(), removed);
        }
        return removed;
    }

    private static boolean isStale(Path dir) {
        return dir.getFileName().toString().startsWith(HOST_PREFIX) ? isStaleHost(dir) : isStaleDriver(dir);
    }

    private static boolean isStaleHost(Path dir) {
        try (Stream<Path> children = Files.list(dir)) {
            if (Files.getLastModifiedTime(dir).toMillis() > System.currentTimeMillis() - HOST_GRACE_MS) {
                return false;
            }
            for (Path child : (Iterable<Path>) children::iterator) {
                boolean stale = child.getFileName().toString().startsWith(PREFIX) ? isStaleDriver(child)
                        : !Files.isDirectory(child) || !isDriverActive(child);
                if (!stale) {
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean isDriverActive(Path dir) {
        try {
            return CommonContext.isDriverActive(dir.toFile(), STALE_HEARTBEAT_MS, message -> { });
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static boolean isStaleDriver(Path dir) {
        OptionalLong pid = ownerPid(dir.getFileName().toString());
        if (pid.isEmpty() || !Files.isDirectory(dir)) {
            return false;
        }
        if (ProcessHandle.of(pid.getAsLong()).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        try {
            return !CommonContext.isDriverActive(dir.toFile(), STALE_HEARTBEAT_MS, message -> { });
        } catch (RuntimeException e) {
            // A driver file made but never initialised (its JVM died starting it), or unreadable.
            return true;
        }
    }

    /** The pid in a name {@code troupe-aeron-<pid>-<unique>}; empty for any other name. */
    static OptionalLong ownerPid(String name) {
        if (!name.startsWith(PREFIX)) {
            return OptionalLong.empty();
        }
        int end = name.indexOf('-', PREFIX.length());
        if (end <= PREFIX.length()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(name.substring(PREFIX.length(), end)));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
