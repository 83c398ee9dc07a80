package io.troupe.cli;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.transport.BatchHandler;
import io.troupe.transport.BatchReceiver;
import io.troupe.transport.BatchSender;
import io.troupe.transport.aeron.SharedDriverStreams;
import io.troupe.transport.codec.BatchCodec;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * One JVM of {@code troupe exchange} ({@link ExchangeCommand}): side {@code self} (0 or 1) of a repartition
 * of N rows between two JVMs. It holds rows [self N/2, (self + 1) N/2) of two INT64 columns (key, key * 3),
 * and each run sends the rows whose key hashes to the other side, in batches of {@code troupe.batch-size}
 * rows through one stream to it (IPC through the host's driver, or UDP from its driver to the other's), while
 * it receives the other side's: a repartition's exchange, the routing done before the clock starts, so the
 * figure is the transport's (encode, log, driver, decode). What arrives is counted and summed, and checked
 * against what the other side must send.
 *
 * <p>In a JVM of its own ({@link #main}) the parent drives it over stdin and stdout, one line each way per step:
 * <pre>
 *   parent: run R     side: opens run R's two streams, waits until its own is connected; "ready R"
 *   parent: go        side: sends and receives until both are done; "done R NANOS PAYLOAD_BYTES"
 *   parent: quit      side: exits 0
 * </pre>
 * Any failure prints {@code error MESSAGE} and exits 1. The parent may also run both sides itself ({@link #open}),
 * for the same exchange within one JVM. Every wait is bounded ({@link #CONNECT}, {@link #RUN}).
 *
 * <p>Arguments: DRIVER_DIR ipc|udp SELF ROWS TAG SELF_ENDPOINT PEER_ENDPOINT MTU TERM_LENGTH (endpoints host:port
 * and MTU for UDP; the term of its stream, as the parent's troupe.cluster.data-term-length says).
 */
final class ExchangeSide {

    static final Duration CONNECT = Duration.ofSeconds(30);
    static final Duration RUN = Duration.ofMinutes(3);

    private final SharedDriverStreams streams;
    private final boolean udp;
    private final int self;
    private final int tag;
    private final String selfEndpoint;
    private final String peerEndpoint;
    private final int mtu;
    private final List<Batch> outgoing;
    private final long payloadBytes;
    private final long expectedRows;
    private final long expectedSum;

    /**
     * Side {@code self} over {@code streams}: {@code udp} or IPC; the endpoints ({@code host:port}) and
     * {@code mtu} are UDP's.
     */
    ExchangeSide(SharedDriverStreams streams, boolean udp, int self, long rows, int tag, String selfEndpoint,
                 String peerEndpoint, int mtu, int batchRows) {
        this.streams = streams;
        this.udp = udp;
        this.self = self;
        this.tag = tag;
        this.selfEndpoint = selfEndpoint;
        this.peerEndpoint = peerEndpoint;
        this.mtu = mtu;
        this.outgoing = batchesFor(1 - self, self, rows, batchRows);
        this.payloadBytes = outgoing.stream().mapToLong(b -> BatchCodec.encodedLength(b, 0, b.rowCount())).sum();
        long[] incoming = totals(self, 1 - self, rows);
        this.expectedRows = incoming[0];
        this.expectedSum = incoming[1];
    }

    public static void main(String[] args) {
        try (SharedDriverStreams streams = SharedDriverStreams.connect(Path.of(args[0]),
                TroupeSettings.load().transport().withTermLength(Integer.parseInt(args[8])), CONNECT)) {
            ExchangeSide side = new ExchangeSide(streams, args[1].equals("udp"), Integer.parseInt(args[2]),
                    Long.parseLong(args[3]), Integer.parseInt(args[4]), args[5], args[6], Integer.parseInt(args[7]),
                    TroupeSettings.load().batchSize());
            side.serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
            System.exit(0);
        } catch (Throwable e) {
            System.out.println("error " + e);
            System.out.flush();
            System.exit(1);
        }
    }

    private void serve(BufferedReader in) throws Exception {
        String line;
        while ((line = in.readLine()) != null) {
            if (line.equals("quit")) {
                return;
            }
            if (!line.startsWith("run ")) {
                throw new IllegalStateException("expected 'run R' or 'quit', got '" + line + "'");
            }
            int run = Integer.parseInt(line.substring(4));
            try (Run streams = open(run)) {
                streams.awaitConnected();
                say("ready " + run);
                String go = in.readLine();
                if (!"go".equals(go)) {
                    throw new IllegalStateException("expected 'go', got '" + go + "'");
                }
                say("done " + run + " " + streams.exchange() + " " + payloadBytes);
            }
        }
    }

    /** Opens run {@code run}'s two streams: this side's to the other, and the other's to this. */
    Run open(int run) {
        SharedDriverStreams.Outgoing out = publish(session(run, self));
        try {
            return new Run(out, expect(session(run, 1 - self)));
        } catch (RuntimeException e) {
            out.sender().close();
            throw e;
        }
    }

    /** The payload bytes this side sends per run. */
    long payloadBytes() {
        return payloadBytes;
    }

    /** One run's streams: connected, exchanged once, closed. */
    final class Run implements AutoCloseable {
        private final SharedDriverStreams.Outgoing out;
        private final BatchReceiver receiver;

        private Run(SharedDriverStreams.Outgoing out, BatchReceiver receiver) {
            this.out = out;
            this.receiver = receiver;
        }

        /** Waits, at most {@link #CONNECT}, until the other side subscribed to this side's stream. */
        void awaitConnected() throws InterruptedException {
            long deadline = System.nanoTime() + CONNECT.toNanos();
            while (!out.isConnected()) {
                if (System.nanoTime() - deadline >= 0) {
                    throw new IllegalStateException(out + ": the other side did not subscribe within "
                            + CONNECT.toSeconds() + " s");
                }
                TimeUnit.MILLISECONDS.sleep(1);
            }
        }

        /** Sends and receives everything; the nanoseconds it took. */
        long exchange() throws Exception {
            return ExchangeSide.this.exchange(out.sender(), receiver);
        }

        @Override
        public void close() {
            out.sender().close();
            receiver.close();
        }
    }

    /** Sends every outgoing batch on a thread of its own while this one receives; the nanoseconds both took. */
    private long exchange(BatchSender sender, BatchReceiver receiver) throws Exception {
        long start = System.nanoTime();
        long deadline = start + RUN.toNanos();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread sending = new Thread(() -> {
            try {
                send(sender, deadline);
            } catch (Throwable e) {
                failed.set(e);
            }
        }, "exchange-sender");
        sending.start();
        Sum sum = new Sum();
        while (receiver.state() == BatchReceiver.State.OPEN) {
            receiver.idle(receiver.poll(sum, 64));
            if (System.nanoTime() - deadline >= 0 || failed.get() != null) {
                break;
            }
        }
        sending.join(TimeUnit.NANOSECONDS.toMillis(Math.max(1, deadline - System.nanoTime())) + 1);
        long nanos = System.nanoTime() - start;
        if (failed.get() != null) {
            throw new IllegalStateException("sending failed: " + failed.get(), failed.get());
        }
        if (receiver.state() != BatchReceiver.State.END_OF_STREAM || sending.isAlive()) {
            throw new IllegalStateException("run not over within " + RUN.toSeconds() + " s: receiver " + receiver);
        }
        if (sum.rows != expectedRows || sum.sum != expectedSum) {
            throw new IllegalStateException("received " + sum.rows + " rows summing to " + sum.sum + ", expected "
                    + expectedRows + " summing to " + expectedSum);
        }
        return nanos;
    }

    private void send(BatchSender sender, long deadline) {
        for (Batch batch : outgoing) {
            offer(sender, () -> sender.offer(batch), deadline);
        }
        offer(sender, sender::offerEndOfStream, deadline);
    }

    private static void offer(BatchSender sender, LongSupplier attempt, long deadline) {
        long result;
        while ((result = attempt.getAsLong()) < 0) {
            if (result == BatchSender.CLOSED) {
                throw new IllegalStateException("the other side closed its stream");
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("back-pressured past the run's time");
            }
            sender.idle(0);
        }
        sender.idle(1);
    }

    private SharedDriverStreams.Outgoing publish(int session) {
        return udp ? streams.publishOverUdp(peerEndpoint, mtu, SharedDriverStreams.EXCHANGE_STREAM_ID, session)
                : streams.publish(SharedDriverStreams.EXCHANGE_STREAM_ID, session);
    }

    private BatchReceiver expect(int session) {
        return udp ? streams.expectOverUdp(selfEndpoint, SharedDriverStreams.EXCHANGE_STREAM_ID, session, CONNECT)
                : streams.expect(SharedDriverStreams.EXCHANGE_STREAM_ID, session, CONNECT);
    }

    private int session(int run, int from) {
        return tag + run * 2 + from;
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** Which side a key goes to: a well-mixed bit of it, so each side sends about half its rows. */
    static int route(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) ((h ^ (h >>> 32)) >>> 31) & 1;
    }

    /** The batches of side {@code from}'s rows that go to side {@code to}. */
    static List<Batch> batchesFor(int to, int from, long rows, int batchRows) {
        List<Batch> batches = new ArrayList<>();
        long[] keys = new long[batchRows];
        int n = 0;
        for (long key = from * (rows / 2); key < (from + 1) * (rows / 2); key++) {
            if (route(key) == to) {
                keys[n++] = key;
                if (n == batchRows) {
                    batches.add(batch(keys, n));
                    n = 0;
                }
            }
        }
        if (n > 0) {
            batches.add(batch(keys, n));
        }
        return batches;
    }

    /** The encoded size of a full batch of the exchange's rows. */
    static int fullBatchBytes(int batchRows) {
        long[] keys = new long[batchRows];
        Arrays.setAll(keys, i -> i);
        Batch full = batch(keys, batchRows);
        return BatchCodec.encodedLength(full, 0, batchRows);
    }

    private static Batch batch(long[] keys, int n) {
        long[] k = Arrays.copyOf(keys, n);
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = k[i] * 3;
        }
        return Batch.of(n, new LongVector(DataType.INT64, k), new LongVector(DataType.INT64, v));
    }

    /** Rows and the sum of both columns (key + key * 3) that side {@code from} sends to side {@code to}. */
    static long[] totals(int to, int from, long rows) {
        long count = 0;
        long sum = 0;
        for (long key = from * (rows / 2); key < (from + 1) * (rows / 2); key++) {
            if (route(key) == to) {
                count++;
                sum += 4 * key;
            }
        }
        return new long[] {count, sum};
    }

    /** Counts rows and sums both columns of what arrives. */
    private static final class Sum implements BatchHandler {
        long rows;
        long sum;

        @Override
        public void onBatch(Batch batch) {
            LongVector k = (LongVector) batch.column(0);
            LongVector v = (LongVector) batch.column(1);
            for (int i = 0; i < batch.rowCount(); i++) {
                sum += k.get(i) + v.get(i);
            }
            rows += batch.rowCount();
        }

        @Override
        public void onEndOfStream() {
            // The receiver's state says so.
        }
    }
}
