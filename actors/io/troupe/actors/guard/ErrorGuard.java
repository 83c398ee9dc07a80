package io.troupe.actors.guard;

import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.BehaviorInterceptor;
import org.apache.pekko.actor.typed.Signal;
import org.apache.pekko.actor.typed.TypedActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

import java.util.function.Function;

/**
 * Wraps an actor's behavior so that whatever is thrown while it handles a message or a signal,
 * an Error above all, goes to the actor's own failure path instead of to Pekko. Pekko passes a fatal
 * error (any VirtualMachineError: OutOfMemoryError, StackOverflowError) to its dispatcher thread's
 * handler, which stops the whole actor system, or, with {@code pekko.jvm-exit-on-fatal-error} on
 * (its default), the JVM. A query's actors catch what their kernel code throws in their handlers,
 * where they can say which part failed; this is the backstop for what is thrown around those
 * handlers, by Pekko's own code. On a full heap that is where the next allocation, and so the next
 * OutOfMemoryError, may well happen: measured with a GROUP BY that outgrew a 160 MiB heap, the
 * worker that did not hit the error first got one in Pekko's receive, between two batches.
 *
 * <p>Threadsafe as a behavior is: it is used by one actor at a time.
 */
public final class ErrorGuard<T> extends BehaviorInterceptor<T, T> {

    /**
     * Thrown when the actor's failure path threw in turn (a second OutOfMemoryError): made up front
     * and without a stack trace, so throwing it allocates nothing, and not an Error, so that Pekko
     * stops the actor and tells its watcher (a ChildFailed) rather than stopping the actor system.
     */
    private static final RuntimeException UNREPORTED = new RuntimeException(
            "an actor of this query failed, and so did its report of the failure (the heap was full)", null, false, false) {
    };

    private final Function<Throwable, Behavior<T>> onThrown;

    private ErrorGuard(Class<T> type, Function<Throwable, Behavior<T>> onThrown) {
        super(type);
        this.onThrown = onThrown;
    }

    /**
     * {@code behavior}, and every behavior it becomes, with whatever it throws handed to
     * {@code onThrown}, which fails the actor's query and returns the behavior to go on with
     * (stopped, as a rule). Should {@code onThrown} throw in turn, the actor fails as Pekko fails an
     * actor on an exception: it stops, and its watcher hears of it.
     */
    public static <T> Behavior<T> guard(Class<T> type, Behavior<T> behavior, Function<Throwable, Behavior<T>> onThrown) {
        return Behaviors.intercept(() -> new ErrorGuard<>(type, onThrown), behavior);
    }

    @Override
    public Behavior<T> aroundReceive(TypedActorContext<T> ctx, T msg, ReceiveTarget<T> target) {
        try {
            return target.apply(ctx, msg);
        } catch (Throwable e) {
            return failed(e);
        }
    }

    @Override
    public Behavior<T> aroundSignal(TypedActorContext<T> ctx, Signal signal, SignalTarget<T> target) {
        try {
            return target.apply(ctx, signal);
        } catch (Throwable e) {
            return failed(e);
        }
    }

    private Behavior<T> failed(Throwable thrown) {
        try {
            return onThrown.apply(thrown);
        } catch (Throwable again) {
            throw UNREPORTED;
        }
    }
}
