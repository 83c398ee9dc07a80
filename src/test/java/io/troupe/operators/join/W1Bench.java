package io.troupe.operators.join;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.LocalExecutor;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableScanSource;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Workload W1 by hand (no timing in tests): {@code select count(*) from t t1 join t t2 on t1.i = t2.i}
 * over N distinct INT32 rows, single-threaded, through the build sink and the probe operator, with
 * a counting sink on top; and a hand-written Java join of the same data for reference. Run:
 * <pre>
 * mvn -B -q test-compile &amp;&amp; java -Xmx8g -cp target/classes:target/test-classes \
 *     io.troupe.operators.join.W1Bench [rows] [repeats]
 * </pre>
 */
public final class W1Bench {

    private W1Bench() {
    }

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        Table t = table(rows);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double bestTroupe = Double.MAX_VALUE;
        double bestHand = Double.MAX_VALUE;
        for (int rep = 0; rep < repeats; rep++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            long troupe = troupeJoin(t, TroupeSettings.load());
            long t1 = System.nanoTime();
            long c1 = threads.getCurrentThreadCpuTime();
            long hand = handJoin(t);
            long t2 = System.nanoTime();
            long c2 = threads.getCurrentThreadCpuTime();
            bestTroupe = Math.min(bestTroupe, (t1 - t0) / 1e9);
            bestHand = Math.min(bestHand, (t2 - t1) / 1e9);
            System.out.printf("run %d: troupe count=%d %.3f s (cpu %.3f s)   hand-written count=%d %.3f s (cpu %.3f s)%n",
                    rep, troupe, (t1 - t0) / 1e9, (c1 - c0) / 1e9, hand, (t2 - t1) / 1e9, (c2 - c1) / 1e9);
        }
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

    static long troupeJoin(Table t, TroupeSettings settings) {
        StateKey<HashJoinTable> key = new StateKey<>("w1", HashJoinTable.class);
        List<Expression> keys = List.of(new ColumnExpression(0, DataType.INT32, "i"));
        DataType[] types = {DataType.INT32};
        Pipeline build = new Pipeline(0, List.of(new Pipeline.Branch(new TableScanSource(t, new int[] {0}), List.of())),
                new HashJoinBuildSink(key, "w1", keys, types, false), List.of());
        AtomicLong count = new AtomicLong();
        Sink counter = ctx -> new Sink.SinkState() {
            @Override
            public BatchConsumer local() {
                return new BatchConsumer() {
                    private long mine;

                    @Override
                    public boolean accept(Batch batch) {
                        mine += batch.size();
                        return true;
                    }

                    @Override
                    public void finish() {
                        count.addAndGet(mine);
                    }
                };
            }

            @Override
            public void finalizeSink() {
            }
        };
        Pipeline probe = new Pipeline(1, List.of(new Pipeline.Branch(new TableScanSource(t, new int[] {0}),
                List.of(new HashJoinProbeOperator(key, JoinType.INNER, keys, types, settings.matchFlags())))),
                counter, List.of(build));
        new LocalExecutor().run(List.of(build, probe), new ExecContext(1, settings.batchSize()));
        return count.get();
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
