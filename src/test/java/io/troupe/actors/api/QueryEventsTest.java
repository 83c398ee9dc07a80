package io.troupe.actors.api;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.memory.MemoryReservation;
import io.troupe.operators.spill.SpillFile;
import io.troupe.operators.spill.SpillSpace;
import io.troupe.operators.spill.SpillWriter;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * {@link QueryEvents} alone: an event carries the query's peak memory and spilled bytes as its context
 * counted them (no operator spills through the facade yet, so the spill is written here), and a stop is a
 * timeout exactly when the query had run its timeout.
 */
class QueryEventsTest {

    @TempDir
    Path tmp;

    @Test
    void anEventCarriesThePeakMemoryAndTheSpilledBytesOfItsQuery() {
        QueryEvents events = new QueryEvents();
        List<QueryEvent> told = new ArrayList<>();
        events.add(told::add);
        MemoryArena arena = new MemoryArena(32 * 1024, 0, 1 << 20);
        try (SpillSpace space = new SpillSpace(tmp, Long.MAX_VALUE, true)) {
            ExecContext ctx = new ExecContext(7, 64, arena.forQuery(7), space.forQuery(7), null);
            MemoryReservation reservation = ctx.memory().reservation(this, "test");
            reservation.grow(5000);
            reservation.shrink(3000);
            SpillFile file = ctx.spill().newFile("test", new DataType[] {DataType.INT64});
            SpillWriter writer = file.writer();
            writer.write(batchOf(1000));
            writer.finish();
            ctx.release();
            long now = System.nanoTime();
            events.ended(new QueryEvents.Admitted(7, 3, now - 50, now - 20, null), ctx, QueryEvents.RunEnd.COMPLETED);
            assertEquals(1, told.size());
            QueryEvent e = told.get(0);
            assertEquals(List.of(7L, 3L, 5000L, file.length(), 30L),
                    List.of(e.queryId(), (long) e.workers(), e.peakMemoryBytes(), e.spilledBytes(), e.queuedNanos()));
            assertEquals(QueryEvent.Outcome.SUCCEEDED, e.outcome());
            assertNull(e.rejection());
            assertEquals(1, events.endedCounts().get(QueryEvent.Outcome.SUCCEEDED));
        }
    }

    @Test
    void aStopIsATimeoutOnlyOnceTheQueryHasRunItsTimeout() {
        QueryEvents events = new QueryEvents();
        List<QueryEvent> told = new ArrayList<>();
        events.add(told::add);
        ExecContext ctx = new ExecContext(1, 64);
        long now = System.nanoTime();
        Duration hour = Duration.ofHours(1);
        events.ended(new QueryEvents.Admitted(1, 0, now, now, hour), ctx, QueryEvents.RunEnd.STOPPED);
        events.ended(new QueryEvents.Admitted(2, 0, now, now - hour.toNanos(), hour), ctx, QueryEvents.RunEnd.STOPPED);
        events.ended(new QueryEvents.Admitted(3, 0, now, now - hour.toNanos(), null), ctx, QueryEvents.RunEnd.STOPPED);
        events.ended(new QueryEvents.Admitted(4, 0, now, now - hour.toNanos(), hour), ctx, QueryEvents.RunEnd.FAILED);
        assertEquals(List.of(QueryEvent.Outcome.CANCELLED, QueryEvent.Outcome.TIMED_OUT, QueryEvent.Outcome.CANCELLED,
                QueryEvent.Outcome.FAILED), told.stream().map(QueryEvent::outcome).toList());
    }

    @Test
    void theCoordinatorsCauseTellsAStopFromAFailure() {
        assertEquals(QueryEvents.RunEnd.COMPLETED, QueryEvents.RunEnd.of((Throwable) null));
        assertEquals(QueryEvents.RunEnd.STOPPED, QueryEvents.RunEnd.of(new QueryCancelledException("stop")));
        assertEquals(QueryEvents.RunEnd.STOPPED,
                QueryEvents.RunEnd.of(new CompletionException(new QueryCancelledException("stop"))));
        assertEquals(QueryEvents.RunEnd.FAILED, QueryEvents.RunEnd.of(new QueryFailedException("bad")));
        assertEquals(QueryEvents.RunEnd.FAILED, QueryEvents.RunEnd.of(new IllegalStateException("no coordinator")));
    }

    @Test
    void aRejectionCountsByItsReasonAndAnInterruptIsACancel() {
        QueryEvents events = new QueryEvents();
        List<QueryEvent> told = new ArrayList<>();
        events.add(told::add);
        long now = System.nanoTime();
        events.rejected(5, 2, now, new QueryRejectedException(QueryRejectedException.Reason.QUEUE_FULL, "full"));
        events.rejected(6, 0, now, new QueryCancelledException("interrupted"));
        events.rejected(7, 0, now, new QueryFailedException("admission broke"));
        assertEquals(List.of(QueryEvent.Outcome.REJECTED, QueryEvent.Outcome.CANCELLED, QueryEvent.Outcome.FAILED),
                told.stream().map(QueryEvent::outcome).toList());
        assertEquals(QueryRejectedException.Reason.QUEUE_FULL, told.get(0).rejection());
        assertEquals(1, events.rejectedCounts().get(QueryRejectedException.Reason.QUEUE_FULL));
        assertEquals(0, events.rejectedCounts().get(QueryRejectedException.Reason.NEVER_FITS));
        assertEquals(1, events.endedCounts().get(QueryEvent.Outcome.REJECTED));
    }

    private static Batch batchOf(int rows) {
        TableBuilder b = new TableBuilder("t", Schema.of(Field.of("x", DataType.INT64)), rows);
        for (long i = 0; i < rows; i++) {
            b.addRow(i);
        }
        return b.build().chunks().get(0);
    }
}
