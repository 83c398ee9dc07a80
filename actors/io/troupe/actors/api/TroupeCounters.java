package io.troupe.actors.api;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

import static io.troupe.operators.Arguments.notNull;

/**
 * What a Troupe has counted since it started, for monitoring: every number only grows. A snapshot, read
 * counter by counter without a common lock, so a busy Troupe's numbers may come from slightly different
 * instants ({@link TroupeStatus} has what it holds now).
 *
 * <p>Every query that reached admission counts once in {@link #ended()}: a query interrupted while it
 * waited to be admitted ends {@code CANCELLED} without being admitted, so {@link #admitted()} is at most,
 * not exactly, the sum of the other outcomes; a query admitted and not ended yet counts in neither.
 *
 * @param admitted           queries admitted to run ({@code troupe.admission})
 * @param ended              queries ended, by outcome (every outcome present)
 * @param rejected           queries admission turned away, by reason (every reason present; their sum
 *                           is {@code ended(REJECTED)})
 * @param backPressureEvents times a worker found its channel to the Gather full and had to wait for room
 *                           (once per wait, however long: one per batch at most)
 * @param spillWrittenBytes  bytes written to spill files ({@code SpillSpace.writtenBytes()})
 */
public record TroupeCounters(long admitted, Map<QueryEvent.Outcome, Long> ended,
                             Map<QueryRejectedException.Reason, Long> rejected, long backPressureEvents,
                             long spillWrittenBytes) {

    public TroupeCounters {
        ended = everyKey(QueryEvent.Outcome.class, ended, "outcome");
        rejected = everyKey(QueryRejectedException.Reason.class, rejected, "rejection reason");
    }

    /** Queries that ended as {@code outcome}. */
    public long ended(QueryEvent.Outcome outcome) {
        return ended.get(outcome);
    }

    /** Queries admission turned away for {@code reason}. */
    public long rejected(QueryRejectedException.Reason reason) {
        return rejected.get(reason);
    }

    /** An unmodifiable copy of {@code counts}, which must count every constant of {@code type}. */
    private static <E extends Enum<E>> Map<E, Long> everyKey(Class<E> type, Map<E, Long> counts, String what) {
        EnumMap<E, Long> copy = new EnumMap<>(type);
        copy.putAll(notNull(counts, "TroupeCounters", "counts by " + what));
        for (E key : type.getEnumConstants()) {
            if (copy.get(key) == null) {
                throw new IllegalArgumentException("TroupeCounters: no count for " + what + " " + key);
            }
        }
        return Collections.unmodifiableMap(copy);
    }
}
