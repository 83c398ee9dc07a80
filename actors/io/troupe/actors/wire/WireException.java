package io.troupe.actors.wire;

import io.troupe.operators.TroupeException;

/**
 * A message could not cross the wire: its class (or a class it holds) is not registered, or a payload
 * came from another cluster, another protocol version or another build, or is not a Troupe payload.
 * The message names the class, or both sides' cluster and version. The message at hand is lost; the
 * node is fine.
 */
public final class WireException extends TroupeException {

    public WireException(String message) {
        super(Category.QUERY, message);
    }

    public WireException(String message, Throwable cause) {
        super(Category.QUERY, message, cause);
    }
}
