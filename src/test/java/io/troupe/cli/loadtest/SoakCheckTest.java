package io.troupe.cli.loadtest;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The soak's verdict per gauge: allowances, settling, and the line each reading prints. */
class SoakCheckTest {

    @Test
    void shouldPassGaugesThatSettleBackAndFailThoseThatDoNot() throws Exception {
        AtomicLong settling = new AtomicLong(5);
        AtomicLong reads = new AtomicLong();
        AtomicLong leaking = new AtomicLong(3);
        AtomicLong bytes = new AtomicLong(100L << 20);
        SoakCheck check = new SoakCheck(List.of(
                // Back at 5 from its third reading after the load, as a closed publication after its linger.
                SoakGauge.count("settling", () -> reads.incrementAndGet() >= 4 ? 5 : settling.get()),
                SoakGauge.count("leaking", leaking::get),
                new SoakGauge("heap", true, bytes::get, before -> before / 10)));
        check.baseline();
        settling.set(9);
        leaking.set(4);
        bytes.addAndGet(10L << 20);

        List<SoakCheck.Reading> readings = check.check(Duration.ofSeconds(30));
        assertEquals(List.of(true, false, true), readings.stream().map(SoakCheck.Reading::ok).toList());
        assertEquals("leaking 3 -> 4 (may grow by 0)", readings.get(1).describe());
        assertEquals("heap 100.0 MiB -> 110.0 MiB (may grow by 10.0 MiB)", readings.get(2).describe());
        assertTrue(reads.get() >= 4, "read until it settled");

        bytes.addAndGet(1);
        assertFalse(check.check(Duration.ZERO).get(2).ok(), "one byte past the allowance fails");
    }
}
