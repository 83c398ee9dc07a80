package io.troupe.transport;

import com.typesafe.config.ConfigFactory;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;

import java.nio.file.Path;

/**
 * Test-side drivers of a channel's two ends: the send and receive loops every caller of the
 * interface writes (retry under the channel's idle on back-pressure, stop on CLOSED), a handler that
 * sums what it receives, and settings built from HOCON overrides. Public for the Aeron package's tests.
 */
public final class ChannelHarness {

    /** Frames a consumer asks for per poll in these tests. */
    public static final int POLL_LIMIT = 16;

    private ChannelHarness() {
    }

    /** Transport settings from reference.conf with {@code overrides} (HOCON) and the driver under {@code dir}. */
    public static TroupeSettings.Transport settings(Path dir, String overrides) {
        String text = overrides + "\ntroupe.transport.dir = \"" + dir.toString().replace("\\", "\\\\") + "\"";
        return TroupeSettings.from(ConfigFactory.parseString(text)).transport();
    }

    /** Offers {@code batch} until it is sent (a positive position) or the channel is CLOSED (returned). */
    public static long send(BatchSender sender, Batch batch) {
        long result;
        while ((result = sender.offer(batch)) < 0) {
            if (result == BatchSender.CLOSED) {
                return result;
            }
            sender.idle(0);
        }
        sender.idle(1);
        return result;
    }

    /** Offers the end of stream until it is sent or the channel is CLOSED. */
    public static long sendEndOfStream(BatchSender sender) {
        long result;
        while ((result = sender.offerEndOfStream()) < 0) {
            if (result == BatchSender.CLOSED) {
                return result;
            }
            sender.idle(0);
        }
        return result;
    }

    /** Polls until the stream is over (end of stream, producer gone, or closed); returns the final state. */
    public static BatchReceiver.State receiveAll(BatchReceiver receiver, BatchHandler handler) {
        while (receiver.state() == BatchReceiver.State.OPEN) {
            receiver.idle(receiver.poll(handler, POLL_LIMIT));
        }
        return receiver.state();
    }

    /** Rows {@code first .. first + rows - 1} as two INT64 columns: {@code i} and {@code 2 * i}. */
    public static Batch twoLongs(long first, int rows) {
        long[] a = new long[rows];
        long[] b = new long[rows];
        for (int i = 0; i < rows; i++) {
            a[i] = first + i;
            b[i] = 2 * (first + i);
        }
        return Batch.of(rows, new LongVector(DataType.INT64, a), new LongVector(DataType.INT64, b));
    }

    /** Sums every long column of what it receives, and checks rows arrive in the order sent. */
    public static final class SumHandler implements BatchHandler {
        public long rows;
        public long batches;
        public long sum;
        public long endOfStreams;
        /** The first column's next expected value, when checking order. */
        public long next;

        @Override
        public void onBatch(Batch batch) {
            batches++;
            for (int c = 0; c < batch.columnCount(); c++) {
                long[] values = ((LongVector) batch.column(c)).values();
                for (int i = 0; i < batch.size(); i++) {
                    sum += values[batch.row(i)];
                }
            }
            if (batch.columnCount() > 0) {
                long[] first = ((LongVector) batch.column(0)).values();
                for (int i = 0; i < batch.size(); i++) {
                    if (first[batch.row(i)] != next) {
                        throw new AssertionError("row out of order: got " + first[batch.row(i)] + ", expected " + next);
                    }
                    next++;
                }
            }
            rows += batch.size();
        }

        @Override
        public void onEndOfStream() {
            endOfStreams++;
        }
    }
}
