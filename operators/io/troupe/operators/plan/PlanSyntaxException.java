package io.troupe.operators.plan;

import io.troupe.operators.TroupeException;

/**
 * Plan text that does not parse ({@link PlanParser}): the message starts with
 * {@code source:line:column:} so that an editor jumps to the spot, then says what was expected
 * and what was found. Raised before anything runs; a plan that parses may still fail validation
 * with a {@link PlanException}.
 */
public final class PlanSyntaxException extends TroupeException {

    private final String source;
    private final int line;
    private final int column;

    public PlanSyntaxException(String source, int line, int column, String message) {
        super(Category.QUERY, source + ":" + line + ":" + column + ": " + message);
        this.source = source;
        this.line = line;
        this.column = column;
    }

    /** The file name (or other source) the plan text came from. */
    public String source() {
        return source;
    }

    /** The source's line of the error, 1-based. */
    public int line() {
        return line;
    }

    /** The column on {@link #line()}, 1-based. */
    public int column() {
        return column;
    }
}
