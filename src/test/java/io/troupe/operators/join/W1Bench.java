package io.troupe.operators.join;

import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;

/**
 * Workload W1 by hand (no timing in tests): {@code select count(*) from t t1 join t t2 on t1.i = t2.i}
 * over N distinct INT32 rows, single-threaded, as a plan through the {@link Troupe} facade; and a
 * hand-written Java join of the same data for reference, in the same JVM. Run:
 * <pre>
 * mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -Xms8g -Xmx8g -cp target/classes:target/test-classes:$(cat target/cp.txt) \
 *     io.troupe.operators.join.W1Bench [rows] [repeats]
 * </pre>
 * It prints wall and thread CPU time per run and the best of each: on a shared machine the CPU
 * time says more, and the hand-written join run in between is the yardstick. The wall time of
 * the plan includes the young collections that copy the build table's chunks (until lesson 2's
 * arena hands chunks out); the hand-written join allocates three large arrays and copies none.
 */
public final class W1Bench {

    private W1Bench() {
    }

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        Table t = table(rows);
        Troupe troupe = Troupe.start(TroupeSettings.load());
        troupe.register(t);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double bestTroupe = Double.MAX_VALUE;
        double bestHand = Double.MAX_VALUE;
        for (int rep = 0; rep < repeats; rep++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            long joined = troupeJoin(troupe);
            long t1 = System.nanoTime();
            long c1 = threads.getCurrentThreadCpuTime();
            long hand = handJoin(t);
            long t2 = System.nanoTime();
            long c2 = threads.getCurrentThreadCpuTime();
            bestTroupe = Math.min(bestTroupe, (t1 - t0) / 1e9);
            bestHand = Math.min(bestHand, (t2 - t1) / 1e9);
            System.out.printf("run %d: troupe count=%d %.3f s (cpu %.3f s)"
                            + "   hand-written count=%d %.3f s (cpu %.3f s)%n",
                    rep, joined, (t1 - t0) / 1e9, (c1 - c0) / 1e9, hand, (t2 - t1) / 1e9, (c2 - c1) / 1e9);
        }
        troupe.close();
        System.out.printf("best of %d: troupe %.3f s, hand-written %.3f s, ratio %.2f%n",
                repeats, bestTroupe, bestHand, bestTroupe / bestHand);
    }

    static Table table(int rows) {
        List<Batch> chunks = new ArrayList<>();
        int chunkRows = 16 * 1024;
        for (int start = 0; start < rows; start += chunkRows) {
            int n = Math.min(chunkRows, rows - start);
            int[] values = new int[n];
            for (int i = 0; i < n; i++) {
                values[i] = start + i + 1;
            }
            chunks.add(Batch.of(n, new IntVector(DataType.INT32, values)));
        }
        return new Table("t", Schema.of(Field.of("i", DataType.INT32)), chunks);
    }

    /** The query through the facade: scan, hash join, count(*). */
    static long troupeJoin(Troupe troupe) {
        Plan w1 = Plan.scan("t").as("t1")
                .join(Plan.scan("t").as("t2"), JoinType.INNER, col("t1.i").eq(col("t2.i")))
                .aggregate(List.of(), count());
        return (Long) troupe.execute(w1).rows().get(0).get(0);
    }

    /** The reference: a chained hash table of primitive arrays over the same chunks. */
    static long handJoin(Table t) {
        int n = (int) t.rowCount();
        int cap = Integer.highestOneBit(Math.max(1, n - 1)) << 1;
        int[] head = new int[cap];
        Arrays.fill(head, -1);
        int[] next = new int[n];
        int[] keys = new int[n];
        int row = 0;
        for (Batch b : t.chunks()) {
            int[] v = ((IntVector) b.column(0)).values();
            for (int i = 0; i < b.size(); i++, row++) {
                keys[row] = v[i];
                int h = (int) mix(v[i]) & (cap - 1);
                next[row] = head[h];
                head[h] = row;
            }
        }
        long count = 0;
        for (Batch b : t.chunks()) {
            int[] v = ((IntVector) b.column(0)).values();
            for (int i = 0; i < b.size(); i++) {
                int k = v[i];
                for (int r = head[(int) mix(k) & (cap - 1)]; r >= 0; r = next[r]) {
                    if (keys[r] == k) {
                        count++;
                    }
                }
            }
        }
        return count;
    }

    private static long mix(long value) {
        return io.troupe.operators.batch.VectorHash.mix(value);
    }
}
