package io.troupe.actors.exchange;

/**
 * The messages of the exchange protocol (the package comment says how it runs): what a coordinator
 * tells an exchange actor, and what the actor reports back. Every exchange actor, whatever its kind,
 * takes {@link Command}s and reports {@link Report}s, so that the coordinator starts, watches and
 * stops them all alike.
 */
public final class Exchange {

    private Exchange() {
    }

    /**
     * An exchange actor's messages: {@link Start} from the coordinator (which stops it to cancel), its
     * own {@code Poll}, and {@code Resume} from the thread that drains a stream's hand-over.
     */
    public sealed interface Command permits Start, Poll, Resume {
    }

    /**
     * Every producer is bound: start polling. Not before: the last of a RIGHT join's probers must not
     * finish while another has yet to bind (see {@code PipelineRun}).
     */
    public enum Start implements Command {
        INSTANCE
    }

    /** Private self-message: run one round over the channels. */
    enum Poll implements Command {
        INSTANCE
    }

    /** From the consumer of a stream's hand-over, while the exchange is parked: there is room again. */
    enum Resume implements Command {
        INSTANCE
    }

    /** What an exchange actor tells its coordinator, once. */
    public sealed interface Report permits Done, Failed {
    }

    /** Every producer's stream ended and the consumer finished; {@code batches} crossed the channels. */
    public record Done(long batches) implements Report {
    }

    /** Reading or consuming failed, or a producer left its channel without an end of stream. */
    public record Failed(Throwable cause) implements Report {
    }
}
