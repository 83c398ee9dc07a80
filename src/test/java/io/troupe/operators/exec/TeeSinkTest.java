package io.troupe.operators.exec;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link TeeSink}: every sink sees every batch it wants, each step of the protocol, and all its finalize work. */
class TeeSinkTest {

    /** A sink that records what reaches it, wants {@code wanted} batches per worker and has {@code units} of work. */
    private static final class Recording implements Sink {
        final List<String> events = new ArrayList<>();
        final int wanted;
        final AtomicInteger units;

        Recording(int wanted, int units) {
            this.wanted = wanted;
            this.units = new AtomicInteger(units);
        }

        @Override
        public String role() {
            return "recording";
        }

        @Override
        public SinkState open(ExecContext ctx) {
            events.add("open");
            return new SinkState() {
                @Override
                public BatchConsumer local() {
                    return new BatchConsumer() {
                        int taken;

                        @Override
                        public boolean accept(Batch batch) {
                            events.add("batch " + batch.size());
                            return ++taken < wanted;
                        }

                        @Override
                        public void finish() {
                            events.add("finish");
                        }
                    };
                }

                @Override
                public FinalizeWork prepareFinalize() {
                    return () -> {
                        if (units.getAndDecrement() > 0) {
                            events.add("unit");
                            return true;
                        }
                        return false;
                    };
                }

                @Override
                public void finalizeSink() {
                    events.add("finalize");
                }
            };
        }
    }

    private static Batch rows(int n) {
        return Batch.of(n, new LongVector(DataType.INT64, new long[n]));
    }

    @Test
    void everySinkSeesEveryBatchItWantsAndEveryStep() {
        Recording all = new Recording(Integer.MAX_VALUE, 2);
        Recording two = new Recording(2, 3);
        Sink.SinkState state = new TeeSink(List.of(all, two)).open(new ExecContext(1, 500));
        BatchConsumer local = state.local();
        assertTrue(local.accept(rows(1)));
        assertTrue(local.accept(rows(2)), "the first sink still wants rows");
        assertTrue(local.accept(rows(3)));
        local.finish();
        FinalizeWork work = state.prepareFinalize();
        int units = 0;
        while (work.step()) {
            units++;
        }
        assertEquals(5, units, "both sinks' units");
        assertFalse(work.step(), "asked again, none left");
        state.finalizeSink();
        assertEquals(List.of("open", "batch 1", "batch 2", "batch 3", "finish", "unit", "unit", "finalize"),
                all.events);
        assertEquals(List.of("open", "batch 1", "batch 2", "finish", "unit", "unit", "unit", "finalize"), two.events);
    }

    @Test
    void theTeeWantsNoMoreOnceNoSinkDoes() {
        Sink.SinkState state = new TeeSink(List.of(new Recording(1, 0), new Recording(2, 0)))
                .open(new ExecContext(1, 500));
        BatchConsumer local = state.local();
        assertTrue(local.accept(rows(1)));
        assertFalse(local.accept(rows(1)));
    }

    @Test
    void aTeeOfOneSinkIsRefused() {
        assertEquals("a tee needs two sinks or more, not 1", assertThrows(IllegalArgumentException.class,
                () -> new TeeSink(List.of(new Recording(1, 0)))).getMessage());
    }
}
