package io.troupe.operators.exec;

import io.troupe.operators.batch.Batch;

import java.util.ArrayList;
import java.util.List;

/**
 * The sink at the top of a query: keeps every batch, in the order each worker produced them, and
 * publishes the list. With one worker the order is the plan's order (a sort's output stays sorted).
 */
public final class CollectSink implements Sink {

    private final StateKey<Collected> key;

    public CollectSink(StateKey<Collected> key) {
        this.key = key;
    }

    /** The batches a query produced. */
    public record Collected(List<Batch> batches) {
    }

    @Override
    public String role() {
        return "collect";
    }

    @Override
    public SinkState open(ExecContext ctx) {
        List<Batch> all = new ArrayList<>();
        return new SinkState() {
            @Override
            public BatchConsumer local() {
                List<Batch> mine = new ArrayList<>();
                return new BatchConsumer() {
                    @Override
                    public boolean accept(Batch batch) {
                        if (batch.size() > 0) {
                            mine.add(batch);
                        }
                        return true;
                    }

                    @Override
                    public void finish() {
                        synchronized (all) {
                            all.addAll(mine);
                        }
                    }
                };
            }

            @Override
            public void finalizeSink() {
                synchronized (all) {
                    ctx.publish(key, new Collected(List.copyOf(all)));
                }
            }
        };
    }
}
