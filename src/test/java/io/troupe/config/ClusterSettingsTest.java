package io.troupe.config;

import com.typesafe.config.ConfigFactory;
import io.troupe.config.ClusterSettings.Downing;
import io.troupe.config.ClusterSettings.SeedNode;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@code troupe.cluster.*}, read and validated as the other settings, errors naming the key. */
class ClusterSettingsTest {

    private static ClusterSettings cluster(String text) {
        return ClusterSettings.from(ConfigFactory.parseString(text));
    }

    private static String error(String text) {
        return assertThrows(IllegalArgumentException.class, () -> cluster(text)).getMessage();
    }

    @Test
    void shouldDefaultToALoopbackNodeThatStartsItsOwnCluster() {
        ClusterSettings defaults = cluster("");
        assertEquals("troupe", defaults.name());
        assertEquals("127.0.0.1", defaults.host());
        assertEquals(17355, defaults.port());
        assertEquals(List.of(), defaults.seedNodes());
        assertEquals(Duration.ofSeconds(1), defaults.heartbeatInterval());
        assertEquals(Duration.ofSeconds(3), defaults.acceptablePause());
        assertEquals(Downing.KEEP_MAJORITY, defaults.downing());
        assertEquals(Duration.ofSeconds(7), defaults.stableAfter());
        assertEquals("", defaults.mediaDriverDir());
        assertEquals(16384, defaults.tableChunkRows());
        assertEquals(0, defaults.dataPort());
        assertEquals(25520, defaults.dataPort(25520), "0: the Artery port's number");
        assertEquals(1408, defaults.dataMtu());
        assertEquals(2 << 20, defaults.dataTermLength());
    }

    @Test
    void shouldReadEveryKey() {
        ClusterSettings read = cluster("troupe.cluster { name = t2, host = \"10.0.0.5\", port = 2552,"
                + " seed-nodes = [\"10.0.0.4:2551\", \" h:1 \"], failure-detector.heartbeat-interval = 500ms,"
                + " failure-detector.acceptable-heartbeat-pause = 1s, split-brain-resolver.active-strategy = down-all,"
                + " split-brain-resolver.stable-after = 3s, media-driver-dir = /dev/shm/d,"
                + " table-chunk-rows = 2, data-port = 40123, data-mtu = 8k, data-term-length = 4m }");
        assertEquals(new ClusterSettings("t2", "10.0.0.5", 2552,
                List.of(new SeedNode("10.0.0.4", 2551), new SeedNode("h", 1)), Duration.ofMillis(500),
                Duration.ofSeconds(1), Downing.DOWN_ALL, Duration.ofSeconds(3), "/dev/shm/d", 2, 40123, 8192, 4 << 20), read);
        assertEquals("10.0.0.5:2552", read.address());
        assertEquals(40123, read.dataPort(2552));
    }

    @Test
    void shouldNameTheKeyOfABadValue() {
        assertEquals("troupe.cluster.port must be in 0..65535, got 70000", error("troupe.cluster.port = 70000"));
        assertEquals("troupe.cluster.port must be an integer, got 'x'", error("troupe.cluster.port = x"));
        assertEquals("troupe.cluster.name must be letters, digits, '-' or '_' (not first), got 'my cluster'",
                error("troupe.cluster.name = \"my cluster\""));
        assertEquals("troupe.cluster.host must not be empty", error("troupe.cluster.host = \"\""));
        assertEquals("troupe.cluster.seed-nodes: a seed node is host:port, got 'localhost'",
                error("troupe.cluster.seed-nodes = [localhost]"));
        assertEquals("troupe.cluster.seed-nodes: a seed node's port must be in 1..65535, got 0 in 'h:0'",
                error("troupe.cluster.seed-nodes = [\"h:0\"]"));
        assertEquals("troupe.cluster.split-brain-resolver.active-strategy must be one of keep-majority, keep-oldest,"
                + " down-all, got 'static-quorum'", error("troupe.cluster.split-brain-resolver.active-strategy = static-quorum"));
        assertEquals("troupe.cluster.failure-detector.heartbeat-interval must be a positive duration, got PT0S",
                error("troupe.cluster.failure-detector.heartbeat-interval = 0s"));
        assertEquals("troupe.cluster.split-brain-resolver.stable-after must be a duration (500ms, 3s), got 'soon'",
                error("troupe.cluster.split-brain-resolver.stable-after = soon"));
        assertEquals("troupe.cluster.table-chunk-rows must be at least 1, got 0", error("troupe.cluster.table-chunk-rows = 0"));
        assertEquals("troupe.cluster.data-port must be in 0..65535, got -1", error("troupe.cluster.data-port = -1"));
        assertEquals("troupe.cluster.data-mtu must be a multiple of 32 in 64..65504 bytes, got 1500",
                error("troupe.cluster.data-mtu = 1500"));
        assertEquals("troupe.cluster.data-term-length must be a power of two in 65536..1073741824 bytes and at least"
                + " 8 x data-mtu, got 3000000", error("troupe.cluster.data-term-length = 3000000"));
    }

    @Test
    void shouldGiveTheDataPlaneItsTermUnlessTheIpcFrameDoesNotFit() {
        TroupeSettings.Transport base = TroupeSettings.from(ConfigFactory.empty()).transport();
        assertEquals(2 << 20, cluster("").dataPlane(base).termLengthBytes());
        assertEquals(base.mtuBytes(), cluster("").dataPlane(base).mtuBytes());
        IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
                () -> cluster("troupe.cluster.data-term-length = 256k").dataPlane(base));
        assertEquals("troupe.cluster.data-term-length of 262144 bytes is too small for troupe.transport.mtu = 65504"
                + " (a frame is at most term / 8)", small.getMessage());
    }

    @Test
    void shouldRefuseALoopbackNodeWhoseSeedIsOnAnotherHost() {
        assertEquals("troupe.cluster.host is 127.0.0.1, a loopback address (the default), but seed node"
                        + " 10.0.0.4:2551 is on another host, which cannot reach this one there: set troupe.cluster.host"
                        + " (bin/troupe node --host) to an address of this host that the seed's host reaches",
                error("troupe.cluster.seed-nodes = [\"10.0.0.4:2551\"]"));
        assertEquals("troupe.cluster.host is localhost, a loopback address (the default), but seed node"
                        + " [fd00::4]:2551 is on another host, which cannot reach this one there: set troupe.cluster.host"
                        + " (bin/troupe node --host) to an address of this host that the seed's host reaches",
                error("troupe.cluster { host = localhost, seed-nodes = [\"[fd00::4]:2551\"] }"));
        // Loopback seeds, a routable host, and names (not looked up) are all taken.
        cluster("troupe.cluster.seed-nodes = [\"127.0.0.1:2551\", \"localhost:2552\", \"[::1]:2553\"]");
        cluster("troupe.cluster { host = \"10.0.0.5\", seed-nodes = [\"10.0.0.4:2551\", \"127.0.0.1:2552\"] }");
        cluster("troupe.cluster.seed-nodes = [\"db-7.example:2551\"]");
    }

    @Test
    void shouldRejectAnUnknownClusterKeyWithTheNearestKnownOne() {
        assertEquals("unknown setting troupe.cluster.seeds (did you mean troupe.cluster.host?)",
                error("troupe.cluster.seeds = []"));
        assertEquals("unknown setting troupe.cluster.failure-detector.heartbeat (did you mean"
                        + " troupe.cluster.failure-detector.heartbeat-interval?)",
                error("troupe.cluster.failure-detector.heartbeat = 1s"));
    }
}
