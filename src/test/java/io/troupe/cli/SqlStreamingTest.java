package io.troupe.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bin/troupe sql} prints a result as it comes: a child JVM of a 128 MB heap runs an ORDER BY of 1.2 million
 * rows, and EXPLAIN ANALYZE of it, over a table of some 40 MB. Collected as rows of Java objects (an Object[3] with
 * a Long, a String and a BigDecimal: some 150 bytes a row) the result alone would need 180 MB, more than the heap;
 * streamed, every row comes out, in order, with the values the table holds. The table format's column widths, set
 * by its first rows and kept after them, are checked in-process.
 */
class SqlStreamingTest {

    private static final int ROWS = 1_200_000;
    private static final String HEAP = "-Xmx128m";

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void shouldStreamAResultLargerThanTheHeapCouldHoldAsRows(@TempDir Path dir) throws Exception {
        long expectedSum = 0;
        try (BufferedWriter csv = Files.newBufferedWriter(dir.resolve("big.csv"), StandardCharsets.UTF_8)) {
            csv.write("id INT64 NOT NULL,name VARCHAR,amount DECIMAL(12,2)\n");
            for (long i = 1; i <= ROWS; i++) {
                csv.write(i + ",name-" + i + "," + amount(i) + "\n");
                expectedSum += i;
            }
        }
        List<String> command = new ArrayList<>(LocalCluster.javaCommand(List.of(HEAP, "-XX:+UseSerialGC",
                "-Dtroupe.memory.preallocate=0", "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                TroupeCli.class.getName())));
        command.addAll(List.of("sql", "--load", dir.toString(), "--format", "csv", "--workers", "2", "-c",
                "SELECT id, name, amount FROM big ORDER BY id DESC; EXPLAIN ANALYZE SELECT id, name, amount FROM big "
                        + "ORDER BY id DESC"));
        Process child = new ProcessBuilder(command).redirectError(dir.resolve("err.txt").toFile()).start();
        child.getOutputStream().close();
        long rows = 0;
        long sum = 0;
        long previous = Long.MAX_VALUE;
        StringWriter explain = new StringWriter();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            assertEquals("id,name,amount", out.readLine());
            PrintWriter rest = new PrintWriter(explain);
            for (String line; (line = out.readLine()) != null; ) {
                if (rows < ROWS) {
                    String[] cells = line.split(",");
                    long id = Long.parseLong(cells[0]);
                    assertTrue(id < previous, "not in descending order: " + id + " after " + previous);
                    assertEquals("name-" + id, cells[1]);
                    assertEquals(amount(id), new BigDecimal(cells[2]));
                    previous = id;
                    sum += id;
                    rows++;
                } else {
                    rest.println(line);
                }
            }
        }
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the child JVM did not end");
        String err = Files.readString(dir.resolve("err.txt"));
        assertEquals(0, child.exitValue(), err);
        assertEquals(ROWS, rows, err);
        assertEquals(expectedSum, sum);
        assertTrue(explain.toString().contains("Sort big.id DESC") && explain.toString().contains(
                "(actual rows=" + ROWS + " "), explain.toString());
    }

    @Test
    void shouldKeepTheWidthsOfTheFirstRowsForTheRest() {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        TableWriter table = new TableWriter(List.of("n", "name"), out, 2, java.time.ZoneOffset.UTC);
        table.row(new Object[] {1L, "a"});
        table.row(new Object[] {22L, null});
        table.row(new Object[] {333L, "ccc"});
        table.end();
        out.flush();
        assertEquals("""
                 n  | name
                ----+------
                  1 | a
                 22 | NULL
                 333 | ccc
                (3 rows)
                """, text.toString());
    }

    @Test
    void shouldMeasureAllRowsOfAResultShorterThanTheBlock() {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        ResultFormat.TABLE.write(List.of("n", "name"), List.of(new Object[] {1L, "a"}, new Object[] {333L, "ccc"}),
                out);
        out.flush();
        assertEquals("""
                 n   | name
                -----+------
                   1 | a
                 333 | ccc
                (2 rows)
                """, text.toString());
    }

    private static BigDecimal amount(long i) {
        return BigDecimal.valueOf(i % 100_000, 2);
    }
}
