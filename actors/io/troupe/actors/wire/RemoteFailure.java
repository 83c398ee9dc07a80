package io.troupe.actors.wire;

import io.troupe.operators.exec.QueryFailedException;

/**
 * A failure that crossed the wire: what another node's exception became on this one. No exception
 * class of the sender is instantiated here (that would take Java serialization or reflection on
 * whatever class a payload names); instead this keeps the sender's class name, message and stack
 * trace, and its causes as further RemoteFailures. {@link #getMessage} is the sender's message, so
 * that an error reads the same on every node; {@link #toString} leads with the sender's class.
 */
public final class RemoteFailure extends QueryFailedException {

    private final String originClass;

    /**
     * @param originClass the class of the exception the sender had
     * @param message     its message; null when it had none
     */
    public RemoteFailure(String originClass, String message) {
        super(message == null ? originClass : message);
        this.originClass = originClass;
    }

    /** The class of the exception the sender had, e.g. {@code io.troupe.operators.exec.QueryFailedException}. */
    public String originClass() {
        return originClass;
    }

    @Override
    public String toString() {
        return originClass + ": " + getMessage() + " (received over the wire)";
    }
}
