package io.troupe.operators.exec;

import io.troupe.operators.batch.Batch;

import java.util.ArrayList;
import java.util.List;

/**
 * One pipeline's end that is several sinks: every batch goes to each of them, so that one pass
 * over the input feeds several results (an aggregate's distinct arguments beside its other
 * aggregates). Each sink keeps its own state, memory account and result; this only fans out.
 *
 * <p>Protocol: each step of {@link Sink}'s is done for every sink in turn, in the order given. A
 * worker's batch goes on to the sinks that still want input; the tee wants none once none does.
 * The shared finalize work is the sinks' works in order: each step asks them from the first on
 * and does a unit of the first that gives one, so a work that once sent a worker on (an aggregate
 * merge that put a unit back for lack of memory) is asked again until no work has a unit left.
 *
 * <p>Immutable and threadsafe; its states are as threadsafe as their sinks' (see {@link Sink}).
 */
public final class TeeSink implements Sink {

    private final List<Sink> sinks;

    public TeeSink(List<Sink> sinks) {
        if (sinks.size() < 2) {
            throw new IllegalArgumentException("a tee needs two sinks or more, not " + sinks.size());
        }
        this.sinks = List.copyOf(sinks);
    }

    /** The sinks it feeds, in order. */
    public List<Sink> sinks() {
        return sinks;
    }

    @Override
    public String role() {
        return sinks.get(0).role();
    }

    @Override
    public SinkState open(ExecContext ctx) {
        List<SinkState> states = new ArrayList<>();
        for (Sink sink : sinks) {
            states.add(sink.open(ctx));
        }
        return new SinkState() {
            @Override
            public BatchConsumer local() {
                List<BatchConsumer> locals = new ArrayList<>();
                for (SinkState state : states) {
                    locals.add(state.local());
                }
                return new Local(locals);
            }

            @Override
            public FinalizeWork prepareFinalize() {
                List<FinalizeWork> works = new ArrayList<>();
                for (SinkState state : states) {
                    works.add(state.prepareFinalize());
                }
                return () -> {
                    for (FinalizeWork work : works) {
                        if (work.step()) {
                            return true;
                        }
                    }
                    return false;
                };
            }

            @Override
            public void finalizeSink() {
                for (SinkState state : states) {
                    state.finalizeSink();
                }
            }
        };
    }

    /** One worker's locals of every sink. Not threadsafe. */
    private static final class Local implements BatchConsumer {

        private final List<BatchConsumer> locals;
        private final boolean[] done;
        private int wanting;

        Local(List<BatchConsumer> locals) {
            this.locals = locals;
            this.done = new boolean[locals.size()];
            this.wanting = locals.size();
        }

        @Override
        public boolean accept(Batch batch) {
            for (int s = 0; s < done.length; s++) {
                if (!done[s] && !locals.get(s).accept(batch)) {
                    done[s] = true;
                    wanting--;
                }
            }
            return wanting > 0;
        }

        @Override
        public void finish() {
            for (BatchConsumer local : locals) {
                local.finish();
            }
        }
    }
}
