package io.troupe.transport;

import io.aeron.driver.MediaDriver;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.transport.aeron.SharedDriverStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Streams between two Aeron clients of one media driver, as two JVMs of a host have them (the driver
 * here is embedded in the test, each side a {@link SharedDriverStreams} of its own): batches arrive in
 * order and whole, a consumer that does not read holds the producer back (BACK_PRESSURED, with a 64 KiB
 * term), a consumer that leaves makes the producer's offers CLOSED, a producer that leaves without an
 * end of stream is PRODUCER_GONE to the consumer, and a session nobody publishes is a clear error (or
 * nothing, when the caller gives up waiting first).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SharedDriverStreamsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int ROWS = 1024;

    @TempDir
    Path dir;

    private MediaDriver driver;
    private SharedDriverStreams producerSide;
    private SharedDriverStreams consumerSide;

    @BeforeEach
    void startDriverAndClients() throws InterruptedException {
        Path driverDir = dir.resolve("driver");
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context().aeronDirectoryName(driverDir.toString())
                .dirDeleteOnShutdown(true));
        TroupeSettings.Transport settings = ChannelHarness.settings(dir, "troupe.transport.term-length = 64k\n"
                + "troupe.transport.mtu = 4096");
        producerSide = SharedDriverStreams.connect(driverDir, settings, WAIT);
        consumerSide = SharedDriverStreams.connect(driverDir, settings, WAIT);
    }

    @AfterEach
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {producerSide, consumerSide, driver}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
    }

    @Test
    void shouldDeliverEveryBatchInOrderAndHoldBackTheProducerOfAConsumerThatDoesNotRead() throws Exception {
        SharedDriverStreams.Outgoing out = producerSide.publish();
        BatchSender sender = out.sender();
        assertEquals(BatchSender.NOT_CONNECTED, sender.offer(ChannelHarness.twoLongs(0, ROWS)), "nobody reads yet");
        BatchReceiver receiver = consumerSide.subscribe(out.streamId(), out.sessionId(), WAIT);
        await(out::isConnected, "the producer sees the subscription");

        int batches = 500; // 16 KiB each: far more than a 64 KiB term holds
        int sent = 0;
        Batch batch = ChannelHarness.twoLongs(0, ROWS);
        long result;
        while ((result = sender.offer(batch)) > 0) {
            sent++;
            assertTrue(sent < batches, "never back-pressured");
            batch = ChannelHarness.twoLongs((long) sent * ROWS, ROWS);
        }
        assertEquals(BatchSender.BACK_PRESSURED, result, "the unread log is full");
        assertTrue(sent > 0, "some batches went before the log filled");

        // The same batch is offered again until it is sent: part of it may be in the log already.
        ChannelHarness.SumHandler handler = new ChannelHarness.SumHandler();
        while (sent < batches) {
            while (sender.offer(batch) < 0) {
                receiver.poll(handler, ChannelHarness.POLL_LIMIT);
            }
            sent++;
            batch = ChannelHarness.twoLongs((long) sent * ROWS, ROWS);
        }
        while (sender.offerEndOfStream() < 0) {
            receiver.poll(handler, ChannelHarness.POLL_LIMIT);
        }
        sender.close();
        assertEquals(BatchReceiver.State.END_OF_STREAM, ChannelHarness.receiveAll(receiver, handler));
        long n = (long) batches * ROWS;
        assertEquals(n, handler.rows);
        assertEquals(3 * (n * (n - 1) / 2), handler.sum, "i + 2i over every row");
        assertEquals(1, handler.endOfStreams);
        receiver.close();
        assertEquals(0, producerSide.openStreams());
        assertEquals(0, consumerSide.openStreams());
    }

    @Test
    void shouldTellTheProducerThatTheConsumerLeft() throws Exception {
        SharedDriverStreams.Outgoing out = producerSide.publish();
        BatchReceiver receiver = subscribedWithOneBatch(out);
        receiver.close();
        await(() -> out.sender().offer(ChannelHarness.twoLongs(ROWS, ROWS)) == BatchSender.CLOSED,
                "the producer's offers are CLOSED once the consumer left");
        out.sender().close();
        assertEquals(0, producerSide.openStreams());
    }

    @Test
    void shouldTellTheConsumerThatTheProducerLeftWithoutAnEnd() throws Exception {
        SharedDriverStreams.Outgoing out = producerSide.publish();
        BatchReceiver receiver = subscribedWithOneBatch(out);
        out.sender().close();
        ChannelHarness.SumHandler handler = new ChannelHarness.SumHandler();
        assertEquals(BatchReceiver.State.PRODUCER_GONE, ChannelHarness.receiveAll(receiver, handler));
        assertEquals(ROWS, handler.rows, "what was sent before it left still arrives");
        receiver.close();
        assertEquals(0, consumerSide.openStreams());
    }

    @Test
    void shouldRefuseASessionNobodyPublishesAndADirectoryWithoutADriver() throws InterruptedException {
        IllegalStateException none = assertThrows(IllegalStateException.class,
                () -> consumerSide.subscribe(SharedDriverStreams.STREAM_ID, 12_345, Duration.ofMillis(200)));
        assertTrue(none.getMessage().contains("session 12345"), none.getMessage());
        assertEquals(0, consumerSide.openStreams(), "the subscription was closed");
        assertNull(consumerSide.subscribe(SharedDriverStreams.STREAM_ID, 12_345, WAIT, () -> true),
                "the caller gave up first");
        assertEquals(0, consumerSide.openStreams(), "the subscription was closed");
        IllegalStateException noDriver = assertThrows(IllegalStateException.class, () -> SharedDriverStreams.connect(
                dir.resolve("nothing"), ChannelHarness.settings(dir, ""), Duration.ofMillis(200)));
        assertTrue(noDriver.getMessage().contains("no Aeron media driver runs in " + dir.resolve("nothing")),
                noDriver.getMessage());
    }

    /** Subscribes the consumer to {@code out}, waits until the producer sees it, and sends one batch. */
    private BatchReceiver subscribedWithOneBatch(SharedDriverStreams.Outgoing out) throws InterruptedException {
        BatchReceiver receiver = consumerSide.subscribe(out.streamId(), out.sessionId(), WAIT);
        await(out::isConnected, "the producer sees the subscription");
        assertTrue(ChannelHarness.send(out.sender(), ChannelHarness.twoLongs(0, ROWS)) > 0);
        return receiver;
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError(what + ": not within " + WAIT.toSeconds() + " s");
            }
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }
}
