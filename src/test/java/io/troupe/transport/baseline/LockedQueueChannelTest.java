package io.troupe.transport.baseline;

import io.troupe.config.TroupeSettings.Wakeups;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.transport.BatchHandler;
import io.troupe.transport.BatchReceiver;
import io.troupe.transport.BatchSender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The locked queue's wake-up rules: how many signals each sends, and that batched ones never strand a side. */
@Timeout(60)
class LockedQueueChannelTest {

    @Test
    void shouldSignalPerBatchOrOncePerQuarterOfTheRing() {
        assertEquals(32 + 32 + 2, signalsToMove(Wakeups.PER_BATCH),
                "each put and each take, the end of stream's included");
        assertEquals(4 + 1 + 1, signalsToMove(Wakeups.BATCHED),
                "a put signal per 8 batches, one take signal for 32 taken at once, then the end of stream");
    }

    @Test
    void shouldNeverStrandEitherSideWithBatchedOrPerBatchWakeups() throws InterruptedException {
        for (Wakeups wakeups : Wakeups.values()) {
            for (int capacity : new int[] {1, 2, 3, 5, 8}) {
                moveWithRandomPacing(new LockedQueueChannel(capacity, wakeups, () -> { }), 10_000, capacity);
            }
        }
    }

    @Test
    void shouldWakeAParkedConsumerOnFlushBeforeAQuarterIsPut() throws InterruptedException {
        LockedQueueChannel channel = new LockedQueueChannel(32, Wakeups.BATCHED, () -> { });
        AtomicInteger received = new AtomicInteger();
        Thread consumer = new Thread(() -> {
            BatchHandler handler = counting(received);
            while (received.get() < 3) {
                channel.receiver().idle(channel.receiver().poll(handler, 8));
            }
        }, "test-consumer");
        consumer.start();
        for (int i = 0; i < 3; i++) {
            assertTrue(channel.sender().offer(oneRow(i)) > 0);
        }
        assertEquals(0, channel.signals(), "3 puts are less than a quarter of 32: no signal yet");
        channel.sender().flush();
        assertEquals(1, channel.signals(), "flush signals the pending puts once");
        consumer.join();
        assertEquals(3, received.get());
        channel.close();
    }

    /** Signals sent while moving 32 batches through a ring of 32 and ending the stream, on one thread. */
    private static long signalsToMove(Wakeups wakeups) {
        LockedQueueChannel channel = new LockedQueueChannel(32, wakeups, () -> { });
        for (int i = 0; i < 32; i++) {
            assertTrue(channel.sender().offer(oneRow(i)) > 0);
        }
        assertEquals(BatchSender.BACK_PRESSURED, channel.sender().offer(oneRow(32)));
        AtomicInteger received = new AtomicInteger();
        assertEquals(32, channel.receiver().poll(counting(received), 64));
        assertTrue(channel.sender().offerEndOfStream() > 0);
        assertEquals(1, channel.receiver().poll(counting(received), 64));
        assertEquals(BatchReceiver.State.END_OF_STREAM, channel.receiver().state());
        channel.close();
        return channel.signals();
    }

    /** Producer and consumer with random batch limits and random pauses; every row arrives once, in order. */
    private static void moveWithRandomPacing(LockedQueueChannel channel, int batches, long seed)
            throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            try {
                SplittableRandom random = new SplittableRandom(seed);
                for (int i = 0; i < batches; i++) {
                    Batch batch = oneRow(i);
                    long result;
                    while ((result = channel.sender().offer(batch)) < 0) {
                        assertEquals(BatchSender.BACK_PRESSURED, result);
                        channel.sender().idle(0);
                    }
                    pause(random);
                }
                while (channel.sender().offerEndOfStream() < 0) {
                    channel.sender().idle(0);
                }
                channel.sender().close();
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "test-producer");
        producer.start();
        SplittableRandom random = new SplittableRandom(seed + 1);
        long[] next = {0};
        BatchHandler handler = new BatchHandler() {
            @Override
            public void onBatch(Batch batch) {
                assertEquals(next[0]++, ((LongVector) batch.column(0)).get(0));
            }

            @Override
            public void onEndOfStream() {
            }
        };
        while (channel.receiver().state() == BatchReceiver.State.OPEN) {
            channel.receiver().idle(channel.receiver().poll(handler, 1 + random.nextInt(7)));
            pause(random);
        }
        producer.join();
        assertNull(failure.get());
        assertEquals(BatchReceiver.State.END_OF_STREAM, channel.receiver().state());
        assertEquals(batches, next[0], channel.toString());
        channel.receiver().close();
        assertTrue(channel.isClosed());
    }

    private static void pause(SplittableRandom random) {
        int dice = random.nextInt(100);
        if (dice < 5) {
            Thread.yield();
        } else if (dice < 6) {
            try {
                Thread.sleep(0, 50_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Batch oneRow(long value) {
        return Batch.of(1, new LongVector(DataType.INT64, new long[] {value}));
    }

    private static BatchHandler counting(AtomicInteger received) {
        return new BatchHandler() {
            @Override
            public void onBatch(Batch batch) {
                received.incrementAndGet();
            }

            @Override
            public void onEndOfStream() {
            }
        };
    }
}
