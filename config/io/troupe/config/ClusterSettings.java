package io.troupe.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The settings of a Troupe node in a cluster ({@code troupe.cluster.*}; reference.conf documents each),
 * read and validated as {@link TroupeSettings} reads its own: a bad value fails with its key path, and
 * an unknown key under {@code troupe} with the nearest known one. Kept apart from {@link TroupeSettings}
 * because only cluster members (a node, {@code io.troupe.actors.cluster.TroupeNode}, and a client,
 * {@code TroupeCluster}, which binds port 0 whatever {@code port} says) read them: a Troupe in one JVM
 * never starts a cluster.
 *
 * <p>Immutable and threadsafe.
 *
 * @param name              {@code troupe.cluster.name}: the actor system's name, the same on every node
 *                          (Pekko joins only systems of one name)
 * @param host              {@code troupe.cluster.host}: the address other nodes reach this one at, and
 *                          the one Artery TCP binds to
 * @param port              {@code troupe.cluster.port}: Artery TCP's port; 0 takes any free one
 * @param seedNodes         {@code troupe.cluster.seed-nodes}: nodes to join through; empty, or this
 *                          node's own address first, makes this node start the cluster
 * @param heartbeatInterval {@code troupe.cluster.failure-detector.heartbeat-interval}
 * @param acceptablePause   {@code troupe.cluster.failure-detector.acceptable-heartbeat-pause}
 * @param downing           {@code troupe.cluster.split-brain-resolver.active-strategy}
 * @param stableAfter       {@code troupe.cluster.split-brain-resolver.stable-after}
 * @param mediaDriverDir    {@code troupe.cluster.media-driver-dir}: the directory of the host's
 *                          standalone Aeron media driver; empty when there is none
 * @param tableChunkRows    {@code troupe.cluster.table-chunk-rows}: rows per chunk of the tables a node
 *                          loads from files ({@code node --tables}), the unit a spread scan deals out
 * @param dataPort          {@code troupe.cluster.data-port}: the UDP port on {@code host} where batch
 *                          streams from nodes on other hosts arrive; 0 means the number of the Artery
 *                          port this node bound ({@link #dataPort(int)})
 * @param dataMtu           {@code troupe.cluster.data-mtu}: the largest Aeron frame of those streams
 * @param dataTermLength    {@code troupe.cluster.data-term-length}: the Aeron term of every stream a node
 *                          publishes (to another node, or its rows to a client)
 */
public record ClusterSettings(String name, String host, int port, List<SeedNode> seedNodes,
                              Duration heartbeatInterval, Duration acceptablePause, Downing downing,
                              Duration stableAfter, String mediaDriverDir, int tableChunkRows, int dataPort,
                              int dataMtu, int dataTermLength) {

    /** Pekko's rule for an actor system's name. */
    private static final Pattern SYSTEM_NAME = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_-]*");
    public static final int MAX_PORT = 65535;
    /** An IPv4 or IPv6 address literal, which {@link InetAddress#getByName} reads without a lookup. */
    private static final Pattern ADDRESS_LITERAL = Pattern.compile("[0-9.]+|\\[?[0-9a-fA-F:.]*:[0-9a-fA-F:.]*]?");

    /** How the split-brain resolver decides which side of a partition goes down. */
    public enum Downing {
        /** The side with more members stays; on a tie, the side with the lowest address. */
        KEEP_MAJORITY,
        /** The side with the oldest member stays. */
        KEEP_OLDEST,
        /** Every member goes down: for clusters that must never run split. */
        DOWN_ALL
    }

    /**
     * A node to join through.
     *
     * @param host its {@code troupe.cluster.host}
     * @param port its {@code troupe.cluster.port}
     */
    public record SeedNode(String host, int port) {

        public SeedNode {
            if (host == null || host.isBlank()) {
                throw new IllegalArgumentException("a seed node's host must not be empty");
            }
            if (port < 1 || port > MAX_PORT) {
                throw new IllegalArgumentException("a seed node's port must be in 1.." + MAX_PORT + ", got " + port);
            }
        }

        /**
         * {@code host:port}.
         *
         * @throws IllegalArgumentException saying what is wrong with {@code text}
         */
        public static SeedNode parse(String text) {
            String trimmed = text.trim();
            int colon = trimmed.lastIndexOf(':');
            if (colon <= 0 || colon == trimmed.length() - 1) {
                throw new IllegalArgumentException("a seed node is host:port, got '" + text + "'");
            }
            int port;
            try {
                port = Integer.parseInt(trimmed.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("a seed node is host:port with a numeric port, got '" + text + "'");
            }
            try {
                return new SeedNode(trimmed.substring(0, colon), port);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(e.getMessage() + " in '" + text + "'");
            }
        }

        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    public ClusterSettings {
        if (name == null || !SYSTEM_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("troupe.cluster.name must be letters, digits, '-' or '_' (not first),"
                    + " got '" + name + "'");
        }
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("troupe.cluster.host must not be empty");
        }
        if (port < 0 || port > MAX_PORT) {
            throw new IllegalArgumentException("troupe.cluster.port must be in 0.." + MAX_PORT + ", got " + port);
        }
        if (seedNodes == null) {
            throw new IllegalArgumentException("troupe.cluster.seed-nodes must not be null (empty: start a cluster)");
        }
        seedNodes = List.copyOf(seedNodes);
        positive(heartbeatInterval, "troupe.cluster.failure-detector.heartbeat-interval");
        positive(acceptablePause, "troupe.cluster.failure-detector.acceptable-heartbeat-pause");
        if (downing == null) {
            throw new IllegalArgumentException("troupe.cluster.split-brain-resolver.active-strategy must not be null");
        }
        positive(stableAfter, "troupe.cluster.split-brain-resolver.stable-after");
        if (mediaDriverDir == null) {
            throw new IllegalArgumentException("troupe.cluster.media-driver-dir must not be null (empty: none)");
        }
        if (tableChunkRows < 1) {
            throw new IllegalArgumentException("troupe.cluster.table-chunk-rows must be at least 1, got " + tableChunkRows);
        }
        if (dataPort < 0 || dataPort > MAX_PORT) {
            throw new IllegalArgumentException("troupe.cluster.data-port must be in 0.." + MAX_PORT + ", got " + dataPort);
        }
        if (dataMtu < TroupeSettings.Transport.MIN_MTU || dataMtu > TroupeSettings.Transport.MAX_MTU || dataMtu % 32 != 0) {
            throw new IllegalArgumentException("troupe.cluster.data-mtu must be a multiple of 32 in " + TroupeSettings.Transport.MIN_MTU
                    + ".." + TroupeSettings.Transport.MAX_MTU + " bytes, got " + dataMtu);
        }
        if (dataTermLength < TroupeSettings.Transport.MIN_TERM_LENGTH
                || dataTermLength > TroupeSettings.Transport.MAX_TERM_LENGTH || Integer.bitCount(dataTermLength) != 1
                || dataMtu > dataTermLength / 8) {
            throw new IllegalArgumentException("troupe.cluster.data-term-length must be a power of two in "
                    + TroupeSettings.Transport.MIN_TERM_LENGTH + ".." + TroupeSettings.Transport.MAX_TERM_LENGTH
                    + " bytes and at least 8 x data-mtu, got " + dataTermLength);
        }
        checkReachable(host, seedNodes);
    }

    /**
     * The transport settings of the streams a node publishes, {@code base} with {@link #dataTermLength}.
     *
     * @throws IllegalArgumentException when troupe.transport.mtu does not fit the term
     */
    public TroupeSettings.Transport dataPlane(TroupeSettings.Transport base) {
        if (base.mtuBytes() > dataTermLength / 8) {
            throw new IllegalArgumentException("troupe.cluster.data-term-length of " + dataTermLength + " bytes is too"
                    + " small for troupe.transport.mtu = " + base.mtuBytes() + " (a frame is at most term / 8)");
        }
        return base.withTermLength(dataTermLength);
    }

    /**
     * Refuses a node (or client) bound to loopback, which is the default, that is told to join through a
     * seed on another host: the seed could never reach it back. Host names are left to Artery.
     */
    private static void checkReachable(String host, List<SeedNode> seedNodes) {
        if (loopback(host) != Boolean.TRUE) {
            return;
        }
        for (SeedNode seed : seedNodes) {
            if (loopback(seed.host()) == Boolean.FALSE) {
                throw new IllegalArgumentException("troupe.cluster.host is " + host + ", a loopback address (the"
                        + " default), but seed node " + seed + " is on another host, which cannot reach this one"
                        + " there: set troupe.cluster.host (bin/troupe node --host) to an address of this host"
                        + " that the seed's host reaches");
            }
        }
    }

    /**
     * Whether {@code host} is a loopback address: true for "localhost" and address literals in 127.0.0.0/8
     * or ::1, false for other literals, null for names, which are not looked up (settings are read without
     * waiting on DNS).
     */
    private static Boolean loopback(String host) {
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        if (!ADDRESS_LITERAL.matcher(host).matches()) {
            return null;
        }
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** The UDP port of this node's data plane when its Artery port is {@code boundPort}. */
    public int dataPort(int boundPort) {
        return dataPort != 0 ? dataPort : boundPort;
    }

    /** The defaults, overridden by application.conf and -Dtroupe.* system properties. */
    public static ClusterSettings load() {
        return from(ConfigFactory.load());
    }

    /**
     * Reads {@code troupe.cluster} of {@code config} (with reference.conf's defaults under it).
     *
     * @throws IllegalArgumentException naming the key (its full path) when a key under {@code troupe}
     *         is none that reference.conf sets, or a value is bad
     */
    public static ClusterSettings from(Config config) {
        Config reference = ConfigFactory.defaultReference();
        new SettingKeys(reference).checkKnown(config);
        Config c = config.withFallback(reference).getConfig("troupe");
        try {
            return new ClusterSettings(
                    c.getString("cluster.name"),
                    c.getString("cluster.host"),
                    TroupeSettings.integer(c, "cluster.port"),
                    seedNodes(c),
                    duration(c, "cluster.failure-detector.heartbeat-interval"),
                    duration(c, "cluster.failure-detector.acceptable-heartbeat-pause"),
                    TroupeSettings.parseEnum(Downing.class, c, "cluster.split-brain-resolver.active-strategy"),
                    duration(c, "cluster.split-brain-resolver.stable-after"),
                    c.getString("cluster.media-driver-dir"),
                    TroupeSettings.integer(c, "cluster.table-chunk-rows"),
                    TroupeSettings.integer(c, "cluster.data-port"),
                    TroupeSettings.intBytes(c, "cluster.data-mtu"),
                    TroupeSettings.intBytes(c, "cluster.data-term-length"));
        } catch (ConfigException e) {
            throw new IllegalArgumentException("invalid Troupe setting: " + e.getMessage(), e);
        }
    }

    /** This node's own address, {@code host:port}. */
    public String address() {
        return host + ":" + port;
    }

    private static List<SeedNode> seedNodes(Config c) {
        List<SeedNode> seeds = new ArrayList<>();
        for (String text : c.getStringList("cluster.seed-nodes")) {
            try {
                seeds.add(SeedNode.parse(text));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("troupe.cluster.seed-nodes: " + e.getMessage(), e);
            }
        }
        return seeds;
    }

    /** A duration ("500ms", "3s"); Typesafe's own error would name the key without its "troupe." */
    private static Duration duration(Config c, String key) {
        try {
            return c.getDuration(key);
        } catch (ConfigException.BadValue | ConfigException.WrongType e) {
            throw new IllegalArgumentException("troupe." + key + " must be a duration (500ms, 3s), got '"
                    + c.getValue(key).unwrapped() + "'", e);
        }
    }

    private static void positive(Duration duration, String key) {
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(key + " must be a positive duration, got " + duration);
        }
    }
}
