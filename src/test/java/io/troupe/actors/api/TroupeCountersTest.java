package io.troupe.actors.api;

import com.typesafe.config.ConfigFactory;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.spill.QuerySpill;
import io.troupe.operators.spill.SpillFile;
import io.troupe.operators.spill.SpillWriter;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Troupe#counters()} and the monitoring parts of {@link Troupe#status()}: back-pressure counts the
 * waits of workers whose channel a slow stream let fill (on both transports) and none for a small query;
 * spill counts what the Troupe's spill space wrote and holds.
 */
class TroupeCountersTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"aeron", "locked-queue"})
    @Timeout(120)
    void anUnreadStreamsWorkersWaitOnTheirFullChannelsAndEachWaitCountsOnce(String transport) throws Exception {
        // A 1 MiB term lets a worker run half a term ahead (about 30 batches of 2048 BIGINTs): 2M rows are
        // 1000 batches, far more than the channels and the hand-over hold.
        TroupeSettings settings = TroupeSettings.from(ConfigFactory.parseString(
                "troupe.gather.transport = " + transport + "\ntroupe.transport.term-length = 1m"));
        long n = 2_000_000;
        try (Troupe troupe = Troupe.start(settings)) {
            // Before the stream: once it runs, its workers may fill their channels before this thread looks.
            assertEquals(0, troupe.counters().backPressureEvents());
            try (QueryStream stream = troupe.stream(Plan.series("x", 1, n), QueryOptions.defaults().withWorkers(2))) {
                readSlowlyThenAll(troupe, stream, n);
            }
        }
    }

    /** Waits until a worker waited on its full channel, then reads every row: all of them, each wait counted once. */
    private static void readSlowlyThenAll(Troupe troupe, QueryStream stream, long n) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (troupe.counters().backPressureEvents() == 0) {
            assertTrue(System.nanoTime() < deadline, "no worker ever waited: " + troupe.counters());
            Thread.sleep(1);
        }
        long rows = 0;
        long sum = 0;
        long batches = 0;
        for (Batch b = stream.next(WAIT); b != null; b = stream.next(WAIT)) {
            batches++;
            rows += b.size();
            for (int i = 0; i < b.size(); i++) {
                sum += (Long) b.rowObjects(i)[0];
            }
        }
        assertEquals(n, rows);
        assertEquals(n * (n + 1) / 2, sum);
        long waits = troupe.counters().backPressureEvents();
        // At most one wait per send, however long it spun: a send per batch, and each worker's end of stream.
        assertTrue(waits > 0 && waits <= batches + 2, "waits " + waits + " for " + batches + " batches");
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2, 4})
    @Timeout(60)
    void aSmallQueryNeverWaitsOnItsChannels(int workers) throws Exception {
        try (Troupe troupe = FactsAndDims.start()) {
            // dims: 30 rows in chunks of 7, a handful of batches per worker, against channels that hold dozens.
            assertEquals(15, troupe.execute(Plan.scan("dims").filter(col("k").lt(lit(30))),
                    QueryOptions.defaults().withWorkers(workers)).rowCount());
            assertEquals(1, troupe.counters().ended(QueryEvent.Outcome.SUCCEEDED));
            assertEquals(0, troupe.counters().backPressureEvents());
        }
    }

    @Test
    @Timeout(60)
    void spillCountsWhatTheTroupesSpillSpaceWroteAndHolds() throws Exception {
        try (Troupe troupe = FactsAndDims.start()) {
            assertEquals(0, troupe.counters().spillWrittenBytes());
            assertEquals(0, troupe.status().spillHeldBytes());
            QuerySpill spill = troupe.spillSpace().forQuery(-1);
            SpillFile file = spill.newFile("counters test", new DataType[] {DataType.INT64});
            SpillWriter writer = file.writer();
            for (Batch b : troupe.execute(Plan.series("x", 1, 100_000), QueryOptions.defaults().withWorkers(0))
                    .batches()) {
                writer.write(b);
            }
            writer.finish();
            assertTrue(file.length() > 100_000 * Long.BYTES / 2, "written: " + file.length());
            assertEquals(file.length(), troupe.counters().spillWrittenBytes());
            assertEquals(troupe.spillSpace().writtenBytes(), troupe.counters().spillWrittenBytes());
            assertEquals(file.length(), troupe.status().spillHeldBytes());
            spill.releaseAll();
            assertEquals(0, troupe.status().spillHeldBytes(), "deleted files hold nothing");
            assertEquals(file.length(), troupe.counters().spillWrittenBytes(), "what was written stays counted");
        }
    }

    @Test
    void countersHaveEveryOutcomeAndReasonAndAnswerForEach() {
        TroupeCounters counters = new QueryMix.Tally(0).counters(3, 4);
        assertEquals(0, counters.ended(QueryEvent.Outcome.TIMED_OUT));
        assertEquals(0, counters.rejected(QueryRejectedException.Reason.CLOSED));
        assertThrows(UnsupportedOperationException.class, () -> counters.ended().put(QueryEvent.Outcome.FAILED, 1L));
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> new TroupeCounters(0, Map.of(), counters.rejected(), 0, 0));
        assertEquals("TroupeCounters: no count for outcome SUCCEEDED", missing.getMessage());
        assertEquals(List.of(3L, 4L), List.of(counters.backPressureEvents(), counters.spillWrittenBytes()));
    }
}
