package io.troupe.actors.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.troupe.config.ClusterSettings;

import java.util.Locale;
import java.util.Map;

/**
 * Pekko's settings for a node's actor system, from {@code troupe.cluster.*}: a cluster member over
 * Artery TCP on the configured host and port, its seed nodes, the phi-accrual failure detector's
 * heartbeat and pause, the split-brain resolver (Pekko's is off unless a downing provider is named), no
 * Java serialization (reference.conf turns it off; a node keeps it off even where an application turns it
 * on, since a cluster member takes messages from the network), and none of Pekko's own JVM hooks: the node leaves the cluster and stops its
 * actor system itself ({@link TroupeNode#close()}), from a JVM shutdown hook of its own on SIGTERM.
 *
 * <p>Threadsafe: stateless.
 */
final class ClusterConfig {

    private ClusterConfig() {
    }

    /** The node's Pekko settings over {@code fallback} (the application's, then Pekko's reference). */
    static Config of(ClusterSettings cluster, Config fallback) {
        Map<String, Object> settings = Map.ofEntries(
                Map.entry("pekko.actor.provider", "cluster"),
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
                Map.entry("pekko.cluster.split-brain-resolver.active-strategy",
                        cluster.downing().name().toLowerCase(Locale.ROOT).replace('_', '-')),
                Map.entry("pekko.cluster.split-brain-resolver.stable-after", millis(cluster.stableAfter())),
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
