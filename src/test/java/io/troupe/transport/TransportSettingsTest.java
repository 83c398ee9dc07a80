package io.troupe.transport;

import com.typesafe.config.ConfigFactory;
import io.troupe.config.TroupeSettings;
import io.troupe.config.TroupeSettings.ChannelIdle;
import io.troupe.config.TroupeSettings.DriverThreading;
import io.troupe.config.TroupeSettings.GatherTransport;
import io.troupe.config.TroupeSettings.Wakeups;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The troupe.gather.* and troupe.transport.* keys: their defaults and the errors that name a bad value. */
@Timeout(30)
class TransportSettingsTest {

    @Test
    void shouldDefaultToTheMeasuredChoices() {
        TroupeSettings.Transport t = TroupeSettings.load().transport();
        assertEquals(new TroupeSettings.Transport(GatherTransport.AERON, Wakeups.BATCHED, 32, 8 << 20, 65504,
                ChannelIdle.BACKOFF, DriverThreading.SHARED, ""), t);
    }

    @Test
    void shouldReadEveryKey() {
        TroupeSettings.Transport t = parse("""
                troupe.gather.transport = locked-queue
                troupe.gather.wakeups = per-batch
                troupe.gather.queue-capacity = 4
                troupe.transport.term-length = 64k
                troupe.transport.mtu = 8k
                troupe.transport.idle-strategy = yielding
                troupe.transport.driver-threading = dedicated
                troupe.transport.dir = "/tmp/x"
                """);
        assertEquals(new TroupeSettings.Transport(GatherTransport.LOCKED_QUEUE, Wakeups.PER_BATCH, 4, 65536, 8192,
                ChannelIdle.YIELDING, DriverThreading.DEDICATED, "/tmp/x"), t);
    }

    @Test
    void shouldRejectBadValuesNamingTheKey() {
        assertError("troupe.gather.transport = shm",
                "troupe.gather.transport must be one of aeron, locked-queue, got 'shm'");
        assertError("troupe.gather.wakeups = never",
                "troupe.gather.wakeups must be one of batched, per-batch, got 'never'");
        assertError("troupe.gather.queue-capacity = 0",
                "troupe.gather.queue-capacity must be at least 1, got 0");
        assertError("troupe.transport.term-length = 96k",
                "troupe.transport.term-length must be a power of two in 65536..1073741824 bytes, got 98304");
        assertError("troupe.transport.mtu = 64k",
                "troupe.transport.mtu must be a multiple of 32 in 64..65504 bytes, got 65536");
        assertError("troupe.transport.term-length = 256k\ntroupe.transport.mtu = 65504",
                "troupe.transport.mtu must be at most term-length / 8 = 32768 bytes, got 65504");
        assertError("troupe.transport.idle-strategy = sleep",
                "troupe.transport.idle-strategy must be one of backoff, yielding, busy-spin, got 'sleep'");
        assertError("troupe.transport.term-length = 4g",
                "troupe.transport.term-length must be below 2 GiB, got 4294967296 bytes");
    }

    private static TroupeSettings.Transport parse(String text) {
        return TroupeSettings.from(ConfigFactory.parseString(text)).transport();
    }

    private static void assertError(String text, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> parse(text)).getMessage());
    }
}
