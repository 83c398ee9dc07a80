package io.troupe.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Locale;

/**
 * Troupe's settings, read once from Typesafe Config (reference.conf documents every key) and
 * validated on the way in: a bad value fails fast with its key path. Immutable and threadsafe.
 * Nothing else in Troupe reads configuration or system properties.
 *
 * @param batchSize  rows per batch ({@code troupe.batch-size})
 * @param matchFlags how probes record matches ({@code troupe.hash.match-flags})
 * @param transport  how batches move between workers ({@code troupe.gather.*}, {@code troupe.transport.*})
 * @param workers    how many workers run a query, on how many threads ({@code troupe.workers.*})
 * @param memory     query memory: chunk size, preallocation, budget, per-query limit
 *                   ({@code troupe.hash.chunk-size}, {@code troupe.memory.*})
 * @param spill      what operators over the budget do ({@code troupe.spill.*})
 * @param admission  how many queries run at once and how the others wait ({@code troupe.admission.*})
 * @param metrics    how a Troupe is monitored ({@code troupe.metrics.*})
 * @param spread     how a query spread over nodes joins ({@code troupe.spread.*})
 * @param sql        how SQL statements are planned ({@code troupe.sql.*})
 */
public record TroupeSettings(int batchSize, MatchFlags matchFlags, Transport transport, Workers workers,
                             Memory memory, Spill spill, Admission admission, Metrics metrics, Spread spread,
                             Sql sql) {

    /** Lesson 1's switch: see {@code troupe.hash.match-flags} in reference.conf. */
    public enum MatchFlags {
        /**
         * Flags only for the joins that read them (RIGHT, FULL); read the flag, store only when not
         * yet set: cache lines stay shared between probers.
         */
        CHECK_BEFORE_WRITE,
        /**
         * Every hash join keeps flags and stores one on every match, as PostgreSQL 12 did (the
         * baseline the lesson measures against).
         */
        ALWAYS_WRITE
    }

    /** Lesson 3's switch: see {@code troupe.gather.transport} in reference.conf. */
    public enum GatherTransport {
        /** An Aeron IPC log buffer per producer: no locks, positions instead of wake-ups. */
        AERON,
        /** A bounded ring under a monitor with wait/notify (the baseline the lesson measures against). */
        LOCKED_QUEUE
    }

    /** When the locked queue wakes the other side: see {@code troupe.gather.wakeups}. */
    public enum Wakeups {
        /** Only once a quarter of the ring has changed hands, or at end of stream (shm_mq's rule). */
        BATCHED,
        /** After every batch (shm_mq before PostgreSQL 11 and 15). */
        PER_BATCH
    }

    /** How a channel end waits when it can make no progress: see {@code troupe.transport.idle-strategy}. */
    public enum ChannelIdle {
        /** Spin, then yield, then park from 1 us up to 1 ms (Agrona's BackoffIdleStrategy). */
        BACKOFF,
        /** Thread.yield() between tries. */
        YIELDING,
        /** Spin on the core: only where every thread has a core of its own. */
        BUSY_SPIN
    }

    /** Which threads run the embedded media driver: see {@code troupe.transport.driver-threading}. */
    public enum DriverThreading {
        /** One thread for the driver's conductor, sender and receiver. */
        SHARED,
        /** Conductor, sender and receiver on three threads of their own. */
        DEDICATED
    }

    /**
     * The transport settings ({@code troupe.gather.*} and {@code troupe.transport.*}).
     *
     * @param gatherTransport    {@code troupe.gather.transport}
     * @param wakeups            {@code troupe.gather.wakeups}
     * @param queueCapacity      {@code troupe.gather.queue-capacity}: batches in a locked-queue ring
     * @param termLengthBytes    {@code troupe.transport.term-length}: Aeron term per channel
     * @param mtuBytes           {@code troupe.transport.mtu}: largest Aeron frame, header included
     * @param idleStrategy       {@code troupe.transport.idle-strategy}
     * @param driverThreading    {@code troupe.transport.driver-threading}
     * @param directoryParent    {@code troupe.transport.dir}: where the driver's directory is made; empty
     *                           means /dev/shm when it has room for the driver and 16 channels, else
     *                           java.io.tmpdir
     */
    public record Transport(GatherTransport gatherTransport, Wakeups wakeups, int queueCapacity,
                            int termLengthBytes, int mtuBytes, ChannelIdle idleStrategy,
                            DriverThreading driverThreading, String directoryParent) {

        public static final int MIN_TERM_LENGTH = 64 * 1024;
        public static final int MAX_TERM_LENGTH = 1 << 30;
        /** Aeron's limit: a frame must fit a UDP payload, in 32-byte steps. */
        public static final int MAX_MTU = 65504;
        public static final int MIN_MTU = 64;

        public Transport {
            if (queueCapacity < 1) {
                throw new IllegalArgumentException("troupe.gather.queue-capacity must be at least 1, got "
                        + queueCapacity);
            }
            if (termLengthBytes < MIN_TERM_LENGTH || termLengthBytes > MAX_TERM_LENGTH
                    || Integer.bitCount(termLengthBytes) != 1) {
                throw new IllegalArgumentException("troupe.transport.term-length must be a power of two in "
                        + MIN_TERM_LENGTH + ".." + MAX_TERM_LENGTH + " bytes, got " + termLengthBytes);
            }
            if (mtuBytes < MIN_MTU || mtuBytes > MAX_MTU || mtuBytes % 32 != 0) {
                throw new IllegalArgumentException("troupe.transport.mtu must be a multiple of 32 in "
                        + MIN_MTU + ".." + MAX_MTU + " bytes, got " + mtuBytes);
            }
            // Aeron refuses a publication whose MTU exceeds its largest message (term / 8).
            if (mtuBytes > termLengthBytes / 8) {
                throw new IllegalArgumentException("troupe.transport.mtu must be at most term-length / 8 = "
                        + termLengthBytes / 8 + " bytes, got " + mtuBytes);
            }
            if (directoryParent == null) {
                throw new IllegalArgumentException("troupe.transport.dir must not be null (empty means the default)");
            }
        }

        /** These settings with another term length (checked as term-length is). */
        public Transport withTermLength(int bytes) {
            return new Transport(gatherTransport, wakeups, queueCapacity, bytes, mtuBytes, idleStrategy,
                    driverThreading, directoryParent);
        }
    }

    /**
     * The parallel executor's settings ({@code troupe.workers.*}).
     *
     * @param threads        {@code troupe.workers.threads}: threads of the dispatcher that runs the
     *                       CPU-bound workers; 0 in the file means one per available processor
     * @param defaultWorkers {@code troupe.workers.default}: workers per query when the caller does not
     *                       say ("auto" in the file: one per available processor); 0 runs the query on
     *                       the caller's thread (the leader alone)
     * @param leaderParticipation {@code troupe.gather.leader-participation}: whether a Gather runs
     *                       morsels of its pipeline itself when no batch is ready
     */
    public record Workers(int threads, int defaultWorkers, boolean leaderParticipation) {

        public static final int MAX_WORKERS = 256;

        public Workers {
            if (threads < 1 || threads > MAX_WORKERS) {
                throw new IllegalArgumentException("troupe.workers.threads must be in 1.." + MAX_WORKERS + ", got " + threads);
            }
            if (defaultWorkers < 0 || defaultWorkers > MAX_WORKERS) {
                throw new IllegalArgumentException("troupe.workers.default must be in 0.." + MAX_WORKERS + ", got " + defaultWorkers);
            }
        }
    }

    /**
     * Query memory: lesson 2's chunks and preallocation, the budget of all queries, the limit of one.
     *
     * @param chunkBytes       {@code troupe.hash.chunk-size}: bytes per hash-table chunk, a power of two
     * @param preallocateBytes {@code troupe.memory.preallocate}: bytes allocated and pre-touched at
     *                         start and reused by every query; 0 allocates on demand ("off")
     * @param budgetBytes      {@code troupe.memory.budget}: the most memory all queries may hold together
     * @param queryLimitBytes  {@code troupe.memory.query-limit}: the most one query may hold, at most the budget
     */
    public record Memory(int chunkBytes, long preallocateBytes, long budgetBytes, long queryLimitBytes) {

        public static final int MIN_CHUNK_BYTES = 4 * 1024;
        public static final int MAX_CHUNK_BYTES = 64 * 1024 * 1024;

        public Memory {
            if (chunkBytes < MIN_CHUNK_BYTES || chunkBytes > MAX_CHUNK_BYTES || Integer.bitCount(chunkBytes) != 1) {
                throw new IllegalArgumentException("troupe.hash.chunk-size must be a power of two in "
                        + MIN_CHUNK_BYTES + ".." + MAX_CHUNK_BYTES + " bytes, got " + chunkBytes);
            }
            if (preallocateBytes < 0) {
                throw new IllegalArgumentException("troupe.memory.preallocate must not be negative, got " + preallocateBytes);
            }
            if (budgetBytes < chunkBytes) {
                throw new IllegalArgumentException("troupe.memory.budget must hold at least one chunk ("
                        + chunkBytes + " bytes), got " + budgetBytes);
            }
            if (queryLimitBytes < chunkBytes || queryLimitBytes > budgetBytes) {
                throw new IllegalArgumentException("troupe.memory.query-limit must be between one chunk ("
                        + chunkBytes + " bytes) and troupe.memory.budget (" + budgetBytes + " bytes), got "
                        + queryLimitBytes);
            }
        }

        /** Query memory whose per-query limit is the whole budget. */
        public Memory(int chunkBytes, long preallocateBytes, long budgetBytes) {
            this(chunkBytes, preallocateBytes, budgetBytes, budgetBytes);
        }
    }

    /**
     * Admission control ({@code troupe.admission.*}): how many queries run at once, how many wait and
     * for how long, and what each is given of the memory budget when it is admitted.
     *
     * @param maxConcurrent     {@code troupe.admission.max-concurrent}: queries that run at once
     * @param queueSize         {@code troupe.admission.queue-size}: queries that may wait; 0 rejects at once
     * @param queueTimeout      {@code troupe.admission.queue-timeout}: the longest a query waits
     * @param queryMemoryBytes  {@code troupe.admission.query-memory}: bytes set aside per admitted query,
     *                          -1 for auto (the budget divided by max-concurrent)
     */
    public record Admission(int maxConcurrent, int queueSize, Duration queueTimeout, long queryMemoryBytes) {

        /** {@code query-memory = auto}. */
        public static final long AUTO = -1;

        public Admission {
            if (maxConcurrent < 1) {
                throw new IllegalArgumentException("troupe.admission.max-concurrent must be at least 1, got "
                        + maxConcurrent);
            }
            if (queueSize < 0) {
                throw new IllegalArgumentException("troupe.admission.queue-size must not be negative, got " + queueSize);
            }
            if (queueTimeout == null || queueTimeout.isNegative()) {
                throw new IllegalArgumentException("troupe.admission.queue-timeout must not be negative, got "
                        + queueTimeout);
            }
            if (queryMemoryBytes < AUTO) {
                throw new IllegalArgumentException("troupe.admission.query-memory must not be negative, got "
                        + queryMemoryBytes);
            }
        }

        /** The bytes each admitted query is given of {@code budgetBytes}: the setting, or auto's share. */
        public long queryMemoryBytes(long budgetBytes) {
            return queryMemoryBytes == AUTO ? budgetBytes / maxConcurrent : queryMemoryBytes;
        }
    }

    /**
     * What an operator over the memory budget does ({@code troupe.spill.*}).
     *
     * @param enabled       {@code troupe.spill.enabled}: write to temp files and go on; false fails the query
     * @param directory     {@code troupe.spill.directory}: where spill files go; empty means java.io.tmpdir
     * @param maxSizeBytes  {@code troupe.spill.max-size}: the most bytes of spill files all queries may hold
     */
    public record Spill(boolean enabled, String directory, long maxSizeBytes) {

        public Spill {
            if (directory == null) {
                throw new IllegalArgumentException("troupe.spill.directory must not be null (empty means java.io.tmpdir)");
            }
            if (maxSizeBytes < 0) {
                throw new IllegalArgumentException("troupe.spill.max-size must not be negative, got " + maxSizeBytes);
            }
        }

        /** The directory spill files go under: the setting, or java.io.tmpdir when it is empty. */
        public Path directoryPath() {
            return Path.of(directory.isEmpty() ? System.getProperty("java.io.tmpdir") : directory);
        }
    }

    /**
     * How a Troupe is monitored ({@code troupe.metrics.*}); Micrometer needs no setting (the host binds
     * {@code io.troupe.actors.metrics.TroupeMetrics} to its registry).
     *
     * @param jmx {@code troupe.metrics.jmx}: register an MXBean {@code io.troupe:type=Troupe,name=troupe-N}
     *            in the platform MBean server while the Troupe runs
     */
    public record Metrics(boolean jmx) {
    }

    /** How a hash join of a spread query meets its rows: {@code troupe.spread.join} in reference.conf. */
    public enum JoinDistribution {
        /** Broadcast a build side of at most {@code broadcast-max-rows} input rows, else repartition. */
        AUTO,
        /** Every node builds the whole build side. */
        BROADCAST,
        /** Both sides by the hash of the join keys. */
        REPARTITION
    }

    /**
     * How a query spread over nodes joins.
     *
     * @param join             {@code troupe.spread.join}
     * @param broadcastMaxRows {@code troupe.spread.broadcast-max-rows}: AUTO's bound on a broadcast build
     *                         side's input rows
     */
    public record Spread(JoinDistribution join, long broadcastMaxRows) {
        public Spread {
            if (join == null || broadcastMaxRows < 0) {
                throw new IllegalArgumentException("troupe.spread.join must be set and troupe.spread.broadcast-max-rows"
                        + " at least 0, got " + join + " and " + broadcastMaxRows);
            }
        }
    }

    /**
     * How SQL statements are planned.
     *
     * @param joinOrderLimit {@code troupe.sql.join-order-limit}: how long one statement's joins may take to
     *                       order by cost before they run as written
     * @param optimizePlans  {@code troupe.sql.optimize-plans}: whether plans built with the Java API are optimized as
     *                       SQL statements are before they run (except their pinned parts)
     * @param timeZone       {@code troupe.sql.time-zone}: the zone a SQL session shows and reads times with a
     *                       zone in, unless its statement or connection names another
     * @param recursionLimit {@code troupe.sql.recursion-limit}: how many times the recursive term of a WITH
     *                       RECURSIVE (or a plan's recursive union) may run before the query fails
     */
    public record Sql(Duration joinOrderLimit, boolean optimizePlans, ZoneId timeZone, int recursionLimit) {
        public Sql {
            if (recursionLimit < 1) {
                throw new IllegalArgumentException("troupe.sql.recursion-limit must be at least 1, got "
                        + recursionLimit);
            }
            if (joinOrderLimit == null || joinOrderLimit.isNegative()) {
                throw new IllegalArgumentException("troupe.sql.join-order-limit must be 0 or more, got "
                        + joinOrderLimit);
            }
            if (timeZone == null) {
                throw new IllegalArgumentException("troupe.sql.time-zone must name a zone");
            }
        }
    }

    public static final int MAX_BATCH_SIZE = 1 << 20;

    /** The settings before lesson 2's: memory and spill as reference.conf's defaults give them. */
    public TroupeSettings(int batchSize, MatchFlags matchFlags, Transport transport, Workers workers) {
        this(batchSize, matchFlags, transport, workers, from(ConfigFactory.empty()).memory());
    }

    /** The settings with spill and admission as reference.conf's defaults give them. */
    public TroupeSettings(int batchSize, MatchFlags matchFlags, Transport transport, Workers workers, Memory memory) {
        this(batchSize, matchFlags, transport, workers, memory, from(ConfigFactory.empty()).spill());
    }

    /** The settings with admission as reference.conf's defaults give it. */
    public TroupeSettings(int batchSize, MatchFlags matchFlags, Transport transport, Workers workers, Memory memory,
                          Spill spill) {
        this(batchSize, matchFlags, transport, workers, memory, spill, from(ConfigFactory.empty()).admission());
    }

    /** The settings with metrics as reference.conf's defaults give them. */
    public TroupeSettings(int batchSize, MatchFlags matchFlags, Transport transport, Workers workers, Memory memory,
                          Spill spill, Admission admission) {
        this(batchSize, matchFlags, transport, workers, memory, spill, admission,
                from(ConfigFactory.empty()).metrics());
    }

    /** The settings with spread queries' joins as reference.conf's defaults give them. */
    public TroupeSettings(int batchSize, MatchFlags matchFlags, Transport transport, Workers workers, Memory memory,
                          Spill spill, Admission admission, Metrics metrics) {
        this(batchSize, matchFlags, transport, workers, memory, spill, admission, metrics,
                from(ConfigFactory.empty()).spread());
    }

    /** The settings with SQL planning as reference.conf's defaults give it. */
    public TroupeSettings(int batchSize, MatchFlags matchFlags, Transport transport, Workers workers, Memory memory,
                          Spill spill, Admission admission, Metrics metrics, Spread spread) {
        this(batchSize, matchFlags, transport, workers, memory, spill, admission, metrics, spread,
                from(ConfigFactory.empty()).sql());
    }

    public TroupeSettings {
        if (memory == null) {
            throw new IllegalArgumentException("troupe memory settings must not be null");
        }
        if (spill == null) {
            throw new IllegalArgumentException("troupe spill settings must not be null");
        }
        if (admission == null) {
            throw new IllegalArgumentException("troupe admission settings must not be null");
        }
        if (metrics == null) {
            throw new IllegalArgumentException("troupe metrics settings must not be null");
        }
        if (spread == null) {
            throw new IllegalArgumentException("troupe spread settings must not be null");
        }
        if (sql == null) {
            throw new IllegalArgumentException("troupe sql settings must not be null");
        }
        if (transport == null) {
            throw new IllegalArgumentException("troupe transport settings must not be null");
        }
        if (workers == null) {
            throw new IllegalArgumentException("troupe workers settings must not be null");
        }
        if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
            throw new IllegalArgumentException("troupe.batch-size must be in 1.." + MAX_BATCH_SIZE + ", got " + batchSize);
        }
    }

    /** The defaults, overridden by application.conf and -Dtroupe.* system properties. */
    public static TroupeSettings load() {
        return from(ConfigFactory.load());
    }

    /**
     * Reads the {@code troupe} section of {@code config} (with reference.conf's defaults under it).
     *
     * @throws IllegalArgumentException naming the key (its full path) when a key under {@code troupe}
     *         is none that reference.conf sets (with the nearest that it does), or a value is bad
     */
    public static TroupeSettings from(Config config) {
        Config reference = ConfigFactory.defaultReference();
        new SettingKeys(reference).checkKnown(config);
        Config c = config.withFallback(reference).getConfig("troupe");
        try {
            return new TroupeSettings(
                    integer(c, "batch-size"),
                    parseEnum(MatchFlags.class, c, "hash.match-flags"),
                    new Transport(
                            parseEnum(GatherTransport.class, c, "gather.transport"),
                            parseEnum(Wakeups.class, c, "gather.wakeups"),
                            integer(c, "gather.queue-capacity"),
                            intBytes(c, "transport.term-length"),
                            intBytes(c, "transport.mtu"),
                            parseEnum(ChannelIdle.class, c, "transport.idle-strategy"),
                            parseEnum(DriverThreading.class, c, "transport.driver-threading"),
                            c.getString("transport.dir")),
                    new Workers(
                            integer(c, "workers.threads") == 0 ? Runtime.getRuntime().availableProcessors()
                                    : integer(c, "workers.threads"),
                            defaultWorkers(c, "workers.default"),
                            c.getBoolean("gather.leader-participation")),
                    memory(c),
                    new Spill(
                            c.getBoolean("spill.enabled"),
                            c.getString("spill.directory"),
                            spillBytes(c)),
                    admission(c),
                    new Metrics(c.getBoolean("metrics.jmx")),
                    new Spread(parseEnum(JoinDistribution.class, c, "spread.join"),
                            integer(c, "spread.broadcast-max-rows")),
                    new Sql(c.getDuration("sql.join-order-limit"), c.getBoolean("sql.optimize-plans"),
                            timeZone(c.getString("sql.time-zone")), c.getInt("sql.recursion-limit")));
        } catch (ConfigException e) {
            throw new IllegalArgumentException("invalid Troupe setting: " + e.getMessage(), e);
        }
    }

    public TroupeSettings withBatchSize(int newBatchSize) {
        return new TroupeSettings(newBatchSize, matchFlags, transport, workers, memory, spill, admission, metrics,
                spread, sql);
    }

    public TroupeSettings withMatchFlags(MatchFlags newMatchFlags) {
        return new TroupeSettings(batchSize, newMatchFlags, transport, workers, memory, spill, admission, metrics,
                spread, sql);
    }

    public TroupeSettings withWorkers(Workers newWorkers) {
        return new TroupeSettings(batchSize, matchFlags, transport, newWorkers, memory, spill, admission, metrics,
                spread, sql);
    }

    /** These settings with {@code troupe.workers.default = defaultWorkers} (0: the caller's thread alone). */
    public TroupeSettings withDefaultWorkers(int defaultWorkers) {
        return withWorkers(new Workers(workers.threads(), defaultWorkers, workers.leaderParticipation()));
    }

    public TroupeSettings withMemory(Memory newMemory) {
        return new TroupeSettings(batchSize, matchFlags, transport, workers, newMemory, spill, admission, metrics,
                spread, sql);
    }

    public TroupeSettings withSpill(Spill newSpill) {
        return new TroupeSettings(batchSize, matchFlags, transport, workers, memory, newSpill, admission, metrics,
                spread, sql);
    }

    public TroupeSettings withAdmission(Admission newAdmission) {
        return new TroupeSettings(batchSize, matchFlags, transport, workers, memory, spill, newAdmission, metrics,
                spread, sql);
    }

    public TroupeSettings withMetrics(Metrics newMetrics) {
        return new TroupeSettings(batchSize, matchFlags, transport, workers, memory, spill, admission, newMetrics,
                spread, sql);
    }

    public TroupeSettings withSql(Sql newSql) {
        return new TroupeSettings(batchSize, matchFlags, transport, workers, memory, spill, admission, metrics,
                spread, newSql);
    }

    /** These settings with {@code troupe.sql.optimize-plans} {@code on} or off (every plan runs as written). */
    public TroupeSettings withOptimizePlans(boolean on) {
        return withSql(new Sql(sql.joinOrderLimit(), on, sql.timeZone(), sql.recursionLimit()));
    }

    public TroupeSettings withSpread(Spread newSpread) {
        return new TroupeSettings(batchSize, matchFlags, transport, workers, memory, spill, admission, metrics,
                newSpread, sql);
    }

    /** {@code troupe.sql.time-zone}: a zone's name as {@link TimeZones} reads it. */
    private static ZoneId timeZone(String name) {
        try {
            return TimeZones.zone(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("troupe.sql.time-zone: " + e.getMessage(), e);
        }
    }

    private static Memory memory(Config c) {
        long budget = bytesOrPercent(c, "memory.budget", Runtime.getRuntime().maxMemory(), "the heap");
        return new Memory(intBytes(c, "hash.chunk-size"), bytes(c, "memory.preallocate"), budget,
                bytesOrPercent(c, "memory.query-limit", budget, "troupe.memory.budget"));
    }

    private static Admission admission(Config c) {
        String concurrent = c.getString("admission.max-concurrent").trim();
        int maxConcurrent = concurrent.equalsIgnoreCase("auto")
                ? Math.max(4, 2 * Runtime.getRuntime().availableProcessors()) : integer(c, "admission.max-concurrent");
        String memory = c.getString("admission.query-memory").trim();
        long queryMemory = memory.equalsIgnoreCase("auto") ? Admission.AUTO
                : bytesOrPercent(c, "admission.query-memory", memory(c).budgetBytes(), "troupe.memory.budget");
        return new Admission(maxConcurrent, integer(c, "admission.queue-size"), c.getDuration("admission.queue-timeout"),
                queryMemory);
    }

    private static long spillBytes(Config c) {
        Path dir = new Spill(true, c.getString("spill.directory"), 0).directoryPath();
        return bytesOrPercent(c, "spill.max-size", dir.toFile().getUsableSpace(), "the free space of " + dir);
    }

    /** A size in bytes, or a percentage of {@code whole} ("75%"). */
    private static long bytesOrPercent(Config c, String key, long whole, String wholeName) {
        String raw = c.getString(key).trim();
        if (raw.endsWith("%")) {
            double percent;
            try {
                percent = Double.parseDouble(raw.substring(0, raw.length() - 1).trim());
            } catch (NumberFormatException e) {
                percent = -1;
            }
            if (!(percent > 0 && percent <= 100)) {
                throw new IllegalArgumentException("troupe." + key + " must be bytes or a percentage in (0, 100] of "
                        + wholeName + ", got '" + raw + "'");
            }
            return (long) (whole * (percent / 100));
        }
        return bytes(c, key);
    }

    static int intBytes(Config c, String key) {
        long bytes = bytes(c, key);
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("troupe." + key + " must be below 2 GiB, got " + bytes + " bytes");
        }
        return (int) bytes;
    }

    /**
     * An integer setting: a whole number, written as a number or (from a system property) as text.
     * Typesafe's getInt would truncate 1.5 to 1 without a word.
     */
    static int integer(Config c, String key) {
        Object raw = c.getValue(key).unwrapped();
        try {
            if (raw instanceof Integer || raw instanceof Long) {
                return Math.toIntExact(((Number) raw).longValue());
            }
            if (raw instanceof String text) {
                return Integer.parseInt(text.trim());
            }
        } catch (ArithmeticException | NumberFormatException e) {
            // Falls through to the error below.
        }
        throw new IllegalArgumentException("troupe." + key + " must be an integer, got '" + raw + "'");
    }

    /** {@code troupe.workers.default}: "auto", one worker per available processor (at most 256), or a number. */
    private static int defaultWorkers(Config c, String key) {
        Object raw = c.getValue(key).unwrapped();
        if (raw instanceof String text && text.trim().equalsIgnoreCase("auto")) {
            return Math.min(Workers.MAX_WORKERS, Runtime.getRuntime().availableProcessors());
        }
        try {
            return integer(c, key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("troupe." + key + " must be auto or an integer, got '" + raw + "'", e);
        }
    }

    /**
     * A size in bytes: a whole number, or a number with a unit ("32k", "1.5m"). Typesafe's getBytes
     * would truncate a bare 1.5 to 1 byte.
     */
    private static long bytes(Config c, String key) {
        Object raw = c.getValue(key).unwrapped();
        if (raw instanceof Double) {
            throw new IllegalArgumentException("troupe." + key + " must be a whole number of bytes or a size with a unit"
                    + " (32k, 8m), got '" + raw + "'");
        }
        return c.getBytes(key);
    }

    static <E extends Enum<E>> E parseEnum(Class<E> type, Config c, String key) {
        String raw = c.getString(key);
        try {
            return Enum.valueOf(type, raw.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            StringBuilder allowed = new StringBuilder();
            for (E constant : type.getEnumConstants()) {
                allowed.append(allowed.length() == 0 ? "" : ", ")
                        .append(constant.name().toLowerCase(Locale.ROOT).replace('_', '-'));
            }
            throw new IllegalArgumentException("troupe." + key + " must be one of " + allowed + ", got '" + raw + "'");
        }
    }
}
