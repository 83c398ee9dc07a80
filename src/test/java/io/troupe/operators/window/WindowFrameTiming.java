package io.troupe.operators.window;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Schema;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Prints how long a frame sum over one partition of {@code rows} rows (default 1,000,000) takes, RANGE frames with
 * offsets beside ROWS frames of about the same width, over BIGINT, DECIMAL, DOUBLE and DATE keys, twice:
 * <ol>
 *   <li>the kernel alone: a part's frames ({@link PartitionFrames}) and the sum over them
 *       ({@link PartitionFunctions}), on rows already sorted;</li>
 *   <li>the query, with 1 worker (one partition is one worker's), as
 *       {@code SELECT max(w) FROM (SELECT sum(x) OVER (...) AS w FROM t)}, so that the window's rows do not all
 *       travel to the caller; and row_number() over the same sort, the cost of the scan, the sort and the window
 *       without a frame.</li>
 * </ol>
 * Each the median of 11 runs after 3 warm-ups. A measurement, not a test: run it in a fresh JVM,
 * {@code java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp target/classes:target/test-classes:<deps>
 * io.troupe.operators.window.WindowFrameTiming [rows]}.
 */
public final class WindowFrameTiming {

    private static final int RUNS = 11;
    private static final int WARM_UPS = 3;

    private WindowFrameTiming() {
    }

    /** Frames and a sum over {@code rows} sorted rows, one partition, each key's column and a ROWS frame. */
    private static void kernel(int rows) {
        long[] k = new long[rows];
        long[] d = new long[rows];
        double[] f = new double[rows];
        int[] dt = new int[rows];
        long[] x = new long[rows];
        Random random = new Random(1);
        for (int i = 0; i < rows; i++) {
            k[i] = i;
            d[i] = i;
            f[i] = i / 2.0;
            dt[i] = 10_957 + i / 101;
            x[i] = random.nextInt(1000);
        }
        ColumnVector[] columns = {new LongVector(DataType.INT64, k), new LongVector(DataType.decimal(12, 2), d),
                new DoubleVector(f), new IntVector(DataType.DATE, dt), new LongVector(DataType.INT64, x)};
        Object[][] cases = {
                {"ROWS BETWEEN 50 PRECEDING AND 50 FOLLOWING", 0, WindowFrame.rows(FrameBound.preceding(50),
                        FrameBound.following(50))},
                {"RANGE BETWEEN 50 PRECEDING AND 50 FOLLOWING, BIGINT", 0, WindowFrame.range(FrameBound.preceding(50),
                        FrameBound.following(50))},
                {"RANGE BETWEEN 0.50 PRECEDING AND 0.50 FOLLOWING, DECIMAL", 1, WindowFrame.range(
                        FrameBound.preceding(new BigDecimal("0.50")), FrameBound.following(new BigDecimal("0.50")))},
                {"RANGE BETWEEN 25 PRECEDING AND 25 FOLLOWING, DOUBLE", 2, WindowFrame.range(
                        FrameBound.preceding(25.0), FrameBound.following(25.0))},
                {"ROWS BETWEEN 151 PRECEDING AND 151 FOLLOWING", 3, WindowFrame.rows(FrameBound.preceding(151),
                        FrameBound.following(151))},
                {"RANGE BETWEEN INTERVAL '1 day' PRECEDING AND FOLLOWING, DATE", 3, WindowFrame.range(
                        FrameBound.preceding(Interval.ofDays(1)), FrameBound.following(Interval.ofDays(1)))}};
        int[] order = new int[rows];
        Arrays.setAll(order, i -> i);
        System.out.printf("the kernel: frames and sum(x) over %,d sorted rows, one partition, median of %d runs%n",
                rows, RUNS);
        for (Object[] c : cases) {
            ColumnVector key = columns[(Integer) c[1]];
            int[] peerStart = new int[rows];
            int[] peerEnd = new int[rows];
            for (int start = 0; start < rows; ) {
                int end = start + 1;
                while (end < rows && key.getObject(end).equals(key.getObject(start))) {
                    end++;
                }
                Arrays.fill(peerStart, start, end, start);
                Arrays.fill(peerEnd, start, end, end);
                start = end;
            }
            WindowFrame frame = (WindowFrame) c[2];
            WindowCallSpec sum = new WindowCallSpec(WindowFunction.SUM, 4, -1, 0, frame, false, DataType.INT64,
                    "sum(x)");
            List<Double> times = new ArrayList<>();
            for (int run = 0; run < WARM_UPS + RUNS; run++) {
                long start = System.nanoTime();
                PartitionFrames frames = new PartitionFrames(frame, order, key, true);
                frames.compute(0, rows, peerStart, peerEnd);
                new PartitionFunctions(sum, columns, order, frames).compute(0, rows, peerStart, peerEnd);
                if (run >= WARM_UPS) {
                    times.add((System.nanoTime() - start) / 1e6);
                }
            }
            Collections.sort(times);
            System.out.printf("%-75s %8.1f ms (min %.1f)%n", c[0], times.get(RUNS / 2), times.get(0));
        }
    }

    private static void print(Troupe troupe, QueryOptions options, String what, String sql) {
        List<Double> times = new ArrayList<>();
        for (int run = 0; run < WARM_UPS + RUNS; run++) {
            long start = System.nanoTime();
            troupe.sql(sql, options);
            if (run >= WARM_UPS) {
                times.add((System.nanoTime() - start) / 1e6);
            }
        }
        Collections.sort(times);
        System.out.printf("%-75s %8.1f ms (min %.1f)%n", what, times.get(RUNS / 2), times.get(0));
    }

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        // k: 0..rows-1; d: k / 100 at scale 2; f: k / 2.0; dt: 101 rows a day; x: a value to sum.
        Random random = new Random(1);
        TableBuilder t = new TableBuilder("t", Schema.of(Field.of("k", DataType.INT64),
                Field.of("d", DataType.decimal(12, 2)), Field.of("f", DataType.FLOAT64), Field.of("dt", DataType.DATE),
                Field.of("x", DataType.INT64)), 4096);
        for (int i = 0; i < rows; i++) {
            t.addRow((long) i, BigDecimal.valueOf(i, 2), i / 2.0, LocalDate.of(2000, 1, 1).plusDays(i / 101),
                    (long) random.nextInt(1000));
        }
        String[][] cases = {
                {"ROWS BETWEEN 50 PRECEDING AND 50 FOLLOWING, ORDER BY k", "ORDER BY k ROWS BETWEEN 50 PRECEDING AND "
                        + "50 FOLLOWING"},
                {"RANGE BETWEEN 50 PRECEDING AND 50 FOLLOWING, BIGINT k", "ORDER BY k RANGE BETWEEN 50 PRECEDING AND "
                        + "50 FOLLOWING"},
                {"RANGE BETWEEN 0.50 PRECEDING AND 0.50 FOLLOWING, DECIMAL d", "ORDER BY d RANGE BETWEEN 0.50 "
                        + "PRECEDING AND 0.50 FOLLOWING"},
                {"RANGE BETWEEN 25 PRECEDING AND 25 FOLLOWING, DOUBLE f", "ORDER BY f RANGE BETWEEN 25 PRECEDING AND "
                        + "25 FOLLOWING"},
                {"ROWS BETWEEN 151 PRECEDING AND 151 FOLLOWING, ORDER BY dt", "ORDER BY dt, k ROWS BETWEEN 151 "
                        + "PRECEDING AND 151 FOLLOWING"},
                {"RANGE BETWEEN INTERVAL '1' DAY PRECEDING AND FOLLOWING, DATE dt (303 rows)", "ORDER BY dt RANGE "
                        + "BETWEEN INTERVAL '1' DAY PRECEDING AND INTERVAL '1' DAY FOLLOWING"},
                {"the default frame (running sum), ORDER BY k", "ORDER BY k"}};
        String baseline = "SELECT max(w) FROM (SELECT row_number() OVER (ORDER BY k) AS w FROM t) s";
        kernel(rows);
        try (Troupe troupe = Troupe.start(TroupeSettings.load())) {
            troupe.register(t.build());
            QueryOptions one = QueryOptions.defaults().withWorkers(1).withTimeout(Duration.ofMinutes(5));
            System.out.printf("the query: %,d rows in one partition, 1 worker, median of %d runs%n", rows, RUNS);
            print(troupe, one, "baseline: row_number() OVER (ORDER BY k), no frame", baseline);
            for (String[] c : cases) {
                print(troupe, one, c[0], "SELECT max(w) FROM (SELECT sum(x) OVER (" + c[1] + ") AS w FROM t) s");
            }
        }
    }
}
