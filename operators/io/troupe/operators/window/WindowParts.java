package io.troupe.operators.window;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.memory.MemoryReservation;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What a {@link WindowSink} publishes: every worker's rows by hash part, for the readers of a
 * {@link WindowSource} to claim one part at a time. A claimed part's batches leave this object with its
 * reader, so that their memory goes once the reader has computed and emitted the part.
 *
 * <p>Threadsafe: parts are claimed from one atomic counter, and each is taken out of an atomic array by
 * the one reader that claimed it.
 */
public final class WindowParts {

    private final WindowSpec spec;
    private final AtomicReferenceArray<List<Batch>> parts;
    private final MemoryReservation memory;
    private final AtomicInteger next = new AtomicInteger();

    WindowParts(WindowSpec spec, List<List<Batch>> parts, MemoryReservation memory) {
        this.spec = spec;
        this.parts = new AtomicReferenceArray<>(parts.size());
        for (int p = 0; p < parts.size(); p++) {
            this.parts.set(p, List.copyOf(parts.get(p)));
        }
        this.memory = memory;
    }

    WindowSpec spec() {
        return spec;
    }

    /** The window's account, on which its kept rows and its readers' work are reserved. */
    MemoryReservation memory() {
        return memory;
    }

    /** The batches of the next unclaimed part that holds rows, now the caller's; null when none is left. */
    List<Batch> claim() {
        for (int p = next.getAndIncrement(); p < parts.length(); p = next.getAndIncrement()) {
            List<Batch> part = parts.getAndSet(p, null);
            if (!part.isEmpty()) {
                return part;
            }
        }
        return null;
    }
}
