package io.troupe.actors.api;

import io.troupe.operators.exec.QueryFailedException;

/**
 * A query was not admitted: the admission queue was full, it waited there longer than
 * {@code troupe.admission.queue-timeout}, or it could never fit. Nothing of it ran; the message says
 * which limit turned it away. Retrying later may succeed (all but "could never fit").
 */
public final class QueryRejectedException extends QueryFailedException {

    /** Why a query was turned away. */
    public enum Reason {
        /** {@code troupe.admission.queue-size} queries were already waiting. */
        QUEUE_FULL,
        /** It waited {@code troupe.admission.queue-timeout} without being admitted. */
        QUEUE_TIMEOUT,
        /** What it must be given on admission is more than the budget or its limit. */
        NEVER_FITS,
        /** The Troupe closed while it waited. */
        CLOSED
    }

    private final Reason reason;

    public QueryRejectedException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
