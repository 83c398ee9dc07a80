package io.troupe.config;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code troupe.workers.default} is one worker per available processor unless
 * set ("auto", what DuckDB users expect of its threads); 0, the caller's thread alone, stays.
 */
class WorkersSettingsTest {

    private static TroupeSettings.Workers workers(String text) {
        return TroupeSettings.from(ConfigFactory.parseString(text)).workers();
    }

    @Test
    void shouldDefaultToOneWorkerPerProcessor() {
        int processors = Math.min(TroupeSettings.Workers.MAX_WORKERS, Runtime.getRuntime().availableProcessors());
        assertEquals(processors, workers("").defaultWorkers());
        assertEquals(processors, workers("troupe.workers.default = AUTO").defaultWorkers());
    }

    @Test
    void shouldKeepZeroForTheCallersThreadAndTakeANumber() {
        assertEquals(0, workers("troupe.workers.default = 0").defaultWorkers());
        assertEquals(3, workers("troupe.workers.default = 3").defaultWorkers());
        assertEquals(0, TroupeSettings.load().withDefaultWorkers(0).workers().defaultWorkers());
    }

    @Test
    void shouldRejectAnythingElseNamingTheKey() {
        assertEquals("troupe.workers.default must be auto or an integer, got 'many'",
                assertThrows(IllegalArgumentException.class, () -> workers("troupe.workers.default = many")).getMessage());
        assertEquals("troupe.workers.default must be auto or an integer, got '1.5'",
                assertThrows(IllegalArgumentException.class, () -> workers("troupe.workers.default = 1.5")).getMessage());
        assertEquals("troupe.workers.default must be in 0..256, got 300",
                assertThrows(IllegalArgumentException.class, () -> workers("troupe.workers.default = 300")).getMessage());
    }
}
