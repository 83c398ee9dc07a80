package io.troupe.operators.agg;

import io.troupe.operators.exec.FinalizeWork;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;

/**
 * The merge units of one hash aggregate ({@link PartitionMerge}) as {@link FinalizeWork}: every
 * worker takes units until none is left. A unit that cuts its partition puts its sixteenths here,
 * for whichever worker comes next; a unit that finds no memory at all while other workers merge
 * (they hold it) goes back to the end of the queue, and its worker stops merging, so that those
 * still merging have the memory among fewer. No worker ever waits: one that finds the queue empty
 * is done, and the last worker merging never puts a unit back, so every unit runs.
 *
 * <p>The parts of the result are kept in the order of the units' places in the key space
 * (partition, then sixteenth ...), so the result's order does not depend on which worker ran what.
 *
 * <p>Threadsafe: the queue, the count of running units and the parts are guarded by this object's
 * monitor, taken once per unit; the units themselves run outside it. The executor orders every
 * unit before {@link #parts()}.
 */
final class MergeQueue implements FinalizeWork {

    private final String name;
    // Guarded by this.
    private final Deque<PartitionMerge> units;
    private int running;
    private final List<Placed> parts = new ArrayList<>();

    /** A finished part and its unit's place in the key space. */
    private record Placed(String place, ResultPart part) {
    }

    MergeQueue(String name, List<PartitionMerge> units) {
        this.name = name;
        this.units = new ArrayDeque<>(units);
    }

    @Override
    public boolean step() {
        PartitionMerge unit;
        synchronized (this) {
            unit = units.poll();
            if (unit == null) {
                return false;
            }
            running++;
        }
        if (!unit.run(this)) {
            return false;
        }
        synchronized (this) {
            running--;
        }
        return true;
    }

    /**
     * Puts back a unit that found no memory, when another worker is merging (and will take it):
     * true, and the caller's worker stops; false when it is the last one merging.
     */
    synchronized boolean putBack(PartitionMerge unit) {
        if (running <= 1) {
            return false;
        }
        units.addLast(unit);
        running--;
        return true;
    }

    /** Adds the units of a cut. */
    synchronized void add(List<PartitionMerge> cut) {
        units.addAll(cut);
    }

    /** A finished part of the result, from the unit at {@code place}. */
    synchronized void finished(String place, ResultPart part) {
        parts.add(new Placed(place, part));
    }

    /** The parts, in key-space order, once every unit ran. */
    synchronized List<ResultPart> parts() {
        if (!units.isEmpty() || running > 0) {
            throw new IllegalStateException("finalizeSink before every merge unit ran: " + name);
        }
        return parts.stream().sorted(Comparator.comparing(Placed::place)).map(Placed::part).toList();
    }
}
