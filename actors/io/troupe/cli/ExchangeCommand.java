package io.troupe.cli;

import io.troupe.config.ClusterSettings;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.transport.aeron.SharedDriverStreams;
import io.troupe.transport.aeron.StandaloneDriver;
import io.troupe.transport.codec.BatchCodec;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * {@code troupe exchange}: the throughput of the exchange between JVMs. Two JVMs ({@link ExchangeSide})
 * repartition N rows of two INT64 columns between them, each sending the half of its rows that hashes to
 * the other over one stream while it receives the other's: over {@code aeron:ipc} through one host's
 * media driver, and over {@code aeron:udp} on loopback between two drivers (as two hosts have, minus the
 * wire). The figure is GB/s of batch payload (the encoded batches, Aeron's frame headers left out) from
 * the moment both sides are told to go until both have sent and received everything, beside, measured in
 * the same run in this JVM, the codec alone (every batch encoded and decoded on one thread: the copying an
 * exchange cannot avoid) and memcpy of as many bytes in batch-sized pieces. Every run's rows and sums are
 * checked by the receiving side. Writes DIR/exchange.csv, one line per timed run.
 *
 * <p>Every process it starts is ended by its pid in a finally, every wait bounded. Not threadsafe: picocli
 * runs it once.
 */
@Command(name = "exchange", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Time a repartition of N rows between 2 JVMs over Aeron IPC and UDP, beside memcpy.",
            "Writes DIR/exchange.csv (" + ExchangeCommand.CSV_HEADER + ")."})
final class ExchangeCommand implements Callable<Integer> {

    static final String CSV_HEADER = "media,run,rows,payload_bytes,seconds,gb_per_s";
    static final String IPC_ONE_JVM = "ipc-1jvm";
    static final String IPC = "ipc";
    static final String UDP = "udp";
    private static final List<String> MEDIA = List.of(IPC_ONE_JVM, IPC, UDP);
    private static final Duration START = Duration.ofSeconds(60);

    @Option(names = "--rows", paramLabel = "N", description = "rows repartitioned (default: ${DEFAULT-VALUE})")
    long rows = 10_000_000;

    @Option(names = "--runs", paramLabel = "R", description = "timed runs per medium (default: ${DEFAULT-VALUE})")
    int runs = 5;

    @Option(names = "--warmups", paramLabel = "R", description = "untimed runs before (default: ${DEFAULT-VALUE})")
    int warmups = 2;

    @Option(names = "--media", split = ",", paramLabel = "M",
            description = "ipc-1jvm (both sides in this JVM), ipc, udp (default: ${DEFAULT-VALUE})")
    List<String> media = new ArrayList<>(MEDIA);

    @Option(names = "--heap", paramLabel = "SIZE", description = "each side's -Xmx (default: ${DEFAULT-VALUE})")
    String heap = "1g";

    @Option(names = "--out", paramLabel = "DIR", description = "directory for the results (default: ${DEFAULT-VALUE})")
    Path out = Path.of("exchange-results");

    @Spec
    CommandSpec spec;

    /** The JVMs' classpath; a test gives surefire's. */
    String classpath = System.getProperty("java.class.path");

    @Override
    public Integer call() throws Exception {
        if (rows < 2 || rows > 1_000_000_000L) {
            throw RoundOptions.bad(spec, "--rows must be in 2..1000000000, got " + rows);
        }
        if (runs < 1 || warmups < 0) {
            throw RoundOptions.bad(spec, "--runs must be at least 1 and --warmups at least 0, got " + runs + " and "
                    + warmups);
        }
        for (String m : media) {
            if (!MEDIA.contains(m)) {
                throw RoundOptions.bad(spec, "--media takes " + String.join(", ", MEDIA) + ", got '" + m + "'");
            }
        }
        OutDirectory.prepare(spec, out);
        PrintWriter progress = spec.commandLine().getErr();
        ClusterSettings cluster = ClusterSettings.load();
        TroupeSettings.Transport transport = cluster.dataPlane(TroupeSettings.load().transport());
        int mtu = cluster.dataMtu();
        List<String> csv = new ArrayList<>(List.of(CSV_HEADER));
        List<String[]> table = new ArrayList<>();
        long payload = 0;
        for (String medium : media) {
            double[] seconds = new double[runs];
            payload = measure(medium, transport, mtu, seconds, progress);
            for (int r = 0; r < runs; r++) {
                csv.add(String.format(Locale.ROOT, "%s,%d,%d,%d,%.6f,%.4f", medium, r + 1, rows, payload, seconds[r],
                        payload / seconds[r] / 1e9));
            }
            table.add(row(medium.equals(IPC_ONE_JVM) ? "ipc (1 JVM)" : medium + " (2 JVMs)", payload, seconds));
        }
        double[] codec = codec(progress);
        table.add(row("codec (1 thread)", payload, codec));
        double[] copy = memcpy(payload, progress);
        for (int r = 0; r < runs; r++) {
            csv.add(String.format(Locale.ROOT, "memcpy,%d,%d,%d,%.6f,%.4f", r + 1, rows, payload, copy[r],
                    payload / copy[r] / 1e9));
        }
        for (int r = 0; r < runs; r++) {
            csv.add(String.format(Locale.ROOT, "codec,%d,%d,%d,%.6f,%.4f", r + 1, rows, payload, codec[r],
                    payload / codec[r] / 1e9));
        }
        table.add(row("memcpy (1 thread)", payload, copy));
        Files.write(out.resolve("exchange.csv"), csv, StandardCharsets.UTF_8);
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.printf(Locale.ROOT, "repartition of %,d rows (2 x INT64) between 2 JVMs: %,d bytes of batch payload"
                + " cross; medians of %d runs%n", rows, payload, runs);
        stdout.printf(Locale.ROOT, "%-20s %10s %10s %16s %12s%n", "medium", "seconds", "GB/s", "min..max GB/s",
                "of memcpy");
        double memcpyRate = payload / median(copy);
        for (String[] line : table) {
            double rate = Double.parseDouble(line[2]) * 1e9;
            stdout.printf(Locale.ROOT, "%-20s %10s %10.2f %16s %11.1f%%%n", line[0], line[1], rate / 1e9, line[3],
                    100 * rate / memcpyRate);
        }
        stdout.println("results: " + out.resolve("exchange.csv"));
        stdout.flush();
        return 0;
    }

    /** Runs the repartition over {@code medium}; fills {@code seconds}; returns the payload bytes per run. */
    private long measure(String medium, TroupeSettings.Transport transport, int mtu, double[] seconds,
                         PrintWriter progress) throws Exception {
        Path aeronParent = LocalCluster.aeronParent();
        List<Process> started = new ArrayList<>();
        try {
            Path[] drivers = medium.equals(UDP) ? new Path[] {aeronParent.resolve("driver-0"),
                aeronParent.resolve("driver-1")} : new Path[] {aeronParent.resolve("driver")};
            for (Path driver : drivers) {
                List<String> command = new ArrayList<>(LocalCluster.javaCommand(List.of(LocalCluster.DRIVER_HEAP)));
                command.addAll(StandaloneDriver.systemProperties(transport, driver));
                command.addAll(List.of("-cp", classpath, StandaloneDriver.mainClass()));
                started.add(new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
                if (!StandaloneDriver.awaitActive(driver, START)) {
                    throw new IllegalStateException("the media driver in " + driver + " did not start within "
                            + START.toSeconds() + " s");
                }
            }
            String[] endpoints = {"127.0.0.1:" + freeUdpPort(), "127.0.0.1:" + freeUdpPort()};
            int tag = ThreadLocalRandom.current().nextInt() & -(1 << 16);
            if (medium.equals(IPC_ONE_JVM)) {
                return inThisJvm(drivers[0], transport, tag, seconds, progress);
            }
            Side[] sides = new Side[2];
            for (int s = 0; s < 2; s++) {
                // A heap touched up front: the first touch of each new page of a growing heap is a page
                // fault, which on this VM costs more than the exchange itself (docs/performance.md).
                List<String> command = new ArrayList<>(LocalCluster.javaCommand(List.of("-Xms" + heap, "-Xmx" + heap,
                        "-XX:+AlwaysPreTouch")));
                command.addAll(List.of("-cp", classpath, ExchangeSide.class.getName(),
                        drivers[Math.min(s, drivers.length - 1)].toString(), medium, String.valueOf(s),
                        String.valueOf(rows), String.valueOf(tag), endpoints[s], endpoints[1 - s], String.valueOf(mtu),
                        String.valueOf(transport.termLengthBytes())));
                Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
                started.add(process);
                sides[s] = new Side(process);
            }
            long payload = 0;
            for (int run = -warmups; run < runs; run++) {
                int id = run + warmups;
                for (Side side : sides) {
                    side.tell("run " + id);
                }
                for (Side side : sides) {
                    side.await("ready " + id, START);
                }
                for (Side side : sides) {
                    side.tell("go");
                }
                long nanos = 0;
                payload = 0;
                for (Side side : sides) {
                    String[] done = side.await("done " + id + " ", ExchangeSide.RUN.plusSeconds(10)).split(" ");
                    nanos = Math.max(nanos, Long.parseLong(done[2]));
                    payload += Long.parseLong(done[3]);
                }
                record(medium, run, nanos, payload, seconds, progress);
            }
            for (Side side : sides) {
                side.tell("quit");
            }
            return payload;
        } finally {
            for (Process p : started) {
                p.destroy();
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
            IoUtil.delete(aeronParent.toFile(), true);
        }
    }

    /** Both sides in this JVM, each with a client of its own of the driver in {@code driver}, on threads of their own. */
    private long inThisJvm(Path driver, TroupeSettings.Transport transport, int tag, double[] seconds,
                           PrintWriter progress) throws Exception {
        try (SharedDriverStreams client0 = SharedDriverStreams.connect(driver, transport, START);
             SharedDriverStreams client1 = SharedDriverStreams.connect(driver, transport, START)) {
            int batchRows = TroupeSettings.load().batchSize();
            ExchangeSide[] sides = {
                new ExchangeSide(client0, false, 0, rows, tag, "", "", 0, batchRows),
                new ExchangeSide(client1, false, 1, rows, tag, "", "", 0, batchRows)};
            long payload = sides[0].payloadBytes() + sides[1].payloadBytes();
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                for (int run = -warmups; run < runs; run++) {
                    int id = run + warmups;
                    try (ExchangeSide.Run first = sides[0].open(id); ExchangeSide.Run second = sides[1].open(id)) {
                        first.awaitConnected();
                        second.awaitConnected();
                        Future<Long> a = threads.submit(first::exchange);
                        Future<Long> b = threads.submit(second::exchange);
                        long wait = ExchangeSide.RUN.plusSeconds(10).toMillis();
                        long nanos = Math.max(a.get(wait, TimeUnit.MILLISECONDS), b.get(wait, TimeUnit.MILLISECONDS));
                        record(IPC_ONE_JVM, run, nanos, payload, seconds, progress);
                    }
                }
            } finally {
                threads.shutdownNow();
            }
            return payload;
        }
    }

    /** Keeps a timed run's seconds and says how it went. */
    private static void record(String medium, int run, long nanos, long payload, double[] seconds,
                               PrintWriter progress) {
        double s = nanos / 1e9;
        if (run >= 0) {
            seconds[run] = s;
        }
        progress.printf(Locale.ROOT, "%s %s: %.3f s, %.2f GB/s%n", medium, run < 0 ? "warm-up" : "run " + (run + 1), s,
                payload / s / 1e9);
    }

    /**
     * Seconds to encode every batch both sides send into a buffer and decode it again, on one thread: the
     * exchange's own copying, without the log, the driver or a second JVM.
     */
    private double[] codec(PrintWriter progress) {
        int batchRows = TroupeSettings.load().batchSize();
        List<Batch> batches = new ArrayList<>(ExchangeSide.batchesFor(1, 0, rows, batchRows));
        batches.addAll(ExchangeSide.batchesFor(0, 1, rows, batchRows));
        UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(ExchangeSide.fullBatchBytes(batchRows)));
        double[] seconds = new double[runs];
        long check = 0;
        for (int run = -warmups; run < runs; run++) {
            long start = System.nanoTime();
            for (Batch batch : batches) {
                int length = BatchCodec.encode(batch, 0, batch.rowCount(), buffer, 0);
                check += BatchCodec.decode(buffer, 0, length).rowCount();
            }
            double s = (System.nanoTime() - start) / 1e9;
            if (run >= 0) {
                seconds[run] = s;
            }
        }
        if (check != (warmups + runs) * batches.stream().mapToLong(Batch::rowCount).sum()) {
            throw new IllegalStateException("the codec lost rows: " + check);
        }
        progress.printf(Locale.ROOT, "codec: %.4f s median%n", median(seconds));
        return seconds;
    }

    /** Seconds to copy {@code bytes} in pieces of one batch's size, between two 64 MiB off-heap regions. */
    private double[] memcpy(long bytes, PrintWriter progress) {
        int piece = (int) Math.min(bytes, ExchangeSide.fullBatchBytes(TroupeSettings.load().batchSize()));
        int region = 64 << 20;
        UnsafeBuffer from = new UnsafeBuffer(ByteBuffer.allocateDirect(region));
        UnsafeBuffer to = new UnsafeBuffer(ByteBuffer.allocateDirect(region));
        from.setMemory(0, region, (byte) 7);
        double[] seconds = new double[runs];
        for (int run = -warmups; run < runs; run++) {
            long start = System.nanoTime();
            int offset = 0;
            for (long left = bytes; left > 0; left -= piece) {
                int n = (int) Math.min(piece, left);
                if (offset + n > region) {
                    offset = 0;
                }
                to.putBytes(offset, from, offset, n);
                offset += n;
            }
            double s = (System.nanoTime() - start) / 1e9;
            if (run >= 0) {
                seconds[run] = s;
            }
        }
        progress.printf(Locale.ROOT, "memcpy: %.4f s median%n", median(seconds));
        return seconds;
    }

    private String[] row(String name, long payload, double[] seconds) {
        double[] sorted = seconds.clone();
        Arrays.sort(sorted);
        double med = median(seconds);
        return new String[] {name, String.format(Locale.ROOT, "%.4f", med),
                String.format(Locale.ROOT, "%.6f", payload / med / 1e9),
                String.format(Locale.ROOT, "%.2f..%.2f", payload / sorted[sorted.length - 1] / 1e9,
                        payload / sorted[0] / 1e9)};
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** A side's process: lines to its stdin, its stdout read for the answer awaited. */
    private static final class Side {
        private final Process process;
        private final Writer in;
        private final BufferedReader out;

        Side(Process process) {
            this.process = process;
            this.in = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        void tell(String line) throws IOException {
            in.write(line + "\n");
            in.flush();
        }

        /** The first line starting with {@code prefix}, within {@code timeout}; an error line fails. */
        String await(String prefix, Duration timeout) throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() - deadline < 0) {
                if (out.ready()) {
                    String line = out.readLine();
                    if (line == null) {
                        break;
                    }
                    if (line.startsWith(prefix)) {
                        return line;
                    }
                    if (line.startsWith("error ")) {
                        throw new IllegalStateException("exchange side " + process.pid() + ": " + line.substring(6));
                    }
                } else if (!process.isAlive()) {
                    break;
                } else {
                    TimeUnit.MILLISECONDS.sleep(1);
                }
            }
            throw new IllegalStateException("exchange side " + process.pid() + " did not say '" + prefix.strip()
                    + "' within " + timeout.toSeconds() + " s" + (process.isAlive() ? "" : " (it exited "
                    + process.exitValue() + ")"));
        }
    }
}
