package io.troupe.transport.aeron;

import com.typesafe.config.ConfigFactory;
import io.aeron.CommonContext;
import io.troupe.ChildJvm;
import io.troupe.config.TroupeSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A JVM that dies without closing its Troupe leaves its driver's directory, and
 * the next start of a driver removes it (and a killed local cluster's host directory), but never the directory
 * of a process that is alive or of a cluster that may be starting. The
 * JVM that dies is a child, killed by its own pid ({@code destroyForcibly}) once its driver is up.
 */
class StaleDriverDirectoriesTest {

    private static final Duration BOUND = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void shouldRemoveTheDirectoryOfADriverWhoseJvmWasKilledAndNoOtherOnStart() throws Exception {
        Path left;
        Path leftHalfMade;
        long deadPid;
        try (ChildJvm child = ChildJvm.start(DriverHost.class, List.of("-Xmx64m"), dir.toString())) {
            left = Path.of(child.awaitLine("READY ", BOUND).substring("READY ".length()));
            // What a JVM killed while starting its driver leaves: a directory without driver files.
            leftHalfMade = Files.createDirectory(dir.resolve("troupe-aeron-" + child.pid() + "-starting"));
            deadPid = child.pid();
            child.kill();
        }
        // Hosts' directories of local clusters: one killed long ago (its driver never stamped a heartbeat, its
        // node's JVM is gone), one as young as a cluster that is starting, one with a live JVM's directory.
        Path deadHost = host("troupe-cluster-dead0001", "troupe-aeron-" + deadPid + "-node", true);
        Path youngHost = host("troupe-cluster-young001", "troupe-aeron-" + deadPid + "-node", false);
        Path liveHost = host("troupe-cluster-live0001", "troupe-aeron-" + ProcessHandle.current().pid() + "-n", true);
        assertTrue(Files.exists(left.resolve("cnc.dat")), "the killed JVM's driver directory is left");
        Path alive = Files.createDirectory(dir.resolve("troupe-aeron-" + ProcessHandle.current().pid() + "-other"));
        Path notTroupes = Files.createDirectory(dir.resolve("troupe-aeron-notapid"));
        awaitHeartbeatStale(left);

        EmbeddedAeron fresh = EmbeddedAeron.launch(settings(dir));
        try {
            assertFalse(Files.exists(left), "the killed JVM's driver directory is removed");
            assertFalse(Files.exists(leftHalfMade), "the half-made directory of the killed JVM is removed");
            assertTrue(Files.exists(alive), "a live process's directory stays");
            assertTrue(Files.exists(notTroupes), "a directory not named as Troupe names its drivers' stays");
            assertFalse(Files.exists(deadHost), "the killed cluster's host directory is removed");
            assertTrue(Files.exists(youngHost), "a host directory younger than a cluster's start stays");
            assertTrue(Files.exists(liveHost), "a host directory with a live JVM's directory stays");
            assertTrue(Files.exists(fresh.directory().resolve("cnc.dat")), "the new driver runs");
        } finally {
            fresh.close();
        }
    }

    /**
     * A host's directory holding a standalone driver's directory that never started and {@code jvmDirectory};
     * {@code old}: last changed before the grace a cluster's start has.
     */
    private Path host(String name, String jvmDirectory, boolean old) throws Exception {
        Path host = Files.createDirectory(dir.resolve(name));
        Files.createDirectory(host.resolve("driver"));
        Files.createDirectory(host.resolve(jvmDirectory));
        if (old) {
            Files.setLastModifiedTime(host, FileTime.fromMillis(
                    System.currentTimeMillis() - 2 * StaleDriverDirectories.HOST_GRACE_MS));
        }
        return host;
    }

    @Test
    void shouldReadTheOwnerPidOfTroupeDriverDirectoriesOnly() {
        assertEquals(OptionalLong.of(4711), StaleDriverDirectories.ownerPid("troupe-aeron-4711-0b06729b-1a67"));
        assertEquals(OptionalLong.empty(), StaleDriverDirectories.ownerPid("troupe-aeron-notapid"));
        assertEquals(OptionalLong.empty(), StaleDriverDirectories.ownerPid("troupe-aeron--1"));
        assertEquals(OptionalLong.empty(), StaleDriverDirectories.ownerPid("aeron-root"));
    }

    /**
     * Waits (bounded) until the killed driver's heartbeat is older than a live driver's ever is: the
     * start removes a directory only then, in case its pid is another namespace's.
     */
    private static void awaitHeartbeatStale(Path driverDirectory) throws InterruptedException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (CommonContext.isDriverActive(driverDirectory.toFile(), StaleDriverDirectories.STALE_HEARTBEAT_MS, m -> { })) {
            assertTrue(System.nanoTime() < deadline, "the killed driver's heartbeat is still fresh after " + BOUND);
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    private static TroupeSettings.Transport settings(Path parent) {
        return TroupeSettings.from(ConfigFactory.parseString("troupe.transport.dir = \"" + parent + "\"")).transport();
    }

    /** The JVM that dies: starts a driver in the directory it is given, says where, and waits to be killed. */
    static final class DriverHost {

        public static void main(String[] args) throws InterruptedException {
            EmbeddedAeron aeron = EmbeddedAeron.launch(settings(Path.of(args[0])));
            System.out.println("READY " + aeron.directory());
            // Killed long before; should the test die first, the JVM still ends (its threads are daemons).
            TimeUnit.MINUTES.sleep(2);
        }
    }
}
