package io.troupe.cli.loadtest;

import io.troupe.actors.wire.RemoteFailure;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;

import java.sql.SQLTimeoutException;
import java.util.Locale;

/**
 * Names the kind of a failed query for the report: timeout, cancelled, rejected (admission
 * control), node lost (with {@code --cluster}: the node that ran the query, or one that ran a part
 * of it, stopped or left the cluster), no node (none took queries at that moment), failed (any
 * other error of a running Troupe query), wrong answer (a result that differs from the query's
 * first answer), else the exception's class (PlanException, SQLException, ...). A cluster's node
 * sends its own exception as a {@link RemoteFailure} under the client's; its class there names the
 * kind (cancelled, timeout, rejected, else failed).
 * The client's failures carry no type of their own, so a lost node is told by the words the client
 * and the nodes use for it (ClusterQueryStream: "was lost", ServedQuery: "left the cluster").
 * Stateless.
 */
final class ErrorKinds {

    static final String WRONG_ANSWER = "wrong answer";
    static final String NODE_LOST = "node lost";

    private ErrorKinds() {
    }

    static String of(Throwable e) {
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (e instanceof QueryFailedException && (message.contains(" was lost ")
                || message.contains(" left the cluster"))) {
            return NODE_LOST;
        }
        if (e instanceof QueryCancelledException) {
            return message.contains("timed out") ? "timeout" : "cancelled";
        }
        if (e instanceof SQLTimeoutException) {
            return "timeout";
        }
        if (e instanceof IllegalStateException && message.contains("takes queries now")) {
            return "no node";
        }
        if (e.getCause() instanceof RemoteFailure remote) {
            return ofNode(remote);
        }
        String name = e.getClass().getSimpleName();
        if (name.contains("Rejected")) {
            return "rejected";
        }
        if (e instanceof QueryFailedException) {
            return "failed";
        }
        return name;
    }

    /** The kind of a node's exception, by its class there: cancelled or timeout, rejected, else failed. */
    private static String ofNode(RemoteFailure remote) {
        String name = remote.originClass().substring(remote.originClass().lastIndexOf('.') + 1);
        if (name.equals(QueryCancelledException.class.getSimpleName())) {
            return String.valueOf(remote.getMessage()).toLowerCase(Locale.ROOT).contains("timed out")
                    ? "timeout" : "cancelled";
        }
        return name.contains("Rejected") ? "rejected" : "failed";
    }
}
