package io.troupe.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code troupe exchange} end to end at a small size: two sides repartition rows over IPC (one driver) in
 * this JVM and in two JVMs, and over UDP (two drivers); each side checks the count and sum of what it received against what the
 * other must have sent, so a run that lost or doubled a batch fails the command. No timing is asserted,
 * only that every medium has its runs with the payload that crossed. Bad arguments exit 2 first.
 */
class ExchangeCommandTest {

    @Test
    @Timeout(240)
    void repartitionsOverIpcAndUdpBesideTheCodecAndMemcpy(@TempDir Path dir) throws Exception {
        ExchangeCommand command = new ExchangeCommand();
        command.classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        CliRun r = CliRun.of(command, "--rows", "200000", "--runs", "2", "--warmups", "0", "--heap", "256m",
                "--out", dir.toString());
        assertEquals(0, r.exitCode(), r.err() + r.out());

        List<String[]> rows = Files.readAllLines(dir.resolve("exchange.csv")).stream().skip(1)
                .map(l -> l.split(",")).toList();
        Map<String, Long> runs = rows.stream().collect(Collectors.groupingBy(row -> row[0], Collectors.counting()));
        assertEquals(Map.of("ipc-1jvm", 2L, "ipc", 2L, "udp", 2L, "codec", 2L, "memcpy", 2L), runs);
        long payload = Long.parseLong(rows.get(0)[3]);
        // About half of each side's 100,000 rows cross, 16 bytes a row and a header per batch.
        assertTrue(payload > 1_500_000 && payload < 1_800_000, "payload " + payload);
        for (String[] row : rows) {
            assertEquals(payload, Long.parseLong(row[3]), String.join(",", row));
            assertTrue(Double.parseDouble(row[4]) > 0, String.join(",", row));
        }
        assertTrue(r.out().contains("ipc (1 JVM)") && r.out().contains("ipc (2 JVMs)") && r.out().contains("udp (2 JVMs)")
                && r.out().contains("of memcpy"), r.out());
    }

    @Test
    void refusesABadMedium(@TempDir Path dir) {
        CliRun r = CliRun.of(new ExchangeCommand(), "--media", "tcp", "--out", dir.toString());
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--media takes ipc-1jvm, ipc, udp, got 'tcp'"), r.err());
    }
}
