package io.troupe.transport.aeron;

import io.aeron.driver.MediaDriver;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.transport.BatchReceiver;
import io.troupe.transport.BatchSender;
import io.troupe.transport.ChannelHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Exchange streams between two "nodes" (two {@link SharedDriverStreams} clients of one media driver, as two
 * JVMs of a host have them; the driver is embedded in the test): both ends derive the session id and open
 * their end in either order ({@link SharedDriverStreams#publish(int, int)}, {@link SharedDriverStreams#expect}),
 * every row arrives in order, many streams on {@link SharedDriverStreams#EXCHANGE_STREAM_ID} keep apart by
 * session, a producer that never comes or leaves without an end is PRODUCER_GONE (telling which), and a
 * session id published twice is refused by name.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SharedDriverStreamsExchangeTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration SHORT_CONNECT = Duration.ofMillis(300);
    private static final int ROWS = 1024;
    private static final int BATCHES = 12; // 16 KiB each: more than a 64 KiB term holds, so some offers wait

    @TempDir
    Path dir;

    private MediaDriver driver;
    private final SharedDriverStreams[] nodes = new SharedDriverStreams[2];
    /** The query's tag, as a coordinator would pick it: a random base for the session ids. */
    private final int tag = ThreadLocalRandom.current().nextInt(1 << 30);

    @BeforeEach
    void startDriverAndNodes() throws InterruptedException {
        Path driverDir = dir.resolve("driver");
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context().aeronDirectoryName(driverDir.toString())
                .dirDeleteOnShutdown(true));
        TroupeSettings.Transport settings = ChannelHarness.settings(dir, "troupe.transport.term-length = 64k\n"
                + "troupe.transport.mtu = 4096");
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = SharedDriverStreams.connect(driverDir, settings, WAIT);
        }
    }

    @AfterEach
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {nodes[0], nodes[1], driver}) {
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
    void shouldMoveEveryRowWhenTheConsumerSubscribesBeforeTheProducerPublishes() {
        ExpectedStream in = nodes[1].expect(SharedDriverStreams.EXCHANGE_STREAM_ID, tag, WAIT);
        assertEquals(BatchReceiver.State.OPEN, in.state());
        assertEquals(0, in.poll(new ChannelHarness.SumHandler(), ChannelHarness.POLL_LIMIT), "no producer yet");
        assertFalse(in.connected());
        SharedDriverStreams.Outgoing out = nodes[0].publish(SharedDriverStreams.EXCHANGE_STREAM_ID, tag);
        assertEquals(tag, out.sessionId(), "the session id asked for");

        Exchange exchange = new Exchange(out, in, 0);
        exchange.run(List.of(exchange));
        exchange.assertDelivered();
        in.close();
        assertOpenStreams(0);
    }

    @Test
    void shouldMoveEveryRowWhenTheProducerPublishesBeforeTheConsumerSubscribes() {
        SharedDriverStreams.Outgoing out = nodes[0].publish(SharedDriverStreams.EXCHANGE_STREAM_ID, tag);
        assertEquals(BatchSender.NOT_CONNECTED, out.sender().offer(ChannelHarness.twoLongs(0, ROWS)),
                "nobody reads yet");
        ExpectedStream in = nodes[1].expect(SharedDriverStreams.EXCHANGE_STREAM_ID, tag, WAIT);

        Exchange exchange = new Exchange(out, in, 0);
        exchange.run(List.of(exchange));
        exchange.assertDelivered();
        assertTrue(in.toString().contains("session " + tag + " ") && in.toString().contains("connected"),
                in.toString());
        in.close();
        assertOpenStreams(0);
    }

    /** 2 producer nodes x 2 workers x 2 consumer nodes, half opened consumer first, each with rows of its own. */
    @Test
    void shouldKeepManyStreamsApartBySession() {
        List<Exchange> exchanges = new ArrayList<>();
        for (int producer = 0; producer < 2; producer++) {
            for (int worker = 0; worker < 2; worker++) {
                for (int consumer = 0; consumer < 2; consumer++) {
                    int index = exchanges.size();
                    int sessionId = tag + index;
                    ExpectedStream in;
                    SharedDriverStreams.Outgoing out;
                    if (index % 2 == 0) {
                        in = nodes[consumer].expect(SharedDriverStreams.EXCHANGE_STREAM_ID, sessionId, WAIT);
                        out = nodes[producer].publish(SharedDriverStreams.EXCHANGE_STREAM_ID, sessionId);
                    } else {
                        out = nodes[producer].publish(SharedDriverStreams.EXCHANGE_STREAM_ID, sessionId);
                        in = nodes[consumer].expect(SharedDriverStreams.EXCHANGE_STREAM_ID, sessionId, WAIT);
                    }
                    // Rows of their own: a consumer that read another stream would see rows out of order.
                    exchanges.add(new Exchange(out, in, (long) index * BATCHES * ROWS));
                }
            }
        }
        assertEquals(16, nodes[0].openStreams() + nodes[1].openStreams(), "8 streams, 2 ends each");
        exchanges.get(0).run(exchanges);
        for (Exchange exchange : exchanges) {
            exchange.assertDelivered();
            exchange.in.close();
        }
        assertOpenStreams(0);
    }

    /**
     * Another host: a second driver, whose client takes streams at a UDP endpoint of its own. Both producer
     * nodes of this host send to it, two workers each, half the streams expected before they are published;
     * all of them share the one endpoint, kept apart by session.
     */
    @Test
    void shouldMoveEveryRowOfManyStreamsToAnotherHostOverUdp() throws Exception {
        try (OtherHost host = new OtherHost()) {
            List<Exchange> exchanges = new ArrayList<>();
            for (int producer = 0; producer < 2; producer++) {
                for (int worker = 0; worker < 2; worker++) {
                    int index = exchanges.size();
                    int sessionId = tag + index;
                    ExpectedStream in;
                    SharedDriverStreams.Outgoing out;
                    if (index % 2 == 0) {
                        in = host.expect(sessionId, WAIT);
                        out = host.publishTo(nodes[producer], sessionId);
                    } else {
                        out = host.publishTo(nodes[producer], sessionId);
                        assertEquals(BatchSender.NOT_CONNECTED, out.sender().offer(ChannelHarness.twoLongs(0, ROWS)),
                                "nobody reads yet on the other host");
                        in = host.expect(sessionId, WAIT);
                    }
                    exchanges.add(new Exchange(out, in, (long) index * BATCHES * ROWS));
                }
            }
            exchanges.get(0).run(exchanges);
            for (Exchange exchange : exchanges) {
                exchange.assertDelivered();
                assertTrue(exchange.in.toString().contains("udp") && exchange.in.toString().contains(host.endpoint),
                        exchange.in.toString());
                exchange.in.close();
            }
            assertOpenStreams(0);
            assertEquals(0, host.streams.openStreams());
        }
    }

    @Test
    void shouldCallAProducerOnAnotherHostThatLeavesWithoutAnEndGoneAfterItsRows() throws Exception {
        try (OtherHost host = new OtherHost()) {
            ExpectedStream in = host.expect(tag, WAIT);
            SharedDriverStreams.Outgoing out = host.publishTo(nodes[0], tag);
            ChannelHarness.SumHandler handler = new ChannelHarness.SumHandler();
            int sent = 3;
            for (int b = 0; b < sent; b++) {
                Batch batch = ChannelHarness.twoLongs((long) b * ROWS, ROWS);
                long result;
                while ((result = out.sender().offer(batch)) < 0) {
                    assertTrue(result != BatchSender.CLOSED, "the consumer is there");
                    in.poll(handler, ChannelHarness.POLL_LIMIT);
                    in.idle(0);
                }
            }
            out.sender().close();
            assertEquals(BatchReceiver.State.PRODUCER_GONE, ChannelHarness.receiveAll(in, handler));
            assertEquals((long) sent * ROWS, handler.rows, "what was sent before it left still arrives");
            assertEquals(0, handler.endOfStreams);
            in.close();
            assertEquals(0, host.streams.openStreams());
        }
    }

    /** A second "host": its own driver and client, taking UDP streams on a free loopback port. */
    private final class OtherHost implements AutoCloseable {
        final MediaDriver driver;
        final SharedDriverStreams streams;
        final String endpoint;

        OtherHost() throws Exception {
            Path driverDir = dir.resolve("other-host-driver");
            driver = MediaDriver.launchEmbedded(new MediaDriver.Context().aeronDirectoryName(driverDir.toString())
                    .dirDeleteOnShutdown(true));
            streams = SharedDriverStreams.connect(driverDir, ChannelHarness.settings(dir,
                    "troupe.transport.term-length = 64k\ntroupe.transport.mtu = 4096"), WAIT);
            try (java.net.DatagramSocket free = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
                endpoint = "127.0.0.1:" + free.getLocalPort();
            }
        }

        ExpectedStream expect(int sessionId, Duration connectTimeout) {
            return streams.expectOverUdp(endpoint, SharedDriverStreams.EXCHANGE_STREAM_ID, sessionId, connectTimeout);
        }

        SharedDriverStreams.Outgoing publishTo(SharedDriverStreams from, int sessionId) {
            return from.publishOverUdp(endpoint, 1408, SharedDriverStreams.EXCHANGE_STREAM_ID, sessionId);
        }

        @Override
        public void close() {
            streams.close();
            driver.close();
        }
    }

    @Test
    void shouldCallAProducerThatNeverPublishesGoneAfterTheConnectTimeoutAndSaySo() {
        ExpectedStream never = nodes[1].expect(SharedDriverStreams.EXCHANGE_STREAM_ID, tag, SHORT_CONNECT);
        ExpectedStream closedEarly = nodes[1].expect(SharedDriverStreams.EXCHANGE_STREAM_ID, tag + 1, WAIT);
        assertEquals(BatchReceiver.State.OPEN, never.state(), "only a poll past the timeout ends it");
        assertTrue(never.toString().contains("awaiting its producer"), never.toString());

        ChannelHarness.SumHandler handler = new ChannelHarness.SumHandler();
        assertEquals(BatchReceiver.State.PRODUCER_GONE, ChannelHarness.receiveAll(never, handler));
        assertFalse(never.connected());
        assertEquals(0, handler.rows + handler.endOfStreams);
        assertTrue(never.toString().contains("stream " + SharedDriverStreams.EXCHANGE_STREAM_ID + " session " + tag
                + " ") && never.toString().contains("never opened it within 300 ms"), never.toString());

        closedEarly.close();
        assertEquals(BatchReceiver.State.CLOSED, closedEarly.state());
        assertEquals(0, closedEarly.poll(handler, ChannelHarness.POLL_LIMIT));
        never.close();
        assertEquals(BatchReceiver.State.PRODUCER_GONE, never.state(), "closing keeps how it ended");
        assertOpenStreams(0);
    }

    @Test
    void shouldCallAProducerThatLeavesWithoutAnEndGoneAfterItsRows() {
        ExpectedStream in = nodes[1].expect(SharedDriverStreams.EXCHANGE_STREAM_ID, tag, WAIT);
        SharedDriverStreams.Outgoing out = nodes[0].publish(SharedDriverStreams.EXCHANGE_STREAM_ID, tag);
        ChannelHarness.SumHandler handler = new ChannelHarness.SumHandler();
        int sent = 3;
        for (int b = 0; b < sent; b++) {
            Batch batch = ChannelHarness.twoLongs((long) b * ROWS, ROWS); // offered again, the same, until sent
            long result;
            while ((result = out.sender().offer(batch)) < 0) {
                assertTrue(result != BatchSender.CLOSED, "the consumer is there");
                in.poll(handler, ChannelHarness.POLL_LIMIT);
            }
        }
        out.sender().close();
        assertEquals(BatchReceiver.State.PRODUCER_GONE, ChannelHarness.receiveAll(in, handler));
        assertTrue(in.connected(), "it left, after connecting");
        assertEquals((long) sent * ROWS, handler.rows, "what was sent before it left still arrives");
        assertEquals(0, handler.endOfStreams);
        in.close();
        assertOpenStreams(0);
    }

    @Test
    void shouldRefuseASessionIdPublishedTwiceOnAStream() {
        SharedDriverStreams.Outgoing first = nodes[0].publish(SharedDriverStreams.EXCHANGE_STREAM_ID, tag);
        for (SharedDriverStreams node : nodes) {
            IllegalStateException clash = assertThrows(IllegalStateException.class,
                    () -> node.publish(SharedDriverStreams.EXCHANGE_STREAM_ID, tag));
            assertTrue(clash.getMessage().contains("stream " + SharedDriverStreams.EXCHANGE_STREAM_ID + " session "
                    + tag + " ") && clash.getMessage().contains("clashing sessionId"), clash.getMessage());
        }
        assertEquals(1, nodes[0].openStreams(), "the refused ones hold nothing");
        assertEquals(0, nodes[1].openStreams());
        // On another stream id the same session is another stream.
        SharedDriverStreams.Outgoing other = nodes[1].publish(SharedDriverStreams.STREAM_ID, tag);
        other.sender().close();
        first.sender().close();
        assertOpenStreams(0);
    }

    private void assertOpenStreams(int expected) {
        assertEquals(expected, nodes[0].openStreams(), "streams open on node 0");
        assertEquals(expected, nodes[1].openStreams(), "streams open on node 1");
    }

    /** One stream's two ends, the rows it sends ({@code first} on, {@link #BATCHES} batches) and what arrived. */
    private static final class Exchange {
        final SharedDriverStreams.Outgoing out;
        final ExpectedStream in;
        final long first;
        final ChannelHarness.SumHandler handler = new ChannelHarness.SumHandler();
        /** Batches sent so far; {@link #BATCHES} then the end of stream. */
        int sent;
        /** The batch being offered: offered again, the same object, until it is sent. */
        Batch batch;
        boolean ended;

        Exchange(SharedDriverStreams.Outgoing out, ExpectedStream in, long first) {
            this.out = out;
            this.in = in;
            this.first = first;
            handler.next = first;
        }

        /** Drives every stream in one thread, an offer and a poll each per round, until every consumer's is over. */
        void run(List<Exchange> all) {
            boolean open = true;
            while (open) {
                open = false;
                int work = 0;
                for (Exchange exchange : all) {
                    exchange.offerNext();
                    work += exchange.in.poll(exchange.handler, ChannelHarness.POLL_LIMIT);
                    open |= exchange.in.state() == BatchReceiver.State.OPEN;
                }
                all.get(0).in.idle(work);
            }
        }

        /** Offers the next batch, or the end of stream (then closes the sender); one try. */
        private void offerNext() {
            if (ended) {
                return;
            }
            if (batch == null && sent < BATCHES) {
                batch = ChannelHarness.twoLongs(first + (long) sent * ROWS, ROWS);
            }
            long result = batch != null ? out.sender().offer(batch) : out.sender().offerEndOfStream();
            assertTrue(result != BatchSender.CLOSED, out + ": the consumer left");
            if (result > 0) {
                batch = null;
                if (sent++ == BATCHES) {
                    ended = true;
                    out.sender().close();
                }
            }
        }

        void assertDelivered() {
            assertEquals(BatchReceiver.State.END_OF_STREAM, in.state(), in.toString());
            assertTrue(in.connected());
            long n = (long) BATCHES * ROWS;
            assertEquals(n, handler.rows, in + ": rows");
            assertEquals(first + n, handler.next, in + ": the first column, in order, from its first row");
            // i and 2i over rows first .. first + n - 1
            assertEquals(3 * (n * first + n * (n - 1) / 2), handler.sum, in + ": both columns");
            assertEquals(1, handler.endOfStreams);
        }
    }
}
