package io.troupe.operators.spill;

import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.types.DataType;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The spill files of one query: operators make them here ({@link #newFile}), and the executor
 * deletes every one with {@link #releaseAll()} when the query ends (success, failure or cancel),
 * after its last worker stopped.
 *
 * <h2>Concurrency</h2>
 * Threadsafe: any worker may make files at any time; the list of files is guarded by this object's
 * monitor. A file made after the release is deleted at once and fails its maker, so none leaks.
 */
public final class QuerySpill {

    private final SpillSpace space;
    private final long queryId;
    private final AtomicLong writtenBytes = new AtomicLong();
    // Guarded by this.
    private final List<SpillFile> files = new ArrayList<>();
    private int nextFile;
    private boolean released;

    QuerySpill(SpillSpace space, long queryId) {
        this.space = space;
        this.queryId = queryId;
    }

    /** Whether operators of this query may spill ({@code troupe.spill.enabled}). */
    public boolean enabled() {
        return space.enabled();
    }

    public long queryId() {
        return queryId;
    }

    /** Bytes this query wrote to spill files so far. */
    public long writtenBytes() {
        return writtenBytes.get();
    }

    /**
     * A new empty file for batches of {@code types}, to be written by one worker.
     *
     * @param label what spills, for the file's name and errors ("hash join j1 build p3")
     * @throws IllegalStateException when spilling is off (the operator should have failed on the budget)
     * @throws QueryFailedException  when the file cannot be made, or the query has ended
     */
    public SpillFile newFile(String label, DataType[] types) {
        if (!space.enabled()) {
            throw new IllegalStateException("query " + queryId + ": " + label + " spills with troupe.spill.enabled = off");
        }
        SpillFile file;
        synchronized (this) {
            if (released) {
                throw new QueryFailedException("query " + queryId + ": " + label + " spills after the query ended");
            }
            String name = "q" + queryId + "-" + (nextFile++) + "-" + label.replaceAll("[^A-Za-z0-9_.-]+", "_") + ".spill";
            file = SpillFile.create(space.directory().resolve(name), label, types, this);
            files.add(file);
        }
        return file;
    }

    /** Deletes every file of the query; later {@link #newFile} calls fail. Idempotent. */
    public void releaseAll() {
        List<SpillFile> toDelete;
        synchronized (this) {
            released = true;
            toDelete = List.copyOf(files);
            files.clear();
        }
        for (SpillFile file : toDelete) {
            file.delete();
        }
    }

    /** Counts {@code bytes} a file of this query is about to write, against the cap. */
    void hold(long bytes, String label) {
        if (!space.tryHold(bytes)) {
            throw new QueryFailedException("query " + queryId + ": " + label + " would write " + bytes
                    + " more bytes of spill files, over troupe.spill.max-size = " + space.maxBytes()
                    + " bytes (" + space.heldBytes() + " bytes held by all queries)");
        }
        writtenBytes.addAndGet(bytes);
    }

    /** Stops counting the bytes of a deleted file. */
    void release(long bytes) {
        space.release(bytes);
    }
}
