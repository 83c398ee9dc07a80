package io.troupe.operators.spill;

import io.troupe.operators.exec.QueryFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The spill files of one Troupe: a directory {@code troupe-spill-<pid>-<n>} under
 * {@code troupe.spill.directory}, made when the first query spills and removed by {@link #close()},
 * and the cap on the bytes all queries' files hold at once ({@code troupe.spill.max-size}).
 *
 * <p>A JVM that dies without closing leaves its directory behind: every new space deletes the
 * directories of spaces whose process is gone (the pid in the name), never a live process's.
 *
 * <h2>Concurrency</h2>
 * Threadsafe: the directory is made once under this object's monitor; the byte count moves by CAS
 * (once per block written, never per row).
 */
public final class SpillSpace implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SpillSpace.class);
    private static final String PREFIX = "troupe-spill-";
    private static final AtomicInteger SPACES = new AtomicInteger();

    private final Path parent;
    private final long maxBytes;
    private final boolean enabled;
    private final String name;
    private final AtomicLong heldBytes = new AtomicLong();
    private final AtomicLong writtenBytes = new AtomicLong();
    /** Made on first use; guarded by this. */
    private Path directory;
    private boolean closed;

    /**
     * @param parent   where the space's directory goes ({@code troupe.spill.directory}, resolved)
     * @param maxBytes the most bytes all files may hold at once
     * @param enabled  whether operators may spill at all ({@code troupe.spill.enabled})
     */
    public SpillSpace(Path parent, long maxBytes, boolean enabled) {
        this.parent = parent;
        this.maxBytes = maxBytes;
        this.enabled = enabled;
        this.name = PREFIX + ProcessHandle.current().pid() + "-" + SPACES.incrementAndGet();
        if (enabled) {
            removeAbandoned(parent);
        }
    }

    /** A space with spilling switched off: operators over the budget fail as before. */
    public static SpillSpace disabled() {
        return new SpillSpace(Path.of(System.getProperty("java.io.tmpdir")), 0, false);
    }

    public boolean enabled() {
        return enabled;
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** Bytes the files of running queries hold now. */
    public long heldBytes() {
        return heldBytes.get();
    }

    /** Bytes written since the space was made (for metrics: what spilling cost in I/O). */
    public long writtenBytes() {
        return writtenBytes.get();
    }

    /** Files under the space's directory now (0 before the first spill): for leak checks. */
    public synchronized int fileCount() {
        if (directory == null || !Files.isDirectory(directory)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(directory)) {
            return (int) files.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The spill files of one query. */
    public QuerySpill forQuery(long queryId) {
        return new QuerySpill(this, queryId);
    }

    /** The directory files go in, made now if it was not yet. */
    synchronized Path directory() {
        if (closed) {
            throw new IllegalStateException("the spill space " + name + " is closed");
        }
        if (directory == null) {
            Path dir = parent.resolve(name);
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new QueryFailedException("cannot make the spill directory " + dir
                        + " (troupe.spill.directory): " + e.getMessage(), e);
            }
            directory = dir;
        }
        return directory;
    }

    /** Counts {@code bytes} more of files; false (having counted nothing) past the cap. */
    boolean tryHold(long bytes) {
        long held;
        do {
            held = heldBytes.get();
            if (bytes > maxBytes - held) {
                return false;
            }
        } while (!heldBytes.compareAndSet(held, held + bytes));
        writtenBytes.addAndGet(bytes);
        return true;
    }

    /** Stops counting {@code bytes} of files that were deleted. */
    void release(long bytes) {
        heldBytes.addAndGet(-bytes);
    }

    /** Removes the directory and whatever is left in it. Idempotent. */
    @Override
    public synchronized void close() {
        closed = true;
        if (directory != null) {
            deleteTree(directory);
            directory = null;
        }
    }

    @Override
    public String toString() {
        return "SpillSpace[" + parent.resolve(name) + ", held " + heldBytes.get() + " of " + maxBytes + " bytes]";
    }

    /** Deletes the spill directories under {@code parent} whose owning process is gone. */
    private static void removeAbandoned(Path parent) {
        if (!Files.isDirectory(parent)) {
            return;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, PREFIX + "*")) {
            for (Path dir : dirs) {
                String rest = dir.getFileName().toString().substring(PREFIX.length());
                int dash = rest.indexOf('-');
                try {
                    long pid = Long.parseLong(dash < 0 ? rest : rest.substring(0, dash));
                    if (pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).isEmpty()) {
                        LOG.info("removing the spill directory {} of process {}, which is gone", dir, pid);
                        deleteTree(dir);
                    }
                } catch (NumberFormatException e) {
                    // Not one of ours.
                }
            }
        } catch (IOException e) {
            LOG.warn("could not look for abandoned spill directories under {}: {}", parent, e.toString());
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    LOG.warn("could not delete {}: {}", p, e.toString());
                }
            });
        } catch (IOException e) {
            LOG.warn("could not delete {}: {}", root, e.toString());
        }
    }
}
