package io.troupe.actors.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.troupe.config.ClusterSettings;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Pekko's settings for a member's actor system (a node's or a client's), from {@code troupe.cluster.*}:
 * a cluster member with its role, over
 * Artery TCP on the configured host and port, its seed nodes, the phi-accrual failure detector's
 * heartbeat and pause, the split-brain resolver (Pekko's is off unless a downing provider is named), no
 * Java serialization (reference.conf turns it off; a node keeps it off even where an application turns it
 * on, since a cluster member takes messages from the network), and none of Pekko's own JVM hooks: the node leaves the cluster and stops its
 * actor system itself ({@link TroupeNode#close()}), from a JVM shutdown hook of its own on SIGTERM.
 *
 * <p>Threadsafe: stateless.
 */
final class ClusterConfig {

    /** The role of a node: a member that holds data and runs queries. */
    static final String NODE_ROLE = "troupe-node";
    /** The role of a client ({@link TroupeCluster}): a member that holds nothing and only submits queries. */
    static final String CLIENT_ROLE = "troupe-client";

    private ClusterConfig() {
    }

    /**
     * A member's Pekko settings over {@code fallback} (the application's, then Pekko's reference), with
     * {@code role}. The split-brain resolver decides by the nodes alone ({@link #NODE_ROLE}): a client that
     * comes and goes never tips which side of a partition stays.
     */
    static Config of(ClusterSettings cluster, Config fallback, String role) {
        String strategy = cluster.downing().name().toLowerCase(Locale.ROOT).replace('_', '-');
        Map<String, Object> settings = Map.ofEntries(
                Map.entry("pekko.actor.provider", "cluster"),
                Map.entry("pekko.cluster.roles", List.of(role)),
                Map.entry("pekko.actor.allow-java-serialization", "off"),
                Map.entry("pekko.remote.artery.transport", "tcp"),
                Map.entry("pekko.remote.artery.canonical.hostname", cluster.host()),
                Map.entry("pekko.remote.artery.canonical.port", cluster.port()),
                Map.entry("pekko.cluster.seed-nodes", cluster.seedNodes().stream()
                        .map(seed -> "pekko://" + cluster.name() + "@" + seed).toList()),
                Map.entry("pekko.cluster.failure-detector.heartbeat-interval", millis(cluster.heartbeatInterval())),
                Map.entry("pekko.cluster.failure-detector.acceptable-heartbeat-pause",
                        millis(cluster.acceptablePause())),
                Map.entry("pekko.cluster.downing-provider-class",
                        "org.apache.pekko.cluster.sbr.SplitBrainResolverProvider"),
                Map.entry("pekko.cluster.split-brain-resolver.active-strategy", strategy),
                Map.entry("pekko.cluster.split-brain-resolver.keep-majority.role", NODE_ROLE),
                Map.entry("pekko.cluster.split-brain-resolver.keep-oldest.role", NODE_ROLE),
                Map.entry("pekko.cluster.split-brain-resolver.stable-after", millis(cluster.stableAfter())),
                // A client and a node may share a JVM (an application, a test): each registers its own MBean.
                Map.entry("pekko.cluster.jmx.multi-mbeans-in-same-jvm", "on"),
                Map.entry("pekko.loglevel", "INFO"),
                Map.entry("pekko.log-dead-letters", "off"),
                Map.entry("pekko.log-dead-letters-during-shutdown", "off"),
                Map.entry("pekko.jvm-shutdown-hooks", "off"),
                Map.entry("pekko.jvm-exit-on-fatal-error", "off"),
                Map.entry("pekko.coordinated-shutdown.run-by-jvm-shutdown-hook", "off"),
                Map.entry("pekko.coordinated-shutdown.exit-jvm", "off"));
        return ConfigFactory.parseMap(settings, "troupe.cluster").withFallback(fallback);
    }

    private static String millis(java.time.Duration duration) {
        return duration.toMillis() + "ms";
    }
}
