package io.troupe.actors.api;

import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.LocalRun;
import io.troupe.operators.exec.QueryCancelledException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * The ends of a Troupe's queries: each told once to the {@link QueryListener}s and counted by outcome
 * and by rejection reason. {@link Troupe}'s start path calls {@link #rejected} for a query admission
 * turned away, or {@link #ended} once for an admitted one, from the one place that sees it end (its
 * {@code LocalRun}'s end, its coordinator's done future, or its failed spawn): that is what makes
 * "exactly once" hold, not a check here.
 *
 * <h2>Concurrency</h2>
 * Threadsafe. A query's end adds to one counter ({@link LongAdder}: no contention between queries ending
 * at once) and reads the copy-on-write list of listeners (added and removed rarely); both happen on the
 * thread that ends the query, before its caller learns the end.
 */
final class QueryEvents {

    private static final Logger LOG = LoggerFactory.getLogger(QueryEvents.class);
    private static final QueryEvent.Outcome[] OUTCOMES = QueryEvent.Outcome.values();
    private static final QueryRejectedException.Reason[] REASONS = QueryRejectedException.Reason.values();

    /**
     * A query admitted to run: what its end is told with. Immutable.
     *
     * @param arrivedNanos  {@link System#nanoTime()} when it reached admission
     * @param admittedNanos {@link System#nanoTime()} when it was admitted
     * @param timeout       its own timeout ({@link QueryOptions#timeout()}), or null
     */
    record Admitted(long queryId, int workers, long arrivedNanos, long admittedNanos, Duration timeout) {
    }

    private final List<QueryListener> listeners = new CopyOnWriteArrayList<>();
    private final LongAdder[] ended = adders(OUTCOMES.length);
    private final LongAdder[] rejected = adders(REASONS.length);

    void add(QueryListener listener) {
        listeners.add(listener);
    }

    boolean remove(QueryListener listener) {
        return listeners.remove(listener);
    }

    /**
     * Query {@code queryId} did not get past admission: turned away ({@link QueryRejectedException}), its
     * thread interrupted while it waited ({@link QueryCancelledException}), or admission failed.
     */
    void rejected(long queryId, int workers, long arrivedNanos, RuntimeException why) {
        QueryRejectedException.Reason reason = why instanceof QueryRejectedException r ? r.reason() : null;
        QueryEvent.Outcome outcome = reason != null ? QueryEvent.Outcome.REJECTED
                : why instanceof QueryCancelledException ? QueryEvent.Outcome.CANCELLED : QueryEvent.Outcome.FAILED;
        if (reason != null) {
            rejected[reason.ordinal()].increment();
        }
        tell(new QueryEvent(queryId, outcome, reason, System.nanoTime() - arrivedNanos, 0, workers, 0, 0));
    }

    /** How an admitted query's run ended, as its executor saw it. */
    enum RunEnd {
        /** It ran to its end. */
        COMPLETED,
        /** It was cancelled: by its caller, a closed stream, the Troupe's close, or its timeout. */
        STOPPED,
        /** It failed, or could not start. */
        FAILED;

        /**
         * The end a failure means (null: none): a {@link QueryCancelledException} is a stop. (A worker's
         * failure also raises the query's cancel flag, so the flag alone does not tell.)
         */
        static RunEnd of(Throwable failure) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            return cause == null ? COMPLETED : cause instanceof QueryCancelledException ? STOPPED : FAILED;
        }

        /**
         * The end of a query on the leader alone, once its run has ended: on the leader only a cancel, a
         * timeout, the Troupe's close or a stream's stop raise the cancel flag, so a failed run with the
         * flag up was stopped.
         */
        static RunEnd of(LocalRun run, ExecContext ctx) {
            return run.state() == LocalRun.State.ENDED ? COMPLETED : ctx.isCancelled() ? STOPPED : FAILED;
        }
    }

    /**
     * Admitted query {@code query} has ended as {@code end}, after its memory went back; its peak
     * memory and spilled bytes are read from {@code ctx}.
     */
    void ended(Admitted query, ExecContext ctx, RunEnd end) {
        long now = System.nanoTime();
        tell(new QueryEvent(query.queryId(), outcome(query, end, now), null,
                query.admittedNanos() - query.arrivedNanos(), now - query.admittedNanos(), query.workers(),
                ctx.memory().peakBytes(), ctx.spill().writtenBytes()));
    }

    /**
     * A stop is a timeout when the query had run at least its timeout by then: the executors cancel at
     * the deadline, which counts from a moment after its admission (so a timeout is never taken for a
     * cancel; a cancel that came past the deadline, before the timeout fired, is taken for one).
     */
    private static QueryEvent.Outcome outcome(Admitted query, RunEnd end, long nowNanos) {
        return switch (end) {
            case COMPLETED -> QueryEvent.Outcome.SUCCEEDED;
            case FAILED -> QueryEvent.Outcome.FAILED;
            case STOPPED -> query.timeout() != null && nowNanos - query.admittedNanos() >= query.timeout().toNanos()
                    ? QueryEvent.Outcome.TIMED_OUT : QueryEvent.Outcome.CANCELLED;
        };
    }

    /** Counts {@code event} and tells every listener; what a listener throws is logged and dropped. */
    private void tell(QueryEvent event) {
        ended[event.outcome().ordinal()].increment();
        for (QueryListener listener : listeners) {
            try {
                listener.queryEnded(event);
            } catch (RuntimeException | Error e) {
                // The query has ended either way: a listener's bug must not change what its caller gets.
                LOG.warn("[query {}] query listener {} threw on {}", event.queryId(), listener, event, e);
            }
        }
    }

    /** Queries ended as each outcome since start (every outcome present). */
    Map<QueryEvent.Outcome, Long> endedCounts() {
        return counts(OUTCOMES, ended, QueryEvent.Outcome.class);
    }

    /** Queries rejected for each reason since start (every reason present). */
    Map<QueryRejectedException.Reason, Long> rejectedCounts() {
        return counts(REASONS, rejected, QueryRejectedException.Reason.class);
    }

    private static <E extends Enum<E>> Map<E, Long> counts(E[] keys, LongAdder[] adders, Class<E> type) {
        Map<E, Long> counts = new EnumMap<>(type);
        for (E key : keys) {
            counts.put(key, adders[key.ordinal()].sum());
        }
        return counts;
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] adders = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            adders[i] = new LongAdder();
        }
        return adders;
    }
}
