package io.troupe.transport;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.StringVector;
import io.troupe.transport.BatchReceiver.State;
import io.troupe.transport.ChannelHarness.SumHandler;
import io.troupe.transport.aeron.EmbeddedAeron;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static io.troupe.transport.ChannelHarness.receiveAll;
import static io.troupe.transport.ChannelHarness.send;
import static io.troupe.transport.ChannelHarness.sendEndOfStream;
import static io.troupe.transport.ChannelHarness.twoLongs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The channel contract, over every kind: Aeron IPC, and the locked queue with both wake-up rules.
 * Each test runs a producer and a consumer (on two threads where the test needs them running at
 * once) and checks what arrives, what each end sees when the other leaves, and that nothing stays
 * open.
 */
@Timeout(60)
class BatchChannelTest {

    /** The channel kinds, as settings overrides. */
    enum Kind {
        AERON("troupe.gather.transport = aeron"),
        LOCKED_BATCHED("troupe.gather.transport = locked-queue\ntroupe.gather.wakeups = batched"),
        LOCKED_PER_BATCH("troupe.gather.transport = locked-queue\ntroupe.gather.wakeups = per-batch");

        final String settings;

        Kind(String settings) {
            this.settings = settings;
        }
    }

    @TempDir
    Path dir;

    private TransportRuntime runtime;
    private Thread producer;

    @AfterEach
    void tearDown() throws InterruptedException {
        if (producer != null) {
            producer.interrupt();
            producer.join(10_000);
        }
        if (runtime != null) {
            runtime.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldMoveTwoMillionRowsInOrderAndKeepTheirSum(Kind kind) throws InterruptedException {
        BatchChannel channel = start(kind, "").openChannel();
        long rows = 2_000_000;
        int batchRows = 2048;
        AtomicReference<Throwable> failure = runProducer(() -> {
            for (long first = 0; first < rows; first += batchRows) {
                assertTrue(send(channel.sender(), twoLongs(first, (int) Math.min(batchRows, rows - first))) > 0);
            }
            assertTrue(sendEndOfStream(channel.sender()) > 0);
            channel.sender().close();
        });
        SumHandler handler = new SumHandler();
        assertEquals(State.END_OF_STREAM, receiveAll(channel.receiver(), handler));
        channel.receiver().close();
        producer.join();

        assertNull(failure.get());
        assertEquals(rows, handler.rows);
        assertEquals(3 * (rows * (rows - 1) / 2), handler.sum, "sum of i + 2i over all rows");
        assertEquals((rows + batchRows - 1) / batchRows, handler.batches);
        assertEquals(1, handler.endOfStreams);
        assertEquals(0, runtime.openChannels());
        assertTrue(channel.isClosed());
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldReturnBackPressuredWhenFullAndDeliverEverythingOnceDrained(Kind kind) {
        BatchChannel channel = start(kind, """
                troupe.transport.term-length = 64k
                troupe.transport.mtu = 8k
                troupe.gather.queue-capacity = 4
                """).openChannel();
        BatchSender sender = channel.sender();
        assertTrue(send(sender, twoLongs(0, 64)) > 0, "the first send waits out NOT_CONNECTED");
        long first = 64;
        long result;
        int sent = 1;
        while ((result = sender.offer(twoLongs(first, 64))) > 0) {
            first += 64;
            sent++;
            assertTrue(sent < 10_000, "no back-pressure after " + sent + " batches");
        }
        assertEquals(BatchSender.BACK_PRESSURED, result);
        Batch refused = twoLongs(first, 64);
        assertEquals(BatchSender.BACK_PRESSURED, sender.offer(refused), "still full without a consumer");

        SumHandler handler = new SumHandler();
        // Aeron tells a subscription of its image asynchronously: poll until all that was sent is in.
        while (handler.rows < 64L * sent) {
            channel.receiver().idle(channel.receiver().poll(handler, ChannelHarness.POLL_LIMIT));
        }
        assertEquals(64L * sent, handler.rows);
        assertTrue(send(sender, refused) > 0);
        assertTrue(sendEndOfStream(sender) > 0);
        sender.close();
        assertEquals(State.END_OF_STREAM, receiveAll(channel.receiver(), handler));
        assertEquals(64L * (sent + 1), handler.rows);
        channel.receiver().close();
        assertEquals(0, runtime.openChannels());
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldDeliverEmptyBatchesAndTheEndOfStream(Kind kind) {
        BatchChannel channel = start(kind, "").openChannel();
        BatchSender sender = channel.sender();
        assertTrue(send(sender, twoLongs(0, 0)) > 0);
        assertTrue(sendEndOfStream(sender) > 0);
        assertEquals("offer after end of stream on " + channel,
                assertThrows(IllegalStateException.class, () -> sender.offer(twoLongs(0, 1))).getMessage());
        sender.close();

        SumHandler handler = new SumHandler();
        assertEquals(State.END_OF_STREAM, receiveAll(channel.receiver(), handler));
        assertEquals(1, handler.batches);
        assertEquals(0, handler.rows);
        assertEquals(1, handler.endOfStreams);
        assertEquals(0, channel.receiver().poll(handler, 1), "nothing after the end of stream");
        channel.receiver().close();
        assertEquals(State.END_OF_STREAM, channel.receiver().state(), "the stream ended before the close");
        assertEquals(0, runtime.openChannels());
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldTellTheConsumerWhenTheProducerLeavesWithoutEndOfStream(Kind kind)
            throws InterruptedException, IOException {
        BatchChannel channel = start(kind, "").openChannel();
        for (int i = 0; i < 3; i++) {
            assertTrue(send(channel.sender(), twoLongs(100L * i, 100)) > 0);
        }
        channel.sender().close();
        assertEquals(BatchSender.CLOSED, channel.sender().offer(twoLongs(300, 1)));

        SumHandler handler = new SumHandler();
        assertEquals(State.PRODUCER_GONE, receiveAll(channel.receiver(), handler));
        assertEquals(300, handler.rows, "every batch sent before the close arrives");
        assertEquals(0, handler.endOfStreams);
        channel.receiver().close();
        assertEquals(0, runtime.openChannels());
        assertDriverReleasesEverything();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldStopARunningProducerWhenTheConsumerCancels(Kind kind) throws InterruptedException, IOException {
        BatchChannel channel = start(kind, "").openChannel();
        AtomicLong lastResult = new AtomicLong();
        AtomicReference<Throwable> failure = runProducer(() -> {
            long result;
            long first = 0;
            do {
                result = send(channel.sender(), twoLongs(first, 1024));
                first += 1024;
            } while (result > 0);
            lastResult.set(result);
            channel.sender().close();
        });
        SumHandler handler = new SumHandler();
        while (handler.batches < 20) {
            channel.receiver().idle(channel.receiver().poll(handler, 4));
        }
        channel.receiver().close();
        assertEquals(State.CLOSED, channel.receiver().state());
        assertEquals(0, channel.receiver().poll(handler, 4));
        producer.join();

        assertNull(failure.get());
        assertEquals(BatchSender.CLOSED, lastResult.get());
        assertEquals(0, runtime.openChannels());
        assertDriverReleasesEverything();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldWakeAProducerWaitingOnAFullChannelWhenTheConsumerCancels(Kind kind) throws InterruptedException {
        BatchChannel channel = start(kind, """
                troupe.transport.term-length = 64k
                troupe.transport.mtu = 8k
                troupe.gather.queue-capacity = 4
                """).openChannel();
        AtomicLong lastResult = new AtomicLong();
        AtomicLong sent = new AtomicLong();
        AtomicReference<Throwable> failure = runProducer(() -> {
            long result;
            while ((result = send(channel.sender(), twoLongs(0, 256))) > 0) {
                sent.incrementAndGet();
            }
            lastResult.set(result);
        });
        // The consumer never polls: the producer fills the channel and waits in idle() until the close.
        while (producer.getState() == Thread.State.RUNNABLE || sent.get() == 0) {
            Thread.sleep(10);
        }
        channel.receiver().close();
        producer.join();

        assertNull(failure.get());
        assertEquals(BatchSender.CLOSED, lastResult.get());
        assertFalse(channel.isClosed(), "the sender is still open");
        channel.sender().close();
        assertTrue(channel.isClosed());
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldRethrowWhatTheHandlerThrowsFromPoll(Kind kind) {
        BatchChannel channel = start(kind, "").openChannel();
        assertTrue(send(channel.sender(), twoLongs(0, 10)) > 0);
        BatchHandler failing = new BatchHandler() {
            @Override
            public void onBatch(Batch batch) {
                throw new IllegalStateException("consumer failed on " + batch.size() + " rows");
            }

            @Override
            public void onEndOfStream() {
            }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
            while (true) {
                channel.receiver().idle(channel.receiver().poll(failing, 4));
            }
        });
        assertEquals("consumer failed on 10 rows", e.getMessage());
        channel.close();
        assertEquals(0, runtime.openChannels());
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldSendOnlyTheSelectedRows(Kind kind) {
        BatchChannel channel = start(kind, "").openChannel();
        Batch dense = twoLongs(0, 100);
        int[] odd = new int[50];
        Arrays.setAll(odd, i -> 2 * i + 1);
        assertTrue(send(channel.sender(), dense.withSelection(odd, 50)) > 0);
        assertTrue(sendEndOfStream(channel.sender()) > 0);
        channel.sender().close();

        List<Batch> received = new ArrayList<>();
        assertEquals(State.END_OF_STREAM, receiveAll(channel.receiver(), collector(received)));
        channel.receiver().close();
        assertEquals(1, received.size());
        Batch batch = received.get(0);
        assertEquals(50, batch.size());
        for (int i = 0; i < 50; i++) {
            assertEquals(Arrays.asList(2L * i + 1, 4L * i + 2), Arrays.asList(batch.rowObjects(i)), "live row " + i);
        }
    }

    @Test
    void shouldSplitABatchLargerThanTheLargestMessageAndResumeItAfterBackPressure() {
        BatchChannel channel = start(Kind.AERON, """
                troupe.transport.term-length = 64k
                troupe.transport.mtu = 8k
                """).openChannel();
        BatchSender sender = channel.sender();
        // 8192 rows of 16 bytes = 128 KiB: several 8 KiB messages (term / 8), more than the term holds.
        Batch large = twoLongs(0, 8192);
        long first;
        while ((first = sender.offer(large)) == BatchSender.NOT_CONNECTED) {
            sender.idle(0); // the subscription connects asynchronously (bounded by @Timeout)
        }
        assertEquals(BatchSender.BACK_PRESSURED, first);
        assertEquals("offer of " + twoLongs(0, 1) + " while " + large + " is partly sent on " + channel
                        + ": offer that batch again until it is sent",
                assertThrows(IllegalStateException.class, () -> sender.offer(twoLongs(0, 1))).getMessage());
        SumHandler handler = new SumHandler();
        while (true) {
            long result = sender.offer(large);
            if (result > 0) {
                break;
            }
            assertEquals(BatchSender.BACK_PRESSURED, result);
            drain(channel.receiver(), handler);
            sender.idle(0);
        }
        assertTrue(sendEndOfStream(sender) > 0);
        sender.close();
        assertEquals(State.END_OF_STREAM, receiveAll(channel.receiver(), handler));
        channel.receiver().close();
        assertEquals(8192, handler.rows, "every row once, in order (the handler checks the order)");
        assertTrue(handler.batches >= 16, "sent as messages of at most 8 KiB: batches=" + handler.batches);
    }

    @Test
    void shouldRefuseARowLargerThanTheLargestMessage() {
        BatchChannel channel = start(Kind.AERON, """
                troupe.transport.term-length = 64k
                troupe.transport.mtu = 8k
                """).openChannel();
        StringVector text = new StringVector(1);
        text.put(0, "x".repeat(10_000));
        Batch wide = Batch.of(1, text);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> channel.sender().offer(wide));
        assertTrue(e.getMessage().startsWith("live row 0 of " + wide + " encodes to 10032 bytes, more than the largest"
                + " message of 8192 bytes on " + channel), e.getMessage());
        channel.close();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldCloseChannelsLeftOpenWhenTheRuntimeCloses(Kind kind) {
        start(kind, "");
        List<BatchChannel> channels = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            BatchChannel channel = runtime.openChannel();
            assertTrue(send(channel.sender(), twoLongs(0, 10)) > 0);
            channels.add(channel);
        }
        assertEquals(3, runtime.openChannels());
        Path driverDirectory = runtime.aeron().map(EmbeddedAeron::directory).orElse(null);
        runtime.close();

        assertEquals(0, runtime.openChannels());
        for (BatchChannel channel : channels) {
            assertTrue(channel.isClosed());
            assertEquals(BatchSender.CLOSED, channel.sender().offer(twoLongs(0, 1)));
            assertEquals(State.CLOSED, channel.receiver().state());
        }
        if (driverDirectory != null) {
            assertFalse(Files.exists(driverDirectory), driverDirectory + " still exists");
        }
        assertEquals("transport runtime is closed",
                assertThrows(IllegalStateException.class, () -> runtime.openChannel()).getMessage());
    }

    private TransportRuntime start(Kind kind, String overrides) {
        runtime = TransportRuntime.start(ChannelHarness.settings(dir, kind.settings + "\n" + overrides));
        assertEquals(kind == Kind.AERON, runtime.aeron().isPresent(), "driver started only for Aeron");
        return runtime;
    }

    private AtomicReference<Throwable> runProducer(Runnable body) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        producer = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "test-producer");
        producer.start();
        return failure;
    }

    /** Polls until a poll delivers nothing. */
    private static void drain(BatchReceiver receiver, BatchHandler handler) {
        while (receiver.poll(handler, ChannelHarness.POLL_LIMIT) > 0) {
            assertSame(State.OPEN, receiver.state());
        }
    }

    private static BatchHandler collector(List<Batch> into) {
        return new BatchHandler() {
            @Override
            public void onBatch(Batch batch) {
                into.add(batch);
            }

            @Override
            public void onEndOfStream() {
            }
        };
    }

    /**
     * The driver frees a closed IPC log once drained and after a short linger, and deletes its file
     * a conductor cycle after it drops the log's counters: wait up to 10 s for both, then check.
     */
    private void assertDriverReleasesEverything() throws InterruptedException, IOException {
        if (runtime.aeron().isEmpty()) {
            return;
        }
        EmbeddedAeron aeron = runtime.aeron().get();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while ((aeron.driverPublications() > 0 || aeron.driverSubscriberPositions() > 0 || logFiles(aeron) > 0)
                && System.nanoTime() - deadline < 0) {
            Thread.sleep(20);
        }
        assertEquals(0, aeron.driverPublications(), "publications left in the driver");
        assertEquals(0, aeron.driverSubscriberPositions(), "subscriptions left in the driver");
        assertEquals(0, logFiles(aeron), "log buffers left in " + aeron.directory());
    }

    private static long logFiles(EmbeddedAeron aeron) throws IOException {
        try (var logs = Files.list(aeron.directory().resolve("publications"))) {
            return logs.count();
        }
    }
}
