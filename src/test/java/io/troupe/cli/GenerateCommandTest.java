package io.troupe.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code troupe generate} run in-process on TPC-H's smallest tables: its summary, the
 * '|'-separated files it writes, the plain progress lines when stderr is not a terminal, and that
 * bad arguments exit with 2. No timing is asserted.
 */
class GenerateCommandTest {

    @Test
    void generatesTablesPrintsASummaryAndWritesDelimitedFiles(@TempDir Path dir) throws IOException {
        Path outDir = dir.resolve("tpch");
        CliRun r = CliRun.of(new TroupeCli(), "generate", "--benchmark", "tpch", "--scale", "0.01",
                "--tables", "nation,region,supplier", "--threads", "2", "--out", outDir.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().startsWith("TPC-H, scale factor 0.01, 2 threads: 3 tables, 130 rows in "), r.out());
        assertTrue(r.out().matches("(?s).*\\bnation\\s+25 rows\\s+4 columns.*"), r.out());
        assertTrue(r.out().matches("(?s).*\\bsupplier\\s+100 rows\\s+7 columns.*"), r.out());
        assertTrue(r.out().contains("wrote 3 '|'-separated files to " + outDir), r.out());
        List<String> region = Files.readAllLines(outDir.resolve("region.tbl"));
        assertEquals(5, region.size());
        // dbgen's region.tbl, first line
        assertEquals("0|AFRICA|lar deposits. blithely final packages cajole. regular waters are final requests. "
                + "regular accounts are according to |", region.get(0));
        assertEquals(100, Files.readAllLines(outDir.resolve("supplier.tbl")).size());
        // in a test stderr is no terminal: progress comes as plain lines, never a carriage return
        assertTrue(r.err().isEmpty() || !r.err().contains("\r"), r.err());
    }

    @Test
    void badArgumentsExitWithTwo() {
        CliRun unknownBenchmark = CliRun.of(new TroupeCli(), "generate", "--benchmark", "tpcx", "--scale", "1");
        assertEquals(2, unknownBenchmark.exitCode());
        assertTrue(unknownBenchmark.err().contains("unknown benchmark 'tpcx'"), unknownBenchmark.err());
        CliRun unknownTable = CliRun.of(new TroupeCli(), "generate", "--benchmark", "tpcds", "--tables",
                "date_dim,datedim");
        assertEquals(2, unknownTable.exitCode());
        assertTrue(unknownTable.err().contains("no TPC-DS table 'datedim'"), unknownTable.err());
        assertEquals(2, CliRun.of(new TroupeCli(), "generate", "--benchmark", "tpch", "--scale", "0").exitCode());
        assertEquals(2, CliRun.of(new TroupeCli(), "generate", "--benchmark", "tpch", "--threads", "0").exitCode());
        assertEquals(2, CliRun.of(new TroupeCli(), "generate", "--scale", "1").exitCode());
    }
}
