package io.troupe.cli.loadtest;

import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;

import java.sql.SQLTimeoutException;
import java.util.Locale;

/**
 * Names the kind of a failed query for the report: timeout, cancelled, rejected (admission
 * control), failed (any other error of a running Troupe query), wrong answer (a result that differs
 * from the query's first answer), else the exception's class (PlanException, SQLException, ...).
 * Stateless.
 */
final class ErrorKinds {

    static final String WRONG_ANSWER = "wrong answer";

    private ErrorKinds() {
    }

    static String of(Throwable e) {
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (e instanceof QueryCancelledException) {
            return message.contains("timed out") ? "timeout" : "cancelled";
        }
        if (e instanceof SQLTimeoutException) {
            return "timeout";
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
}
