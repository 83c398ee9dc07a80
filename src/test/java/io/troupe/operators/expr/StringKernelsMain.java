package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.troupe.operators.plan.Expr.call;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;

/**
 * Times string kernels over batches of ASCII rows and of the same rows with one character made
 * {@code é}, which takes each kernel off its ASCII shortcut (a byte is a character; a regular
 * expression matches in place instead of over a decoded String): the median of several runs, in
 * nanoseconds of this thread's CPU time per row, so that other processes on a shared machine do not
 * count. A measurement, not a test.
 *
 * <p>Usage: {@code StringKernelsMain [rows] [runs]}. Not threadsafe; a main.
 */
public final class StringKernelsMain {

    private static final int BATCH = 2048;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private StringKernelsMain() {
    }

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        Schema schema = Schema.of(Field.of("s", DataType.VARCHAR));
        List<Expr> kernels = List.of(call("reverse", col("s")), call("initcap", col("s")),
                call("translate", col("s"), lit("aeiou"), lit("AEIOU")), call("lpad", col("s"), lit(40), lit(".")),
                call("regexp_matches", col("s"), lit("[0-9]{3}")),
                call("regexp_replace", col("s"), lit("o+"), lit("0"), lit("g")));
        Batch[] ascii = batches(rows, false);
        Batch[] accented = batches(rows, true);
        System.out.printf("%-50s %12s %12s%n", "CPU ns per row (" + rows + " rows of 24 characters)", "ASCII", "one é");
        for (Expr e : kernels) {
            Expression x = e.bind(schema, "bench");
            System.out.printf("%-50s %12.1f %12.1f%n", e, nanosPerRow(x, ascii, rows, runs),
                    nanosPerRow(x, accented, rows, runs));
        }
    }

    private static double nanosPerRow(Expression x, Batch[] batches, int rows, int runs) {
        double[] times = new double[runs];
        long sink = 0;
        for (int run = -3; run < runs; run++) {
            long t0 = CPU.getCurrentThreadCpuTime();
            for (Batch b : batches) {
                ColumnVector v = x.evaluate(b);
                sink += v.capacity();
            }
            if (run >= 0) {
                times[run] = (CPU.getCurrentThreadCpuTime() - t0) / (double) rows;
            }
        }
        if (sink == 42) {
            System.out.println();
        }
        Arrays.sort(times);
        return times[runs / 2];
    }

    /** Words of letters and digits, 24 characters a row; {@code accent} makes the 5th character é. */
    private static Batch[] batches(int rows, boolean accent) {
        Random random = new Random(7);
        String letters = "hello world foo 0123456789 bar baz quux";
        Batch[] out = new Batch[(rows + BATCH - 1) / BATCH];
        for (int b = 0; b < out.length; b++) {
            int n = Math.min(BATCH, rows - b * BATCH);
            VectorBuilder v = new VectorBuilder(DataType.VARCHAR, n);
            for (int r = 0; r < n; r++) {
                StringBuilder sb = new StringBuilder();
                for (int c = 0; c < 24; c++) {
                    sb.append(c == 4 && accent ? 'é' : letters.charAt(random.nextInt(letters.length())));
                }
                v.appendObject(sb.toString());
            }
            out[b] = Batch.of(n, v.build());
        }
        return out;
    }
}
