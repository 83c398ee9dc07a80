package io.troupe.cli;

import jdk.jfr.FlightRecorder;
import jdk.jfr.RecordingState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A profile of a body that burns CPU in a method of its own on a thread of its own: the files are
 * written, the method leads the self samples and the thread's group is counted; a body that throws
 * leaves no recording running.
 */
class BaselineProfileTest {

    /** Keeps the JIT from dropping the loop's work. */
    private static volatile long sink;

    /** Hashes and allocates for about {@code millis}; its name is what the profile must show. */
    private static void burnCpuForProfileTest(long millis) {
        long end = System.nanoTime() + millis * 1_000_000L;
        long h = 17;
        List<long[]> kept = new ArrayList<>();
        while (System.nanoTime() < end) {
            for (int i = 0; i < 100_000; i++) {
                h = h * 31 + (h >>> 7) ^ i;
            }
            kept.add(new long[1024]);
            if (kept.size() > 256) {
                kept.clear();
            }
        }
        sink = h + kept.size();
    }

    @Test
    void profilesTheBodyAndSummarisesWhereItsTimeWent(@TempDir Path dir) throws Exception {
        BaselineProfile.Summary summary = BaselineProfile.record(dir, "burn", () -> {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread burner = new Thread(() -> burnCpuForProfileTest(1500), "profile-burner-7");
            burner.setUncaughtExceptionHandler((t, e) -> failure.set(e));
            burner.start();
            burner.join();
            assertEquals(null, failure.get());
        });
        assertTrue(Files.size(dir.resolve("burn.jfr")) > 0);
        assertEquals(summary.text(), Files.readString(dir.resolve("burn.txt")));
        assertTrue(summary.executionSamples() > 0, summary.text());
        assertTrue(summary.topSelf().stream()
                        .anyMatch(e -> e.name().equals("BaselineProfileTest.burnCpuForProfileTest")), summary.text());
        assertTrue(summary.topInclusive().stream()
                .anyMatch(e -> e.name().equals("BaselineProfileTest.burnCpuForProfileTest")), summary.text());
        assertTrue(summary.topInclusive().stream().noneMatch(e -> e.name().equals("Thread.run")),
                "only Troupe's methods count inclusively: " + summary.text());
        assertTrue(summary.threadGroups().stream().anyMatch(e -> e.name().equals("profile-burner-*")), summary.text());
        assertTrue(summary.topSelf().size() <= BaselineProfile.DEFAULT_TOP);
        assertTrue(summary.text().contains("Top 15 methods by self samples"), summary.text());
        assertTrue(summary.text().contains("Thread parks of 10 ms or more"), summary.text());
    }

    @Test
    void closesTheRecordingWhenTheBodyThrows(@TempDir Path dir) {
        IllegalStateException thrown = new IllegalStateException("body failed");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> BaselineProfile.record(dir, "failing", () -> {
                    throw thrown;
                }));
        assertEquals(thrown, e);
        assertFalse(FlightRecorder.getFlightRecorder().getRecordings().stream()
                .anyMatch(r -> r.getName().equals(BaselineProfile.recordingName("failing"))
                        && r.getState() == RecordingState.RUNNING));
        assertFalse(Files.exists(dir.resolve("failing.txt")));
    }

    @Test
    void namesClassesWithoutPackagesLambdaNumbersOrDescriptors() {
        assertEquals("ProbeWorker", BaselineProfile.simpleName("io.troupe.actors.worker.ProbeWorker"));
        assertEquals("HashJoinBuildSink$BuildWorker",
                BaselineProfile.simpleName("io.troupe.operators.join.HashJoinBuildSink$BuildWorker"));
        assertEquals("PipelineWorker$$Lambda", BaselineProfile.simpleName(
                "io.troupe.actors.worker.PipelineWorker$$Lambda$431+0x00007fc62c2fc708/569648872"));
        assertEquals("int[]", BaselineProfile.simpleName("[I"));
        assertEquals("Object[][]", BaselineProfile.simpleName("[[Ljava.lang.Object;"));
    }

    @Test
    void shouldRejectANameThatIsNoPlainFileName(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BaselineProfile.record(dir, "../up", () -> { }));
        assertEquals("profile name must be a plain file name (letters, digits, '.', '_', '-'), got '../up'",
                e.getMessage());
    }
}
