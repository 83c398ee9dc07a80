package io.troupe.transport.aeron;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.driver.status.PublisherLimit;
import io.aeron.driver.status.SubscriberPos;
import io.troupe.config.TroupeSettings;
import org.agrona.CloseHelper;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An embedded Aeron media driver and the one Aeron client Troupe uses with it: launched in a
 * directory of its own ({@code troupe-aeron-<pid>-<unique>} under {@code troupe.transport.dir}),
 * deleted on start and on shutdown, so that two Troupes never share or inherit a driver. The
 * directories of drivers whose JVM ended without closing them go when the next one starts
 * ({@link StaleDriverDirectories}).
 *
 * <p>Sizing: the driver's own files come to 12 MiB here instead
 * of Aeron's default 47 MiB (measured: cnc.dat 11 MiB, of which counters take 5 MiB at Aeron's 1 MiB
 * minimum of values instead of its 8 MiB default, since Troupe needs a few counters per channel, not
 * tens of thousands; the error log and loss report stay at their minimums, 4 MiB and 1 MiB), and
 * each channel adds 3 terms + 4 KiB: 24 MiB at the default 8 MiB term. Unless
 * {@code troupe.transport.dir} says where, the directory goes to /dev/shm when it has room for the
 * driver and {@value #ROOM_FOR_CHANNELS} channels (about 400 MiB at the default term), else to
 * java.io.tmpdir (a container's default /dev/shm is 64 MiB, and the driver refuses a log that does
 * not fit); the choice is logged.
 *
 * <p>Threads: one driver thread in {@code shared} mode (the default: on 2 cores the driver must not
 * compete with the workers, yet its conductor moves every IPC producer's limit, so it idles with a
 * backoff, never a busy spin, which measured 6x slower here), ours rather than
 * Aeron's so that an Error cannot end it ({@link DriverDutyCycle}); three of Aeron's in
 * {@code dedicated} mode, plus the client's conductor thread. The shared-mode driver thread and the
 * conductor back off only while a channel needs them ({@link #channelInUse}, {@link #awaitingImage})
 * and otherwise rest ({@link DemandIdleStrategy}): an idle Troupe's Aeron threads wake about 120 times a
 * second, not 2,000. All are daemon threads (an embedded
 * library must not keep the JVM alive), named by Aeron after their roles and, for the driver, its
 * directory; {@link #close()} stops them and unmaps every file.
 *
 * <p>Threadsafe: {@link #aeron()} is Aeron's threadsafe client; {@link #close()} may be called once
 * everything using the client has stopped.
 */
public final class EmbeddedAeron implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedAeron.class);

    /** Aeron's minimum; its default (8 MiB values, 32 MiB metadata) is most of its 47 MiB footprint. */
    static final int COUNTER_VALUES_BUFFER_LENGTH = 1024 * 1024;
    /** IPC logs are drained before they linger; a short linger frees /dev/shm soon after a query. */
    static final long PUBLICATION_LINGER_NS = 100_000_000L;
    /**
     * How often the driver checks its timeouts, linger included: 100 ms instead of 1 s, so that a
     * closed channel's log leaves /dev/shm in about 0.2 s rather than 1.8 s (measured), at the cost of
     * ten cheap timer checks a second.
     */
    static final long TIMER_INTERVAL_NS = 100_000_000L;
    /**
     * How long the client conductor and the driver's duty cycle park at a time while nobody waits on them
     * (Aeron's client default): {@link DemandIdleStrategy}. The conductor is what tells a subscription
     * that its producer's log is there, so while a new channel waits for that it looks every millisecond
     * at most (Aeron's 16 ms made every new channel wait 15-16 ms for its first batch, measured); the
     * driver moves every IPC producer's limit, so it is as prompt while a channel is in use. The clients
     * of a shared driver ({@link SharedDriverStreams}) rest as long.
     */
    static final long AGENT_REST_NS = 16_000_000L;
    /**
     * How long the driver and the client wait to hear from each other before each gives the other up:
     * a minute instead of Aeron's 10 s. Both live in this JVM, so the only death these timeouts could
     * see is the JVM's own; what they do see is a stall that stops both, a long GC pause or a starved
     * machine, after which the client closes for good and every later query of the Troupe fails
     * (measured: "MediaDriver keepalive: age=15446ms > timeout=10000ms", then "client is closed", in a
     * full suite beside two other builds). A publication whose producer died mid-write is unblocked
     * after a little longer, as Aeron requires.
     */
    static final long LIVENESS_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    static final long PUBLICATION_UNBLOCK_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(75);
    /** The driver's own files, 12 MiB as measured (see the sizing note above), rounded up. */
    static final long DRIVER_BYTES = 13L * 1024 * 1024;
    /** Channels the default directory must have room for: a few queries' workers plus the pool's idle logs. */
    static final int ROOM_FOR_CHANNELS = 16;
    /** What the JVM must be told for Agrona: its buffers use jdk.internal.misc.Unsafe. */
    public static final String REQUIRED_JVM_FLAG = "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED";
    /** First stream id handed out; each channel gets the next, so no two channels share a stream. */
    private static final int FIRST_STREAM_ID = 1001;

    private final MediaDriver driver;
    /** The thread of the driver's shared agent; null in dedicated mode, where Aeron runs its own. */
    private final DriverDutyCycle dutyCycle;
    /** The duty cycle's idle (unused in dedicated mode, whose threads back off as Aeron's do). */
    private final DemandIdleStrategy driverIdle;
    private final DemandIdleStrategy clientIdle;
    private final Aeron aeron;
    private final Path directory;
    private final AtomicInteger nextStreamId = new AtomicInteger(FIRST_STREAM_ID);

    private EmbeddedAeron(MediaDriver driver, DriverDutyCycle dutyCycle, DemandIdleStrategy driverIdle,
                          DemandIdleStrategy clientIdle, Aeron aeron, Path directory) {
        this.driver = driver;
        this.dutyCycle = dutyCycle;
        this.driverIdle = driverIdle;
        this.clientIdle = clientIdle;
        this.aeron = aeron;
        this.directory = directory;
    }

    /**
     * Launches a driver and connects a client to it.
     *
     * @throws IllegalStateException naming the directory when the driver cannot start, or the JVM flag
     *         it needs when the JVM was started without it
     */
    public static EmbeddedAeron launch(TroupeSettings.Transport settings) {
        try {
            return start(settings);
        } catch (IllegalAccessError e) {
            // Agrona's buffers use jdk.internal.misc.Unsafe, which java.base exports only when asked.
            throw new IllegalStateException("Troupe's Aeron transport needs the JVM flag " + REQUIRED_JVM_FLAG
                    + " (on the java command line, or in Maven Surefire's argLine); without it, set"
                    + " troupe.gather.transport = locked-queue, or troupe.workers.default = 0 to run queries on the"
                    + " caller's thread (" + e.getMessage() + ")", e);
        }
    }

    private static EmbeddedAeron start(TroupeSettings.Transport settings) {
        Path parent = parentDirectory(settings);
        // A driver's directory outlives a JVM that ends without closing it: the ones left go now.
        StaleDriverDirectories.remove(List.of(parent, defaultParent(), tmpdir()));
        Path directory = parent.resolve(StaleDriverDirectories.newName(UUID.randomUUID().toString()));
        MediaDriver.Context driverContext = new MediaDriver.Context()
                .aeronDirectoryName(directory.toString())
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true)
                .warnIfDirectoryExists(false)
                .ipcTermBufferLength(settings.termLengthBytes())
                .ipcMtuLength(settings.mtuBytes())
                .counterValuesBufferLength(COUNTER_VALUES_BUFFER_LENGTH)
                .publicationLingerTimeoutNs(PUBLICATION_LINGER_NS)
                .timerIntervalNs(TIMER_INTERVAL_NS)
                .clientLivenessTimeoutNs(LIVENESS_TIMEOUT_NS)
                .publicationUnblockTimeoutNs(PUBLICATION_UNBLOCK_TIMEOUT_NS)
                // Its tasks are UDP's (network publications, subscriptions, name resolution): IPC needs
                // no extra thread polling for them. Turn it back on with the UDP channels.
                .asyncExecutorEnabled(false)
                .errorHandler(error -> warn("[{}] Aeron driver error", directory, error));
        ThreadFactory driverThreads = daemonThreads("troupe-aeron-driver");
        if (settings.driverThreading() == TroupeSettings.DriverThreading.DEDICATED) {
            driverContext.threadingMode(ThreadingMode.DEDICATED)
                    .conductorIdleStrategy(new BackoffIdleStrategy())
                    .senderIdleStrategy(new BackoffIdleStrategy())
                    .receiverIdleStrategy(new BackoffIdleStrategy())
                    .conductorThreadFactory(driverThreads)
                    .senderThreadFactory(driverThreads)
                    .receiverThreadFactory(driverThreads);
        } else {
            // Aeron's SHARED mode, on a thread of ours that an Error cannot end (see DriverDutyCycle).
            driverContext.threadingMode(ThreadingMode.INVOKER);
        }
        MediaDriver driver = null;
        DriverDutyCycle dutyCycle = null;
        DemandIdleStrategy driverIdle = new DemandIdleStrategy(AGENT_REST_NS);
        DemandIdleStrategy clientIdle = new DemandIdleStrategy(AGENT_REST_NS);
        try {
            driver = MediaDriver.launchEmbedded(driverContext);
            if (driver.sharedAgentInvoker() != null) {
                dutyCycle = DriverDutyCycle.start(driver.sharedAgentInvoker(), driverIdle, driverThreads);
            }
            Aeron aeron = Aeron.connect(new Aeron.Context()
                    .aeronDirectoryName(directory.toString())
                    .threadFactory(daemonThreads("troupe-aeron-client"))
                    .idleStrategy(clientIdle)
                    .driverTimeoutMs(TimeUnit.NANOSECONDS.toMillis(LIVENESS_TIMEOUT_NS))
                    .errorHandler(error -> warn("[{}] Aeron client error", directory, error)));
            LOG.debug("[{}] embedded Aeron started", directory);
            return new EmbeddedAeron(driver, dutyCycle, driverIdle, clientIdle, aeron, directory);
        } catch (RuntimeException e) {
            CloseHelper.quietCloseAll(dutyCycle, driver);
            throw new IllegalStateException("cannot start the embedded Aeron media driver in " + directory
                    + " (troupe.transport.dir): " + e.getMessage(), e);
        }
    }

    /** The client: threadsafe, shared by every channel of this Troupe. */
    public Aeron aeron() {
        return aeron;
    }

    /** The driver's directory (gone once closed). */
    public Path directory() {
        return directory;
    }

    /**
     * A channel is in use until the demand is released: the driver moves its producer's limit within a
     * millisecond meanwhile, and answers the client's commands as promptly (opening and closing its log).
     */
    DemandIdleStrategy.Demand channelInUse() {
        return driverIdle.demand();
    }

    /** A new subscription waits for its image until the demand is released: the client conductor looks every millisecond. */
    DemandIdleStrategy.Demand awaitingImage() {
        return clientIdle.demand();
    }

    /** A stream id no other channel of this driver has used. */
    public int nextStreamId() {
        return nextStreamId.getAndIncrement();
    }

    /**
     * Publications the driver still holds (its publisher-limit counters). The driver frees a closed
     * IPC publication once its consumer has drained it and a short linger has passed, so this count
     * falls to 0 shortly after the channels close, not at once.
     */
    public int driverPublications() {
        return countCounters(PublisherLimit.PUBLISHER_LIMIT_TYPE_ID);
    }

    /** Subscriber positions the driver still holds: one per subscription linked to a publication. */
    public int driverSubscriberPositions() {
        return countCounters(SubscriberPos.SUBSCRIBER_POSITION_TYPE_ID);
    }

    /** Stops the client, then the driver (its thread, its mapped files, its directory). Idempotent. */
    @Override
    public void close() {
        CloseHelper.closeAll(aeron, dutyCycle, driver);
        LOG.debug("[{}] embedded Aeron stopped", directory);
    }

    @Override
    public String toString() {
        return "EmbeddedAeron[" + directory + "]";
    }

    private int countCounters(int typeId) {
        int[] count = {0};
        aeron.countersReader().forEach((counterId, type, key, label) -> {
            if (type == typeId) {
                count[0]++;
            }
        });
        return count[0];
    }

    /**
     * {@code troupe.transport.dir} when set; else the parent Aeron itself would use (/dev/shm on
     * Linux, else java.io.tmpdir) when it has room for the driver and {@link #ROOM_FOR_CHANNELS}
     * channels, else java.io.tmpdir.
     */
    private static Path parentDirectory(TroupeSettings.Transport settings) {
        if (!settings.directoryParent().isEmpty()) {
            return Path.of(settings.directoryParent());
        }
        Path preferred = defaultParent();
        Path fallback = tmpdir();
        long needed = roomNeeded(settings.termLengthBytes());
        long usable = usableBytes(preferred);
        if (usable >= needed || preferred.equals(fallback)) {
            return preferred;
        }
        LOG.info("{} has {} MiB free, less than the {} MiB the Aeron driver and {} channels of {} KiB terms "
                        + "need: its directory goes to {} (troupe.transport.dir chooses)", preferred, usable >> 20,
                needed >> 20, ROOM_FOR_CHANNELS, settings.termLengthBytes() >> 10, fallback);
        return fallback;
    }

    /** Where Aeron itself puts a driver's directory: /dev/shm on Linux, else java.io.tmpdir. */
    private static Path defaultParent() {
        return Path.of(CommonContext.AERON_DIR_PROP_DEFAULT).getParent();
    }

    private static Path tmpdir() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** Bytes the driver and {@link #ROOM_FOR_CHANNELS} channels map: each channel 3 terms and a 4 KiB trailer. */
    static long roomNeeded(int termLengthBytes) {
        return DRIVER_BYTES + ROOM_FOR_CHANNELS * (3L * termLengthBytes + 4096);
    }

    /** Free bytes of the file store holding {@code directory}; 0 when it cannot be read (a missing /dev/shm). */
    private static long usableBytes(Path directory) {
        try {
            return Files.getFileStore(directory).getUsableSpace();
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * Logs an error of the driver's or the client's agent, unless logging itself fails: on a full heap
     * it may throw an OutOfMemoryError of its own, which would end the agent's thread.
     */
    private static void warn(String format, Path directory, Throwable error) {
        try {
            LOG.warn(format, directory, error);
        } catch (Throwable ignored) {
            // Nothing left to report it with; the agent goes on.
        }
    }

    private static ThreadFactory daemonThreads(String name) {
        AtomicInteger next = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + next.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
