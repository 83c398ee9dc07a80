package io.troupe.transport.aeron;

import io.aeron.CommonContext;
import io.aeron.driver.Configuration;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.troupe.config.TroupeSettings;
import org.agrona.concurrent.BackoffIdleStrategy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A host's standalone Aeron media driver: a JVM of its own running Aeron's {@link MediaDriver#main}, whose
 * directory every Troupe JVM on the host shares, so that {@code aeron:ipc} log buffers are shared memory
 * between them (one driver per host, not one per JVM, whose owner's death would take the others'
 * channels with it). This class says how to start one ({@link #systemProperties}: sized as
 * {@link EmbeddedAeron} sizes its own, its directory deleted on start and on shutdown) and whether one runs
 * in a directory ({@link #isActive}); Aeron's main closes the driver, and so deletes the directory, on
 * SIGTERM or SIGINT.
 *
 * <p>Threadsafe: stateless.
 */
public final class StandaloneDriver {

    /** Aeron's own check: a driver that has not stamped its heartbeat for this long is gone. */
    private static final long HEARTBEAT_TIMEOUT_MS = 2_000;
    private static final long POLL_MS = 50;

    private StandaloneDriver() {
    }

    /**
     * A new name under {@code parent} for a host's directory: its standalone driver's directory and those of
     * the JVMs that use it go inside, and the whole goes when they stop, or at a later start of a driver on the
     * host once all of it is stale ({@link StaleDriverDirectories}).
     */
    public static Path newHostDirectory(Path parent) {
        return parent.resolve(StaleDriverDirectories.HOST_PREFIX + UUID.randomUUID().toString().substring(0, 8));
    }

    /** The class whose {@code main} runs the driver. */
    public static String mainClass() {
        return MediaDriver.class.getName();
    }

    /**
     * The {@code -D} options of a driver in {@code directory} for channels of {@code settings}: one
     * thread with a backoff idle (shared mode: on a few cores a spinning driver starves the queries, see
     * {@link EmbeddedAeron}), IPC terms and MTU as {@code troupe.transport.*} say, Troupe's small counters
     * buffer, short linger and timer interval.
     */
    public static List<String> systemProperties(TroupeSettings.Transport settings, Path directory) {
        return List.of(
                "-D" + CommonContext.AERON_DIR_PROP_NAME + "=" + directory,
                "-D" + Configuration.DIR_DELETE_ON_START_PROP_NAME + "=true",
                "-D" + Configuration.DIR_DELETE_ON_SHUTDOWN_PROP_NAME + "=true",
                "-D" + Configuration.THREADING_MODE_PROP_NAME + "=" + ThreadingMode.SHARED.name(),
                "-D" + Configuration.SHARED_IDLE_STRATEGY_PROP_NAME + "=" + BackoffIdleStrategy.class.getName(),
                "-D" + Configuration.IPC_TERM_BUFFER_LENGTH_PROP_NAME + "=" + settings.termLengthBytes(),
                "-D" + Configuration.IPC_MTU_LENGTH_PROP_NAME + "=" + settings.mtuBytes(),
                "-D" + Configuration.COUNTERS_VALUES_BUFFER_LENGTH_PROP_NAME + "="
                        + EmbeddedAeron.COUNTER_VALUES_BUFFER_LENGTH,
                "-D" + Configuration.PUBLICATION_LINGER_PROP_NAME + "=" + EmbeddedAeron.PUBLICATION_LINGER_NS,
                "-D" + Configuration.TIMER_INTERVAL_PROP_NAME + "=" + EmbeddedAeron.TIMER_INTERVAL_NS);
    }

    /** Whether a driver runs in {@code directory}: its files are there and its heartbeat is fresh. */
    public static boolean isActive(Path directory) {
        try {
            return CommonContext.isDriverActive(directory.toFile(), HEARTBEAT_TIMEOUT_MS, message -> { });
        } catch (RuntimeException e) {
            // Files there but not (yet) a driver's: a driver still starting, or one that died starting.
            return false;
        }
    }

    /** Waits, at most {@code timeout}, for a driver to run in {@code directory}; whether one does. */
    public static boolean awaitActive(Path directory, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!isActive(directory)) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MS);
        }
        return true;
    }
}
