package io.troupe.transport;

import com.typesafe.config.ConfigFactory;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.LongVector;
import io.troupe.transport.codec.BatchCodec;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Hand-run throughput of the channel kinds (lesson 3 side by side): one producer thread and one
 * consumer thread move N narrow rows (two INT64 columns, 16 bytes a row) in batches of
 * {@code troupe.batch-size} rows through a fresh channel; the consumer sums every value and the
 * total is checked. Two warm-up runs, then the median (and range) of the timed runs. The codec alone
 * (encode + decode on one thread) is measured too: it is the copying Aeron pays and the in-heap
 * queue does not.
 *
 * <p>Usage: {@code TransportThroughputMain [rows] [runs] [variant...]}, a variant being a name,
 * optionally followed by {@code :} and HOCON overrides separated by {@code ;}, for example
 * {@code aeron-256k:troupe.gather.transport=aeron;troupe.transport.term-length=256k}. Without
 * variants: aeron, locked-queue with batched wake-ups, locked-queue with a wake-up per batch.
 * Run with the same JVM flags as the tests ({@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}):
 * <pre>
 * mvn -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -Xmx2g \
 *   -cp target/classes:target/test-classes:$(cat target/cp.txt) io.troupe.transport.TransportThroughputMain
 * </pre>
 */
public final class TransportThroughputMain {

    private static final int DISTINCT_BATCHES = 64;
    /** Untimed runs first: the decode and sum loops are compiled by then. */
    private static final int WARM_UPS = 2;

    private TransportThroughputMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        List<String> variants = args.length > 2 ? Arrays.asList(args).subList(2, args.length) : List.of(
                "aeron:troupe.gather.transport=aeron",
                "locked-batched:troupe.gather.transport=locked-queue;troupe.gather.wakeups=batched",
                "locked-per-batch:troupe.gather.transport=locked-queue;troupe.gather.wakeups=per-batch");
        int batchRows = TroupeSettings.load().batchSize();
        Batch[] batches = new Batch[DISTINCT_BATCHES];
        for (int i = 0; i < batches.length; i++) {
            batches[i] = ChannelHarness.twoLongs(i * 1_000_000L, batchRows);
        }
        long expectedSum = expectedSum(batches, rows, batchRows);
        System.out.printf("%,d rows of 2 x INT64 in batches of %d rows, %d timed runs after %d warm-ups%n",
                rows, batchRows, runs, WARM_UPS);
        System.out.printf("%-22s %14s %10s %22s%n", "variant", "rows/s median", "MB/s", "rows/s min..max");
        report("codec encode+decode", measureCodec(batches, rows, batchRows, runs), rows);
        for (String variant : variants) {
            int colon = variant.indexOf(':');
            String name = colon < 0 ? variant : variant.substring(0, colon);
            String overrides = colon < 0 ? "" : variant.substring(colon + 1).replace(';', '\n');
            TroupeSettings.Transport settings = TroupeSettings.from(ConfigFactory.parseString(overrides)).transport();
            try (TransportRuntime runtime = TransportRuntime.start(settings)) {
                double[] seconds = new double[runs];
                for (int run = -WARM_UPS; run < runs; run++) {
                    double s = measureChannel(runtime, batches, rows, batchRows, expectedSum);
                    if (run >= 0) {
                        seconds[run] = s;
                    }
                }
                report(name, seconds, rows);
            }
        }
    }

    /** Seconds to move {@code rows} through a new channel, the sum checked. */
    private static double measureChannel(TransportRuntime runtime, Batch[] batches, long rows, int batchRows,
                                         long expectedSum) throws InterruptedException {
        BatchChannel channel = runtime.openChannel();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            try {
                long sent = 0;
                for (int i = 0; sent < rows; i++) {
                    Batch batch = batches[i % batches.length];
                    if (rows - sent < batchRows) {
                        batch = ChannelHarness.twoLongs((i % batches.length) * 1_000_000L, (int) (rows - sent));
                    }
                    if (ChannelHarness.send(channel.sender(), batch) < 0) {
                        throw new IllegalStateException("channel closed under the producer");
                    }
                    sent += batch.size();
                }
                ChannelHarness.sendEndOfStream(channel.sender());
            } catch (Throwable t) {
                failure.set(t);
            } finally {
                channel.sender().close();
            }
        }, "throughput-producer");
        DenseSum handler = new DenseSum();
        long start = System.nanoTime();
        producer.start();
        BatchReceiver.State state = ChannelHarness.receiveAll(channel.receiver(), handler);
        long elapsed = System.nanoTime() - start;
        channel.receiver().close();
        producer.join();
        if (failure.get() != null || state != BatchReceiver.State.END_OF_STREAM
                || handler.rows != rows || handler.sum != expectedSum) {
            throw new IllegalStateException("bad run: state=" + state + ", rows=" + handler.rows + ", sum="
                    + handler.sum + ", expected=" + expectedSum, failure.get());
        }
        return elapsed / 1e9;
    }

    /** Sums both columns of dense two-INT64 batches: the consumer touches every value. */
    private static final class DenseSum implements BatchHandler {
        long rows;
        long sum;

        @Override
        public void onBatch(Batch batch) {
            long[] a = ((LongVector) batch.column(0)).values();
            long[] b = ((LongVector) batch.column(1)).values();
            long s = 0;
            for (int i = 0; i < batch.size(); i++) {
                s += a[i] + b[i];
            }
            sum += s;
            rows += batch.size();
        }

        @Override
        public void onEndOfStream() {
        }
    }

    private static double[] measureCodec(Batch[] batches, long rows, int batchRows, int runs) {
        int length = BatchCodec.encodedLength(batches[0], 0, batchRows);
        UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(length, 64));
        double[] seconds = new double[runs];
        long check = 0;
        for (int run = -WARM_UPS; run < runs; run++) {
            long start = System.nanoTime();
            for (long sent = 0, i = 0; sent < rows; sent += batchRows, i++) {
                Batch batch = batches[(int) (i % batches.length)];
                BatchCodec.encode(batch, 0, batchRows, buffer, 0);
                check += BatchCodec.decode(buffer, 0, length).size();
            }
            if (run >= 0) {
                seconds[run] = (System.nanoTime() - start) / 1e9;
            }
        }
        if (check == 0) {
            throw new IllegalStateException("nothing decoded");
        }
        return seconds;
    }

    private static long expectedSum(Batch[] batches, long rows, int batchRows) {
        long sum = 0;
        long sent = 0;
        for (int i = 0; sent < rows; i++) {
            int n = (int) Math.min(batchRows, rows - sent);
            long first = (i % batches.length) * 1_000_000L;
            for (int r = 0; r < n; r++) {
                sum += 3 * (first + r);
            }
            sent += n;
        }
        return sum;
    }

    private static void report(String name, double[] seconds, long rows) {
        double[] sorted = seconds.clone();
        Arrays.sort(sorted);
        double median = sorted[sorted.length / 2];
        List<String> range = new ArrayList<>();
        range.add(String.format("%.2e", rows / sorted[sorted.length - 1]));
        range.add(String.format("%.2e", rows / sorted[0]));
        System.out.printf("%-22s %14.3e %10.0f %22s%n", name, rows / median, rows * 16.0 / median / 1e6,
                String.join("..", range));
    }
}
