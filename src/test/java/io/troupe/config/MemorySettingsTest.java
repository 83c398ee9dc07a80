package io.troupe.config;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Lesson 2's settings: reference.conf's defaults, overrides, percentages of the heap, and bad values. */
class MemorySettingsTest {

    private static TroupeSettings.Memory memory(String text) {
        return TroupeSettings.from(ConfigFactory.parseString(text)).memory();
    }

    @Test
    void defaultsAreThirtyTwoKibChunksSixtyFourMibPreallocatedAndThreeQuartersOfTheHeap() {
        TroupeSettings.Memory m = memory("");
        assertEquals(32 * 1024, m.chunkBytes());
        assertEquals(64L * 1024 * 1024, m.preallocateBytes());
        assertEquals((long) (Runtime.getRuntime().maxMemory() * 0.75), m.budgetBytes());
        assertEquals(m, new TroupeSettings(2048, TroupeSettings.MatchFlags.CHECK_BEFORE_WRITE,
                TroupeSettings.load().transport(), TroupeSettings.load().workers()).memory());
    }

    @Test
    void overridesInBytesAndPercent() {
        TroupeSettings.Memory m = memory("troupe { hash.chunk-size = 128k, memory { preallocate = 0, budget = 1g } }");
        assertEquals(128 * 1024, m.chunkBytes());
        assertEquals(0, m.preallocateBytes());
        assertEquals(1L << 30, m.budgetBytes());
        assertEquals((long) (Runtime.getRuntime().maxMemory() * 0.5), memory("troupe.memory.budget = \"50%\"").budgetBytes());
    }

    @Test
    void badValuesNameTheirKey() {
        assertEquals("troupe.hash.chunk-size must be a power of two in 4096..67108864 bytes, got 100000",
                assertThrows(IllegalArgumentException.class, () -> memory("troupe.hash.chunk-size = 100000")).getMessage());
        assertEquals("troupe.memory.budget must be bytes or a percentage in (0, 100] of the heap, got '150%'",
                assertThrows(IllegalArgumentException.class, () -> memory("troupe.memory.budget = \"150%\"")).getMessage());
        assertEquals("troupe.memory.budget must hold at least one chunk (32768 bytes), got 1000",
                assertThrows(IllegalArgumentException.class, () -> memory("troupe.memory.budget = 1000")).getMessage());
    }
}
