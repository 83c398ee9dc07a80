package io.troupe.operators.exec;

/** The query was cancelled by its caller, or ran past its timeout. */
public final class QueryCancelledException extends QueryFailedException {

    public QueryCancelledException(String message) {
        super(message);
    }
}
