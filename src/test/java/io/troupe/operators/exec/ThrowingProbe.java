package io.troupe.operators.exec;

import io.troupe.operators.batch.Batch;

import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Fault injection for the executors' tests: an {@link ExecutionProbe} that wraps the readers of the
 * pipelines {@code where} picks so that each reader's {@code afterBatches + 1}-th read throws what
 * {@code failure} makes, as an operator that ran out of memory or stack would at that point.
 * Everything else passes through unwrapped.
 */
public final class ThrowingProbe implements ExecutionProbe {

    /** The pipelines that run after another: the probe side of a join, for one. */
    public static final Predicate<Pipeline> DEPENDENT = p -> !p.dependencies().isEmpty();

    private final Predicate<Pipeline> where;
    private final int afterBatches;
    private final Supplier<? extends Throwable> failure;

    /** Throws {@code failure}'s throwable (an Error or a RuntimeException) after {@code afterBatches} batches. */
    public ThrowingProbe(Predicate<Pipeline> where, int afterBatches, Supplier<? extends Throwable> failure) {
        this.where = where;
        this.afterBatches = afterBatches;
        this.failure = failure;
    }

    @Override
    public Recorder bind(Pipeline pipeline, int participant) {
        boolean chosen = where.test(pipeline);
        return new Recorder() {
            @Override
            public Source.SourceReader source(int branch, Source.SourceReader reader) {
                if (!chosen) {
                    return reader;
                }
                return new Source.SourceReader() {
                    private int read;

                    @Override
                    public Batch next() {
                        if (read++ == afterBatches) {
                            throwUnchecked(failure.get());
                        }
                        return reader.next();
                    }
                };
            }

            @Override
            public BatchConsumer sink(int branch, BatchConsumer tail) {
                return tail;
            }

            @Override
            public BatchConsumer operator(int branch, int index, BatchConsumer bound) {
                return bound;
            }

            @Override
            public BatchConsumer input(int branch, BatchConsumer head) {
                return head;
            }
        };
    }

    @Override
    public void finalized(Pipeline pipeline, long nanos) {
        // not timed
    }

    private static void throwUnchecked(Throwable t) {
        if (t instanceof Error e) {
            throw e;
        }
        throw (RuntimeException) t;
    }
}
