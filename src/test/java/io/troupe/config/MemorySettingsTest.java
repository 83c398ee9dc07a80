package io.troupe.config;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Memory and spill settings: reference.conf's defaults, overrides, percentages of the heap, the
 * budget and the disk, and bad values.
 */
class MemorySettingsTest {

    private static TroupeSettings.Memory memory(String text) {
        return TroupeSettings.from(ConfigFactory.parseString(text)).memory();
    }

    @Test
    void defaultsAreThirtyTwoKibChunksSixtyFourMibPreallocatedAndHalfTheHeapForEveryQuery() {
        TroupeSettings.Memory m = memory("");
        assertEquals(32 * 1024, m.chunkBytes());
        assertEquals(64L * 1024 * 1024, m.preallocateBytes());
        assertEquals((long) (Runtime.getRuntime().maxMemory() * 0.5), m.budgetBytes());
        assertEquals(m.budgetBytes(), m.queryLimitBytes(), "one query may use the whole budget");
        assertEquals(m, new TroupeSettings(2048, TroupeSettings.MatchFlags.CHECK_BEFORE_WRITE,
                TroupeSettings.load().transport(), TroupeSettings.load().workers()).memory());
    }

    @Test
    void overridesInBytesAndPercent() {
        TroupeSettings.Memory m = memory("troupe { hash.chunk-size = 128k, memory { preallocate = 0, budget = 1g } }");
        assertEquals(128 * 1024, m.chunkBytes());
        assertEquals(0, m.preallocateBytes());
        assertEquals(1L << 30, m.budgetBytes());
        assertEquals((long) (Runtime.getRuntime().maxMemory() * 0.25), memory("troupe.memory.budget = \"25%\"").budgetBytes());
        assertEquals(1L << 28, memory("troupe.memory { budget = 1g, query-limit = \"25%\" }").queryLimitBytes());
        assertEquals(1L << 20, memory("troupe.memory { budget = 1g, query-limit = 1m }").queryLimitBytes());
    }

    @Test
    void spillIsOnUnderTheTempDirectoryCappedAtHalfItsFreeSpace() {
        TroupeSettings.Spill spill = TroupeSettings.from(ConfigFactory.parseString("")).spill();
        assertEquals(true, spill.enabled());
        assertEquals(java.nio.file.Path.of(System.getProperty("java.io.tmpdir")), spill.directoryPath());
        long free = spill.directoryPath().toFile().getUsableSpace();
        assertEquals(free / 2, spill.maxSizeBytes(), free / 100.0, "half the free space, as it was at start");
        TroupeSettings.Spill set = TroupeSettings.from(ConfigFactory.parseString(
                "troupe.spill { enabled = off, directory = /var/tmp, max-size = 2g }")).spill();
        assertEquals(new TroupeSettings.Spill(false, "/var/tmp", 2L << 30), set);
    }

    @Test
    void admissionRunsTwiceTheProcessorsAtOnceAndGivesEachItsShareOfTheBudget() {
        TroupeSettings.Admission a = TroupeSettings.from(ConfigFactory.parseString("")).admission();
        assertEquals(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()), a.maxConcurrent());
        assertEquals(100, a.queueSize());
        assertEquals(java.time.Duration.ofSeconds(60), a.queueTimeout());
        assertEquals(1000 / a.maxConcurrent(), a.queryMemoryBytes(1000), "auto: the budget over max-concurrent");
        TroupeSettings.Admission set = TroupeSettings.from(ConfigFactory.parseString("troupe { memory.budget = 1g, "
                + "admission { max-concurrent = 3, queue-size = 0, queue-timeout = 250ms, query-memory = \"10%\" } }"))
                .admission();
        assertEquals(new TroupeSettings.Admission(3, 0, java.time.Duration.ofMillis(250), (1L << 30) / 10), set);
        assertEquals("troupe.admission.max-concurrent must be at least 1, got 0",
                assertThrows(IllegalArgumentException.class, () -> TroupeSettings.from(ConfigFactory.parseString(
                        "troupe.admission.max-concurrent = 0"))).getMessage());
    }

    @Test
    void badValuesNameTheirKey() {
        assertEquals("troupe.hash.chunk-size must be a power of two in 4096..67108864 bytes, got 100000",
                assertThrows(IllegalArgumentException.class, () -> memory("troupe.hash.chunk-size = 100000")).getMessage());
        assertEquals("troupe.memory.budget must be bytes or a percentage in (0, 100] of the heap, got '150%'",
                assertThrows(IllegalArgumentException.class, () -> memory("troupe.memory.budget = \"150%\"")).getMessage());
        assertEquals("troupe.memory.budget must hold at least one chunk (32768 bytes), got 1000",
                assertThrows(IllegalArgumentException.class, () -> memory("troupe.memory.budget = 1000")).getMessage());
        assertEquals("troupe.memory.query-limit must be between one chunk (32768 bytes) and troupe.memory.budget "
                        + "(1073741824 bytes), got 2147483648",
                assertThrows(IllegalArgumentException.class,
                        () -> memory("troupe.memory { budget = 1g, query-limit = 2g }")).getMessage());
        assertEquals("troupe.memory.query-limit must be bytes or a percentage in (0, 100] of troupe.memory.budget, "
                        + "got '0%'",
                assertThrows(IllegalArgumentException.class,
                        () -> memory("troupe.memory.query-limit = \"0%\"")).getMessage());
    }
}
