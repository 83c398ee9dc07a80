package io.troupe.actors.api;

/**
 * Told of every query's end ({@link Troupe#addQueryListener}): a service's hook for its own metrics,
 * logs or traces. {@code io.troupe.actors.metrics.TroupeMetrics} is one, over Micrometer.
 *
 * <p>Called exactly once per query, however it ends ({@link QueryEvent.Outcome}), on the thread that ends
 * it: the caller's (a query on the leader alone, a rejection, a stream closed early) or one of Troupe's
 * coordinator threads (a query with workers). It is called before the caller learns the end (before
 * {@code execute} returns or throws, before a stream's last {@code next} or its {@code close} returns),
 * so counts read afterwards include the query. Keep it short and never block in it: hand slow work to
 * an executor of your own. What it throws is logged and dropped; the query's result stands.
 *
 * <p>Called from several threads at once when queries end at once: it must be threadsafe.
 */
@FunctionalInterface
public interface QueryListener {

    /** Query {@code event.queryId()} has ended as {@code event} says. */
    void queryEnded(QueryEvent event);
}
