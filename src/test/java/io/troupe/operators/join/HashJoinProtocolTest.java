package io.troupe.operators.join;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.FinalizeWork;
import io.troupe.operators.exec.Operator;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The phases of package-info.java, driven by hand: which prober emits the unmatched build rows,
 * and what happens when a worker breaks the order.
 */
class HashJoinProtocolTest {

    private static final DataType[] TYPES = {DataType.INT32};
    private static final StateKey<HashJoinTable> KEY = new StateKey<>("table", HashJoinTable.class);

    @Test
    void shouldLetOnlyTheLastProberEmitUnmatchedBuildRows() {
        ExecContext ctx = new ExecContext(1, 1024);
        build(ctx, 1, 2, 3, 4);
        Operator.OperatorState probe = probe(JoinType.RIGHT).open(ctx);
        Recorder first = new Recorder();
        Recorder second = new Recorder();
        BatchConsumer firstProber = probe.bind(first);
        BatchConsumer secondProber = probe.bind(second);
        firstProber.accept(batch(2, 5));
        secondProber.accept(batch(3));
        firstProber.finish();
        assertEquals(List.of("2|2"), first.rows);
        assertEquals(1, first.finished);
        assertEquals(JoinPhase.PROBING, ctx.lookup(KEY).phase());
        secondProber.finish();
        assertEquals(List.of("3|3", "null|1", "null|4"), second.rows);
        assertEquals(1, second.finished);
        assertEquals(JoinPhase.DONE, ctx.lookup(KEY).phase());
    }

    @Test
    void shouldStoreEveryInnerMatchUnderTheAlwaysWriteBaselineButEmitNoUnmatchedRow() {
        ExecContext ctx = new ExecContext(1, 1024);
        build(ctx, 1, 2, 3, 4);
        Recorder out = new Recorder();
        BatchConsumer prober = probe(JoinType.INNER, TroupeSettings.MatchFlags.ALWAYS_WRITE).open(ctx).bind(out);
        prober.accept(batch(2, 5, 4, 2));
        prober.finish();
        assertEquals(List.of("2|2", "2|2", "4|4"), out.rows.stream().sorted().toList());
        byte[] flags = ctx.lookup(KEY).matchFlags();
        assertEquals(List.of(0, 1, 0, 1), List.of((int) flags[0], (int) flags[1], (int) flags[2], (int) flags[3]));
    }

    @Test
    void shouldRejectAProberThatBindsAfterTheLastFinished() {
        ExecContext ctx = new ExecContext(1, 1024);
        build(ctx, 1);
        Operator.OperatorState probe = probe(JoinType.FULL).open(ctx);
        probe.bind(new Recorder()).finish();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> probe.bind(new Recorder()));
        assertEquals("hash join prober bound after the last prober finished (every prober must bind before the last"
                + " one finishes): test join", e.getMessage());
    }

    @Test
    void shouldRejectAllocationBeforeEveryBuildWorkerHandedInItsRows() {
        HashJoinBuildSink sink = sink();
        HashJoinBuildSink.BuildState state = (HashJoinBuildSink.BuildState) sink.open(new ExecContext(1, 1024));
        state.local().accept(batch(1, 2));
        IllegalStateException e = assertThrows(IllegalStateException.class, state::prepareFinalize);
        assertEquals("hash join allocated before every build worker finished: 0 of 1 chunks handed in (test join)",
                e.getMessage());
    }

    @Test
    void shouldRejectFinalizingBeforeEveryChunkWasInserted() {
        ExecContext ctx = new ExecContext(1, 1024);
        HashJoinBuildSink.BuildState state = (HashJoinBuildSink.BuildState) sink().open(ctx);
        BatchConsumer local = state.local();
        local.accept(batch(1, 2));
        local.finish();
        state.prepareFinalize();
        IllegalStateException e = assertThrows(IllegalStateException.class, state::finalizeSink);
        assertEquals("hash join probed before every chunk was inserted: test join", e.getMessage());
    }

    @Test
    void shouldRejectAProbeBeforeTheBuildIsPublished() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> probe(JoinType.INNER).open(new ExecContext(1, 1024)));
        assertEquals("not published yet: table (a pipeline ran before its dependency)", e.getMessage());
    }

    private static HashJoinBuildSink sink() {
        return new HashJoinBuildSink(KEY, "test join", List.of(new ColumnExpression(0, DataType.INT32, "k")), TYPES,
                true);
    }

    private static void build(ExecContext ctx, int... keys) {
        Sink.SinkState state = sink().open(ctx);
        BatchConsumer local = state.local();
        local.accept(batch(keys));
        local.finish();
        FinalizeWork inserts = state.prepareFinalize();
        while (inserts.step()) {
            // one chunk per step
        }
        state.finalizeSink();
    }

    private static HashJoinProbeOperator probe(JoinType type) {
        return probe(type, TroupeSettings.MatchFlags.CHECK_BEFORE_WRITE);
    }

    private static HashJoinProbeOperator probe(JoinType type, TroupeSettings.MatchFlags matchFlags) {
        return new HashJoinProbeOperator(KEY, type, List.of(new ColumnExpression(0, DataType.INT32, "k")), null, TYPES,
                matchFlags, false);
    }

    private static Batch batch(int... keys) {
        return Batch.of(keys.length, new IntVector(DataType.INT32, keys.clone()));
    }

    /** A downstream that keeps rows as "left|right" text and counts finish calls. */
    private static final class Recorder implements BatchConsumer {
        final List<String> rows = new ArrayList<>();
        int finished;

        @Override
        public boolean accept(Batch batch) {
            for (int i = 0; i < batch.size(); i++) {
                Object[] row = batch.rowObjects(i);
                rows.add(row[0] + "|" + row[1]);
            }
            return true;
        }

        @Override
        public void finish() {
            finished++;
        }
    }
}
