package io.troupe.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code troupe demo --analyze} at a tiny size: it prints each query's EXPLAIN ANALYZE profile and result. */
class DemoCommandTest {

    @Test
    @Timeout(120)
    void analyzePrintsEachQuerysProfile() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        int code;
        // The command prints to System.out (picocli's writer is for usage and errors).
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            code = new CommandLine(new TroupeCli()).execute("demo", "--rows", "3000", "--workers", "2", "--analyze");
        } finally {
            System.setOut(saved);
        }
        String out = buffer.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, out);
        assertTrue(out.contains("Gather (actual rows=1 batches=1 time="), out);
        assertTrue(out.contains("Gather (actual rows=1 batches=1 time=") && out.contains(
                "\n  Workers Planned: 2\n  Workers Launched: 2\n"), out);
        assertTrue(out.contains("->  Hash Join INNER on (t1.i = t2.i) (actual rows=3000 "), out);
        assertTrue(out.contains("->  Hash (actual rows=3000 "), out);
        assertTrue(out.contains("->  Hash Aggregate count(*) AS count Group Key: aid (actual rows=3000 "), out);
        assertTrue(out.lines().anyMatch(l -> l.trim().equals("3000")), out);
        assertTrue(out.contains("(0 rows)"), out);
    }
}
