package io.troupe.actors.exchange;

import io.troupe.operators.exec.QueryFailedException;

/**
 * A producer left its channel without an end of stream: it failed, was cancelled, or its process or
 * media driver died. Only a symptom; where the producer is another node's, that node's own failure says
 * why, and a coordinator waits a moment for it before it reports this.
 */
public final class ProducerGoneException extends QueryFailedException {

    public ProducerGoneException(String message) {
        super(message);
    }
}
