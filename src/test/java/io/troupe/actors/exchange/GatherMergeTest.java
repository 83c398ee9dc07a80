package io.troupe.actors.exchange;

import com.typesafe.config.ConfigFactory;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.sort.OrderKey;
import io.troupe.operators.sort.SortSpec;
import io.troupe.operators.sort.StreamMerger;
import io.troupe.operators.types.DataType;
import io.troupe.transport.BatchChannel;
import io.troupe.transport.BatchReceiver;
import io.troupe.transport.BatchSender;
import io.troupe.transport.TransportRuntime;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Gather Merge actor over real channels, fed by producer threads that play the workers: it
 * merges their sorted streams into the global order (a worker with an empty stream, back-pressure
 * through small channels), applies the window once, drains what nobody wants any more so that no
 * worker stays back-pressured, fails when a worker leaves without an end of stream, and closes every
 * channel it reads when it is stopped in the middle of a merge.
 */
class GatherMergeTest {

    /** (k BIGINT, id INT) by k ASC, id ASC. */
    private static final SortSpec SPEC = new SortSpec(List.of(
            new OrderKey(new ColumnExpression(0, DataType.INT64, "k"), true, false),
            new OrderKey(new ColumnExpression(1, DataType.INT32, "id"), true, false)), 2, "Sort k, id");
    private static final long WAIT_SECONDS = 30;

    @TempDir
    Path dir;
    private TransportRuntime runtime;
    private ActorSystem<Void> system;
    private final List<Thread> producers = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        if (system != null) {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().orTimeout(WAIT_SECONDS, TimeUnit.SECONDS).join();
        }
        for (Thread t : producers) {
            t.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        }
        if (runtime != null) {
            runtime.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TroupeSettings.GatherTransport.class)
    @Timeout(60)
    void shouldMergeTheWorkersStreamsInOrderAndApplyTheWindowOnce(TroupeSettings.GatherTransport kind) {
        start(kind);
        // Worker w sends keys w, w+4, w+8, ... (worker 2 nothing), ties on k broken by id.
        List<List<Batch>> streams = new ArrayList<>();
        List<long[]> all = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            List<long[]> rows = new ArrayList<>();
            for (int i = 0; w != 2 && i < 3000 + 500 * w; i++) {
                rows.add(new long[] {(i * 4L + w) / 3, w * 100_000 + i});
            }
            all.addAll(rows);
            streams.add(batches(rows, 1 + 37 * w));
        }
        all.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        Collector collector = new Collector(Integer.MAX_VALUE);
        List<BatchChannel> channels = channels(4);
        CompletableFuture<Exchange.Report> report = spawn(channels, new StreamMerger(SPEC, 4, 100, 9000, 64),
                collector);
        List<String> outcomes = new CopyOnWriteArrayList<>();
        for (int w = 0; w < 4; w++) {
            produce(channels.get(w).sender(), streams.get(w), true, outcomes);
        }
        assertInstanceOf(Exchange.Done.class, report.orTimeout(WAIT_SECONDS, TimeUnit.SECONDS).join());
        assertEquals(all.subList(100, 9100).stream().map(r -> r[0] + "/" + r[1]).toList(), collector.rows());
        assertTrue(collector.sizes().stream().allMatch(n -> n > 0 && n <= 64), collector.sizes().toString());
        assertEquals(1, collector.finished.get());
        awaitChannelsClosed();
        assertEquals(List.of("sent", "sent", "sent", "sent"), outcomes);
    }

    @Test
    @Timeout(60)
    void shouldDrainTheWorkersOnceTheConsumerWantsNoMore() {
        start(TroupeSettings.GatherTransport.LOCKED_QUEUE);
        Collector collector = new Collector(1);
        List<BatchChannel> channels = channels(3);
        CompletableFuture<Exchange.Report> report = spawn(channels, new StreamMerger(SPEC, 3, 0, Long.MAX_VALUE, 16),
                collector);
        List<String> outcomes = new CopyOnWriteArrayList<>();
        for (int w = 0; w < 3; w++) {
            List<long[]> rows = new ArrayList<>();
            for (int i = 0; i < 5000; i++) {
                rows.add(new long[] {i, w});
            }
            produce(channels.get(w).sender(), batches(rows, 16), true, outcomes);
        }
        assertInstanceOf(Exchange.Done.class, report.orTimeout(WAIT_SECONDS, TimeUnit.SECONDS).join());
        assertEquals(1, collector.sizes().size(), "the consumer said no more after its first batch");
        assertEquals(1, collector.finished.get());
        awaitChannelsClosed();
        assertEquals(List.of("sent", "sent", "sent"), outcomes, "every worker got rid of its stream");
    }

    @Test
    @Timeout(60)
    void shouldFailWhenAWorkerLeavesWithoutAnEndOfStream() {
        start(TroupeSettings.GatherTransport.LOCKED_QUEUE);
        List<BatchChannel> channels = channels(2);
        CompletableFuture<Exchange.Report> report = spawn(channels, new StreamMerger(SPEC, 2, 0, Long.MAX_VALUE, 16),
                new Collector(Integer.MAX_VALUE));
        List<String> outcomes = new CopyOnWriteArrayList<>();
        produce(channels.get(0).sender(), batches(List.of(new long[] {1, 1}), 16), true, outcomes);
        produce(channels.get(1).sender(), batches(List.of(new long[] {2, 2}), 16), false, outcomes);
        Exchange.Report failed = report.orTimeout(WAIT_SECONDS, TimeUnit.SECONDS).join();
        assertInstanceOf(Exchange.Failed.class, failed);
        String message = ((Exchange.Failed) failed).cause().getMessage();
        assertTrue(message.contains("worker 1 left its gather merge channel without an end of stream"), message);
        awaitChannelsClosed();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TroupeSettings.GatherTransport.class)
    @Timeout(60)
    void shouldCloseEveryChannelWhenStoppedInTheMiddleOfAMerge(TroupeSettings.GatherTransport kind) throws Exception {
        start(kind);
        List<BatchChannel> channels = channels(3);
        Collector collector = new Collector(Integer.MAX_VALUE);
        spawn(channels, new StreamMerger(SPEC, 3, 0, Long.MAX_VALUE, 16), collector);
        List<String> outcomes = new CopyOnWriteArrayList<>();
        // Workers 0 and 1 send without end; worker 2 sends one batch and then nothing: the merge goes
        // on until worker 2's rows are out, then stalls on it and drains the others.
        for (int w = 0; w < 2; w++) {
            endless(channels.get(w).sender(), w, outcomes);
        }
        produce(channels.get(2).sender(), batches(List.of(new long[] {50, 2}), 16), false, outcomes, false);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (collector.rows().size() < 50 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertTrue(collector.rows().size() >= 50, "rows up to worker 2's key went out: " + collector.rows().size());
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
        for (Thread t : producers) {
            t.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            assertTrue(!t.isAlive(), t.getName() + " is still sending");
        }
        channels.get(2).sender().close();
        assertEquals(List.of("closed", "closed"), outcomes.subList(outcomes.size() - 2, outcomes.size()));
        awaitChannelsClosed();
        assertEquals(0, collector.finished.get(), "a stopped merge finishes nothing");
    }

    // ------------------------------------------------------------------ harness

    private void start(TroupeSettings.GatherTransport kind) {
        String text = "troupe.gather.transport = " + kind.name().toLowerCase().replace('_', '-')
                + "\ntroupe.gather.queue-capacity = 2\ntroupe.transport.term-length = 64k\ntroupe.transport.mtu = 4096"
                + "\ntroupe.transport.dir = \"" + dir.toString().replace("\\", "\\\\") + "\"";
        runtime = TransportRuntime.start(TroupeSettings.from(ConfigFactory.parseString(text)).transport());
    }

    private List<BatchChannel> channels(int n) {
        List<BatchChannel> channels = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            channels.add(runtime.openChannel());
        }
        return channels;
    }

    /** Starts an actor system whose guardian spawns the Gather Merge and starts it; returns its report. */
    private CompletableFuture<Exchange.Report> spawn(List<BatchChannel> channels, StreamMerger merger,
                                                     BatchConsumer consumer) {
        CompletableFuture<Exchange.Report> report = new CompletableFuture<>();
        List<BatchReceiver> receivers = channels.stream().map(BatchChannel::receiver).toList();
        system = ActorSystem.create(Behaviors.setup(context -> {
            ActorRef<Exchange.Report> reports = context.spawn(Behaviors.receive(Exchange.Report.class)
                    .onMessage(Exchange.Report.class, r -> {
                        report.complete(r);
                        return Behaviors.same();
                    }).build(), "reports");
            ActorRef<Exchange.Command> merge = context.spawn(
                    GatherMerge.create(receivers, merger, consumer, null, reports, 1), "gather-merge");
            merge.tell(Exchange.Start.INSTANCE);
            return Behaviors.<Void>empty();
        }), "gather-merge-test");
        return report;
    }

    private void produce(BatchSender sender, List<Batch> batches, boolean endOfStream, List<String> outcomes) {
        produce(sender, batches, endOfStream, outcomes, true);
    }

    /** A worker: sends {@code batches}, then the end of stream or not, then leaves (closes) or stays. */
    private void produce(BatchSender sender, List<Batch> batches, boolean endOfStream, List<String> outcomes,
                         boolean leave) {
        thread(() -> {
            for (Batch b : batches) {
                if (!send(sender, s -> s.offer(b))) {
                    outcomes.add("closed");
                    sender.close();
                    return;
                }
            }
            if (endOfStream && !send(sender, BatchSender::offerEndOfStream)) {
                outcomes.add("closed");
            } else {
                outcomes.add("sent");
            }
            if (leave) {
                sender.close();
            }
        });
    }

    /** A worker that sends ever larger keys until its channel is closed. */
    private void endless(BatchSender sender, int worker, List<String> outcomes) {
        thread(() -> {
            long k = 0;
            while (true) {
                List<long[]> rows = new ArrayList<>();
                for (int i = 0; i < 16; i++) {
                    rows.add(new long[] {k++, worker});
                }
                Batch b = batches(rows, 16).get(0);
                if (!send(sender, s -> s.offer(b))) {
                    outcomes.add("closed");
                    sender.close();
                    return;
                }
            }
        });
    }

    private void thread(Runnable body) {
        Thread t = new Thread(body, "producer-" + producers.size());
        t.setDaemon(true);
        producers.add(t);
        t.start();
    }

    /** Retries under the channel's idle until sent (true) or CLOSED (false). */
    private static boolean send(BatchSender sender, Function<BatchSender, Long> offer) {
        long result;
        while ((result = offer.apply(sender)) < 0) {
            if (result == BatchSender.CLOSED) {
                return false;
            }
            sender.idle(0);
        }
        return true;
    }

    private void awaitChannelsClosed() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (runtime.openChannels() > 0 && System.nanoTime() < deadline) {
            sleep(Duration.ofMillis(5));
        }
        assertEquals(0, runtime.openChannels(), "channels left open");
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Dense (k BIGINT, id INT) batches of at most {@code size} rows. */
    private static List<Batch> batches(List<long[]> rows, int size) {
        List<Batch> out = new ArrayList<>();
        for (int at = 0; at < rows.size(); at += size) {
            int n = Math.min(size, rows.size() - at);
            VectorBuilder k = new VectorBuilder(DataType.INT64, n);
            VectorBuilder id = new VectorBuilder(DataType.INT32, n);
            for (int i = at; i < at + n; i++) {
                k.appendLong(rows.get(i)[0]);
                id.appendInt((int) rows.get(i)[1]);
            }
            out.add(Batch.of(n, new ColumnVector[] {k.build(), id.build()}));
        }
        return out;
    }

    /** The consumer: keeps rows as "k/id", wants at most {@code batchesWanted} batches. */
    private static final class Collector implements BatchConsumer {
        private final int batchesWanted;
        private final List<String> rows = new CopyOnWriteArrayList<>();
        private final List<Integer> sizes = new CopyOnWriteArrayList<>();
        final AtomicInteger finished = new AtomicInteger();

        Collector(int batchesWanted) {
            this.batchesWanted = batchesWanted;
        }

        @Override
        public boolean accept(Batch batch) {
            sizes.add(batch.size());
            for (int i = 0; i < batch.size(); i++) {
                Object[] row = batch.rowObjects(i);
                rows.add(row[0] + "/" + row[1]);
            }
            return sizes.size() < batchesWanted;
        }

        @Override
        public void finish() {
            finished.incrementAndGet();
        }

        List<String> rows() {
            return List.copyOf(rows);
        }

        List<Integer> sizes() {
            return List.copyOf(sizes);
        }
    }
}
