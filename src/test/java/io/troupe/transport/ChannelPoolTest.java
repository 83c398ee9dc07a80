package io.troupe.transport;

import io.troupe.transport.BatchReceiver.State;
import io.troupe.transport.ChannelHarness.SumHandler;
import io.troupe.transport.aeron.AeronChannelPool;
import io.troupe.transport.aeron.AeronIpcChannel;
import io.troupe.transport.aeron.EmbeddedAeron;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.troupe.transport.ChannelHarness.receiveAll;
import static io.troupe.transport.ChannelHarness.send;
import static io.troupe.transport.ChannelHarness.sendEndOfStream;
import static io.troupe.transport.ChannelHarness.twoLongs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Aeron channel pool of a {@link TransportRuntime}: a channel whose stream ended cleanly leaves
 * its log for the next channel, which starts connected where the last one ended and keeps the whole
 * channel contract; a channel that ended any other way closes its log; close closes the idle ones.
 */
@Timeout(60)
class ChannelPoolTest {

    @TempDir
    Path dir;

    private TransportRuntime runtime;

    @BeforeEach
    void start() {
        runtime = TransportRuntime.start(ChannelHarness.settings(dir, "troupe.gather.transport = aeron"));
    }

    @AfterEach
    void tearDown() {
        runtime.close();
    }

    @Test
    void aCleanChannelLeavesItsLogForTheNextWhichStartsConnected() {
        AeronIpcChannel first = (AeronIpcChannel) runtime.openChannel();
        runAll(first, 10);
        assertEquals(0, runtime.openChannels());
        assertEquals(1, runtime.idleChannels());

        AeronIpcChannel second = (AeronIpcChannel) runtime.openChannel();
        assertEquals(first.streamId(), second.streamId(), "the same log");
        assertEquals(0, runtime.idleChannels());
        assertFalse(second.isClosed());
        assertTrue(first.isClosed(), "the first channel stays closed");
        // Connected from the start: the very first offer goes through.
        assertTrue(second.sender().offer(twoLongs(0, 5)) > 0);
        SumHandler handler = new SumHandler();
        assertTrue(sendEndOfStream(second.sender()) > 0);
        second.sender().close();
        assertEquals(State.END_OF_STREAM, receiveAll(second.receiver(), handler));
        second.receiver().close();
        assertEquals(5, handler.rows, "only the second channel's rows");
        assertEquals(1, handler.endOfStreams);
        assertEquals(1, runtime.idleChannels());
    }

    @Test
    void aProducerThatLeavesAReusedLogWithoutAnEndOfStreamIsSeenGone() {
        runAll((AeronIpcChannel) runtime.openChannel(), 3);
        BatchChannel reused = runtime.openChannel();
        assertTrue(send(reused.sender(), twoLongs(0, 7)) > 0);
        reused.sender().close();
        SumHandler handler = new SumHandler();
        assertEquals(State.PRODUCER_GONE, receiveAll(reused.receiver(), handler));
        assertEquals(7, handler.rows);
        reused.receiver().close();
        assertEquals(0, runtime.idleChannels(), "a log whose stream did not end cleanly is closed");

        runAll((AeronIpcChannel) runtime.openChannel(), 3);
        BatchChannel silent = runtime.openChannel();
        silent.sender().close();
        assertEquals(State.PRODUCER_GONE, receiveAll(silent.receiver(), new SumHandler()),
                "gone without a batch: the reused log's start position counts as consumed");
        silent.receiver().close();
        assertEquals(0, runtime.idleChannels());
        assertEquals(0, runtime.openChannels());
    }

    @Test
    void aConsumerThatLeavesEarlyClosesTheLog() {
        BatchChannel channel = runtime.openChannel();
        assertTrue(send(channel.sender(), twoLongs(0, 7)) > 0);
        assertTrue(sendEndOfStream(channel.sender()) > 0);
        channel.receiver().close();
        channel.sender().close();
        assertEquals(0, runtime.idleChannels(), "the end of stream was never delivered");
        assertEquals(0, runtime.openChannels());
    }

    @Test
    void thePoolKeepsABoundedNumberAndCloseClosesThem() {
        List<AeronIpcChannel> channels = new ArrayList<>();
        for (int i = 0; i < AeronChannelPool.MAX_IDLE + 2; i++) {
            channels.add((AeronIpcChannel) runtime.openChannel());
        }
        for (AeronIpcChannel channel : channels) {
            runAll(channel, 1);
        }
        assertEquals(AeronChannelPool.MAX_IDLE, runtime.idleChannels());
        assertEquals(0, runtime.openChannels());
        Path driverDirectory = runtime.aeron().map(EmbeddedAeron::directory).orElseThrow();
        runtime.close();
        assertEquals(0, runtime.idleChannels());
        assertFalse(Files.exists(driverDirectory), driverDirectory + " still exists");
    }

    /** Sends {@code batches} batches and the end of stream, receives them all, closes both ends. */
    private static void runAll(AeronIpcChannel channel, int batches) {
        for (int i = 0; i < batches; i++) {
            assertTrue(send(channel.sender(), twoLongs(i * 10L, 10)) > 0);
        }
        assertTrue(sendEndOfStream(channel.sender()) > 0);
        channel.sender().close();
        SumHandler handler = new SumHandler();
        assertEquals(State.END_OF_STREAM, receiveAll(channel.receiver(), handler));
        assertEquals(10L * batches, handler.rows);
        channel.receiver().close();
        assertTrue(channel.isClosed());
    }
}
