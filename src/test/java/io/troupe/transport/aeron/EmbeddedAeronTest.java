package io.troupe.transport.aeron;

import com.typesafe.config.ConfigFactory;
import io.aeron.Aeron;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.transport.BatchChannel;
import io.troupe.transport.BatchHandler;
import io.troupe.transport.BatchReceiver;
import io.troupe.transport.BatchSender;
import io.troupe.transport.TransportRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedded driver's lifecycle: its own directory, its threads, its footprint in /dev/shm, and
 * nothing left behind once closed.
 */
@Timeout(60)
class EmbeddedAeronTest {

    @TempDir
    Path dir;

    /** A stall of the whole JVM under a minute (a GC pause, a starved machine) must not close the client for good. */
    @Test
    void driverAndClientGiveEachOtherUpAfterAMinuteNotTenSeconds() {
        TransportRuntime runtime = TransportRuntime.start(settings(""));
        try {
            Aeron.Context client = runtime.aeron().orElseThrow().aeron().context();
            assertEquals(60_000, client.driverTimeoutMs());
            assertEquals(EmbeddedAeron.LIVENESS_TIMEOUT_NS, client.interServiceTimeoutNs(),
                    "the driver's client liveness timeout, as the client read it from the driver's files");
        } finally {
            runtime.close();
        }
    }

    @Test
    void shouldLeaveNoDirectoryThreadOrMappingAfterClose() throws IOException {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        Path directory;
        TransportRuntime runtime = TransportRuntime.start(settings(""));
        try {
            EmbeddedAeron aeron = runtime.aeron().orElseThrow();
            directory = aeron.directory();
            String expectedPrefix = "troupe-aeron-" + ProcessHandle.current().pid() + "-";
            assertTrue(directory.getFileName().toString().startsWith(expectedPrefix), directory.toString());
            assertEquals(dir, directory.getParent());
            assertTrue(Files.exists(directory.resolve("cnc.dat")));
            assertFalse(newAeronThreads(before).isEmpty(), "the driver and client run threads of their own");

            BatchChannel channel = runtime.openChannel();
            assertEquals(1, aeron.driverPublications());
            sendAndReceiveOneBatch(channel);
            assertTrue(mappings().contains(directory.toString()), "the log is mapped while the channel is open");
        } finally {
            runtime.close();
        }
        assertFalse(Files.exists(directory), directory + " still exists");
        assertEquals(List.of(), newAeronThreads(before), "threads left running");
        assertFalse(mappings().contains(directory.toString()), "a file of " + directory + " is still mapped");
    }

    @Test
    void shouldMapNoMoreThanTheRoomItChoosesItsDirectoryBy() throws IOException {
        TroupeSettings.Transport defaults = settings("");
        int channels = 8;
        try (TransportRuntime runtime = TransportRuntime.start(defaults)) {
            for (int i = 0; i < channels; i++) {
                runtime.openChannel();
            }
            Path directory = runtime.aeron().orElseThrow().directory();
            long driverFiles = sizeOf(directory) - sizeOf(directory.resolve("publications"));
            List<Long> logs;
            try (Stream<Path> files = Files.list(directory.resolve("publications"))) {
                logs = files.map(EmbeddedAeronTest::size).collect(Collectors.toList());
            }
            assertEquals(channels, logs.size());
            for (long log : logs) {
                assertEquals(3L * defaults.termLengthBytes() + 4096, log, "a log is 3 terms and a 4 KiB trailer");
            }
            assertTrue(driverFiles <= 13L << 20, "driver files=" + driverFiles);
            assertTrue(driverFiles + EmbeddedAeron.ROOM_FOR_CHANNELS * logs.get(0)
                            <= EmbeddedAeron.roomNeeded(defaults.termLengthBytes()),
                    "the driver and " + EmbeddedAeron.ROOM_FOR_CHANNELS + " channels fit in the room asked of /dev/shm: "
                            + "driver=" + driverFiles + ", log=" + logs.get(0));
        }
    }

    @Test
    void shouldReportTheDirectoryWhenTheDriverCannotStart() throws IOException {
        Path file = Files.createFile(dir.resolve("not-a-directory"));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> EmbeddedAeron.launch(settingsUnder(file, "")));
        String expected = "cannot start the embedded Aeron media driver in " + file.resolve("troupe-aeron-");
        assertTrue(e.getMessage().startsWith(expected), e.getMessage());
        assertEquals(List.of(), newAeronThreads(Thread.getAllStackTraces().keySet()));
    }

    private TroupeSettings.Transport settings(String overrides) {
        return settingsUnder(dir, overrides);
    }

    private static TroupeSettings.Transport settingsUnder(Path parent, String overrides) {
        return TroupeSettings.from(ConfigFactory.parseString(overrides + "\ntroupe.transport.dir = \""
                + parent + "\"")).transport();
    }

    private static void sendAndReceiveOneBatch(BatchChannel channel) {
        BatchSender sender = channel.sender();
        while (sender.offerEndOfStream() < 0) {
            sender.idle(0);
        }
        sender.close();
        int[] ends = {0};
        while (channel.receiver().state() == BatchReceiver.State.OPEN) {
            channel.receiver().idle(channel.receiver().poll(new BatchHandler() {
                @Override
                public void onBatch(Batch batch) {
                }

                @Override
                public void onEndOfStream() {
                    ends[0]++;
                }
            }, 4));
        }
        assertEquals(1, ends[0]);
        assertEquals(BatchReceiver.State.END_OF_STREAM, channel.receiver().state());
    }

    /** Live threads started since {@code before} whose name mentions Aeron. */
    private static List<String> newAeronThreads(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !before.contains(t) && t.isAlive())
                .map(Thread::getName)
                .filter(name -> name.toLowerCase(Locale.ROOT).contains("aeron"))
                .sorted()
                .collect(Collectors.toList());
    }

    private static String mappings() throws IOException {
        return Files.readString(Path.of("/proc/self/maps"));
    }

    private static long sizeOf(Path path) throws IOException {
        try (Stream<Path> files = Files.walk(path)) {
            return files.filter(Files::isRegularFile).mapToLong(EmbeddedAeronTest::size).sum();
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
