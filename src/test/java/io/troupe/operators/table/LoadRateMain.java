package io.troupe.operators.table;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.Random;

/**
 * Measures the load rate of {@link DelimitedFileLoader} by hand (not a test: timings never go
 * into assertions). Writes a dbgen-style '|' file of int, decimal, date and varchar columns, then
 * loads it several times and prints MB/s for each run, and the same for DuckDB's reader (into a
 * table, on one thread and on all) as the peer.
 *
 * <pre>
 * mvn -B -q test-compile
 * java -Xms4g -Xmx4g -XX:+AlwaysPreTouch \
 *     -cp target/classes:target/test-classes:$HOME/.m2/repository/org/duckdb/duckdb_jdbc/2.0.0.1/duckdb_jdbc-2.0.0.1.jar \
 *     io.troupe.operators.table.LoadRateMain [lines] [runs]
 * </pre>
 *
 * <p>Pre-touch the heap: without it the runs after the first few slow down by half or more, the
 * loading thread's CPU time rising with wall time, as the growing heap is faulted in (design lesson 2).
 */
public final class LoadRateMain {

    private LoadRateMain() {
    }

    public static void main(String[] args) throws IOException {
        int lines = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        Schema schema = Schema.of(
                Field.of("id", DataType.INT32).withNullable(false),
                Field.of("price", DataType.decimal(7, 2)),
                Field.of("day", DataType.DATE),
                Field.of("name", DataType.VARCHAR));
        Path file = Files.createTempFile("troupe-load-rate", ".tbl");
        try {
            Random random = new Random(42);
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                for (int i = 0; i < lines; i++) {
                    w.write(Integer.toString(i));
                    w.write('|');
                    w.write(Long.toString(random.nextInt(10_000_000) / 100));
                    w.write('.');
                    w.write(String.format("%02d", random.nextInt(100)));
                    w.write('|');
                    w.write(LocalDate.ofEpochDay(8_000 + random.nextInt(3_000)).toString());
                    w.write('|');
                    w.write("Customer#" + random.nextInt(1_000_000) + " of the " + (i % 7) + "th market");
                    w.write("|\n");
                }
            }
            long bytes = Files.size(file);
            DelimitedFileLoader loader = new DelimitedFileLoader(schema, DelimitedFormat.tpc());
            System.out.printf("file: %d lines, %.1f MB%n", lines, bytes / 1e6);
            ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
            for (int run = 1; run <= runs; run++) {
                long start = System.nanoTime();
                long cpuStart = cpu.getCurrentThreadCpuTime();
                Table t = loader.load(file, "t");
                long ns = System.nanoTime() - start;
                long cpuNs = cpu.getCurrentThreadCpuTime() - cpuStart;
                // CPU time of the loading thread too: on a shared machine wall time mostly measures the neighbours
                System.out.printf("run %d: %d rows in %.0f ms = %.0f MB/s (thread CPU %.0f ms = %.0f MB/s)%n", run,
                        t.rowCount(), ns / 1e6, bytes / 1e6 / (ns / 1e9), cpuNs / 1e6, bytes / 1e6 / (cpuNs / 1e9));
            }
            for (String threads : new String[] {"1", "all"}) {
                try (Connection conn = DriverManager.getConnection("jdbc:duckdb:");
                     Statement st = conn.createStatement()) {
                    if (threads.equals("1")) {
                        st.execute("SET threads = 1");
                    }
                    for (int run = 1; run <= runs; run++) {
                        long start = System.nanoTime();
                        st.execute("CREATE OR REPLACE TABLE t AS SELECT * FROM read_csv('" + file + "', delim='|', "
                                + "quote='', escape='', header=false, auto_detect=false, columns={'id': 'INTEGER', "
                                + "'price': 'DECIMAL(7,2)', 'day': 'DATE', 'name': 'VARCHAR'})");
                        long ns = System.nanoTime() - start;
                        System.out.printf("duckdb threads=%s run %d: %.0f ms = %.0f MB/s%n", threads, run, ns / 1e6,
                                bytes / 1e6 / (ns / 1e9));
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("DuckDB peer failed", e);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
