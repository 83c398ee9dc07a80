package io.troupe.config;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A mistyped key under {@code troupe} and a fraction where a whole number belongs
 * were taken silently (the default stayed in force; {@code batch-size = 1.5} became 1). Both are now
 * errors that name the key by its full path, an unknown key with the nearest known one. The known
 * keys are reference.conf's, so a key added there is known without more.
 */
class SettingKeysTest {

    private static String error(String text) {
        return assertThrows(IllegalArgumentException.class, () -> TroupeSettings.from(ConfigFactory.parseString(text)))
                .getMessage();
    }

    @Test
    void shouldRejectAMistypedKeyNamingTheNearestKnownOne() {
        assertEquals("unknown setting troupe.hash.chunksize (did you mean troupe.hash.chunk-size?)",
                error("troupe.hash.chunksize = 64k"));
        assertEquals("unknown setting troupe.batchsize (did you mean troupe.batch-size?)", error("troupe.batchsize = 1024"));
        assertEquals("unknown setting troupe.worker.default (did you mean troupe.workers.default?)",
                error("troupe { worker { default = 2 } }"));
    }

    @Test
    void shouldNameEveryUnknownKeyInOrder() {
        assertEquals("unknown setting troupe.gather.transprt (did you mean troupe.gather.transport?); "
                        + "unknown setting troupe.memory.budgit (did you mean troupe.memory.budget?)",
                error("troupe { memory.budgit = 1g, gather.transprt = aeron }"));
    }

    @Test
    void shouldRejectKeysFromSystemPropertiesToo() {
        // What -Dtroupe.hash.chunksize=64k gives ConfigFactory.load().
        assertEquals("unknown setting troupe.hash.chunksize (did you mean troupe.hash.chunk-size?)",
                assertThrows(IllegalArgumentException.class, () -> TroupeSettings.from(ConfigFactory.parseMap(
                        Map.of("troupe.hash.chunksize", "64k"), "system properties"))).getMessage());
    }

    @Test
    void shouldLeaveKeysOutsideTroupeAlone() {
        assertEquals(512, TroupeSettings.from(ConfigFactory.parseString(
                "pekko.loglevel = DEBUG\ntroupe-other.x = 1\ntroupe.batch-size = 512")).batchSize());
    }

    @Test
    void shouldRejectAFractionWhereAnIntegerBelongs() {
        assertEquals("troupe.batch-size must be an integer, got '1.5'", error("troupe.batch-size = 1.5"));
        assertEquals("troupe.gather.queue-capacity must be an integer, got '8.25'", error("troupe.gather.queue-capacity = 8.25"));
        assertEquals("troupe.workers.threads must be an integer, got 'two'", error("troupe.workers.threads = two"));
        assertEquals("troupe.batch-size must be an integer, got '4294967296'", error("troupe.batch-size = 4294967296"));
        // A system property's value is text: whole numbers in text are fine, fractions are not.
        assertEquals(1024, TroupeSettings.from(ConfigFactory.parseMap(Map.of("troupe.batch-size", "1024"))).batchSize());
        assertEquals("troupe.batch-size must be an integer, got '1.5'",
                assertThrows(IllegalArgumentException.class, () -> TroupeSettings.from(ConfigFactory.parseMap(
                        Map.of("troupe.batch-size", "1.5")))).getMessage());
    }

    @Test
    void shouldRejectAFractionOfAByte() {
        assertEquals("troupe.memory.preallocate must be a whole number of bytes or a size with a unit (32k, 8m), got '1.5'",
                error("troupe.memory.preallocate = 1.5"));
        assertEquals(1536 * 1024, TroupeSettings.from(ConfigFactory.parseString("troupe.memory.preallocate = 1.5m"))
                .memory().preallocateBytes());
    }

    @Test
    void shouldMeasureEditDistance() {
        assertEquals(0, Spelling.editDistance("batch-size", "batch-size"));
        assertEquals(1, Spelling.editDistance("chunksize", "chunk-size"));
        assertEquals(1, Spelling.editDistance("transprt", "transport"));
        assertEquals(3, Spelling.editDistance("kitten", "sitting"));
        assertEquals(5, Spelling.editDistance("", "hello"));
    }
}
