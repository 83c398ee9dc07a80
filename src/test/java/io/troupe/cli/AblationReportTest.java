package io.troupe.cli;

import io.troupe.config.TroupeSettings;
import io.troupe.config.TroupeSettings.GatherTransport;
import io.troupe.config.TroupeSettings.MatchFlags;
import io.troupe.config.TroupeSettings.Wakeups;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ablation's bookkeeping on made-up runs (per-round ratios, order, the table) and its lesson table. */
class AblationReportTest {

    private static final List<AblationLesson> LESSONS = AblationLesson.table(1_000_000, 4);

    @Test
    void theRatioIsTheMedianOfPerRoundRatiosNotTheRatioOfMedians() {
        AblationReport report = new AblationReport(LESSONS);
        double[] baseline = {1, 4, 2};
        double[] alwaysWrite = {3, 4, 10};
        for (int round = 1; round <= 3; round++) {
            report.add(new AblationRun("s1", "right-join", "always-write", 2, round, alwaysWrite[round - 1]));
            report.add(new AblationRun("s1", "right-join", "check-before-write", 2, round, baseline[round - 1]));
        }
        List<AblationSummary> summaries = report.summaries();
        assertEquals(List.of("check-before-write", "always-write"),
                summaries.stream().map(AblationSummary::setting).toList());
        AblationSummary base = summaries.get(0);
        assertTrue(base.baseline());
        assertEquals(List.of(2.0, 1.0, 4.0, 1.0, 1.0, 1.0),
                List.of(base.median(), base.min(), base.max(), base.ratio(), base.ratioMin(), base.ratioMax()));
        AblationSummary off = summaries.get(1);
        // Rounds: 3/1, 4/4, 10/2; the medians' ratio would be 4/2 = 2.
        assertEquals(List.of(4.0, 3.0, 10.0, 3.0, 1.0, 5.0),
                List.of(off.median(), off.min(), off.max(), off.ratio(), off.ratioMin(), off.ratioMax()));
        assertEquals(3, off.runs());

        String table = AblationReport.table(summaries);
        assertTrue(table.contains("s1     right-join check-before-write *       2      2.000     1.000-4.000    1.00"
                + "     1.00-1.00"), table);
        assertTrue(table.contains("always-write               2      4.000    3.000-10.000    3.00     1.00-5.00"),
                table);
    }

    @Test
    void summariesComeByLessonWorkloadWorkersThenSettingBaselineFirst() {
        AblationReport report = new AblationReport(LESSONS);
        for (int workers : new int[] {2, 1}) {
            for (String setting : new String[] {"per-batch", "aeron"}) {
                report.add(new AblationRun("s3", "gather", setting, workers, 1, 1.0));
                report.add(new AblationRun("s3", "w2", setting, workers, 1, 1.0));
            }
        }
        assertEquals(List.of("w2/1/aeron", "w2/1/per-batch", "w2/2/aeron", "w2/2/per-batch",
                        "gather/1/aeron", "gather/1/per-batch", "gather/2/aeron", "gather/2/per-batch"),
                report.summaries().stream().map(s -> s.workload() + "/" + s.workers() + "/" + s.setting()).toList());
    }

    @Test
    void eachSettingSetsItsLessonsSwitchesTheBaselineToo() {
        TroupeSettings from = TroupeSettings.load().withMatchFlags(MatchFlags.ALWAYS_WRITE);
        AblationLesson s1 = AblationLesson.find(LESSONS, "S1");
        assertEquals(MatchFlags.CHECK_BEFORE_WRITE, s1.baseline().apply().apply(from).matchFlags());
        assertEquals(MatchFlags.ALWAYS_WRITE, s1.settings().get(1).apply().apply(from).matchFlags());

        AblationLesson s2 = AblationLesson.find(LESSONS, "s2");
        long fit32 = AblationLesson.w1HashTableBytes(1_000_000, 32 * 1024, 4);
        assertTrue(fit32 >= 8_000_000 + 4 * 32 * 1024, "a packed long per row and a partly filled chunk per worker");
        List<TroupeSettings.Memory> memory = s2.settings().stream().map(s -> s.apply().apply(from).memory()).toList();
        assertEquals(new TroupeSettings.Memory(32 * 1024, fit32, Math.max(from.memory().budgetBytes(), fit32)),
                memory.get(0));
        assertEquals(0, memory.get(1).preallocateBytes());
        assertEquals(32 * 1024, memory.get(1).chunkBytes());
        assertEquals(128 * 1024, memory.get(2).chunkBytes());
        assertEquals(AblationLesson.w1HashTableBytes(1_000_000, 128 * 1024, 4), memory.get(2).preallocateBytes());

        AblationLesson s3 = AblationLesson.find(LESSONS, "s3");
        List<TroupeSettings.Transport> transports = s3.settings().stream()
                .map(s -> s.apply().apply(from).transport()).toList();
        assertEquals(List.of(GatherTransport.AERON, GatherTransport.LOCKED_QUEUE, GatherTransport.LOCKED_QUEUE),
                transports.stream().map(TroupeSettings.Transport::gatherTransport).toList());
        assertEquals(List.of(Wakeups.BATCHED, Wakeups.BATCHED, Wakeups.PER_BATCH),
                transports.stream().map(TroupeSettings.Transport::wakeups).toList());
        assertEquals(from.transport().termLengthBytes(), transports.get(2).termLengthBytes());
        // Every gathered row comes from a worker, over the transport.
        assertFalse(AblationWorkload.GATHER.settings().apply(from).workers().leaderParticipation());
    }
}
