package io.troupe.operators.exec;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.memory.MemoryReservation;

import java.util.ArrayList;
import java.util.List;

/**
 * The sink at the top of a query, and of a shared subplan: keeps every batch, in the order each
 * worker produced them, and publishes the list. With one worker the order is the plan's order (a
 * sort's output stays sorted).
 *
 * <p>Every kept batch is reserved from the query's memory first (its columns' arrays, counted whole
 * even where they are a table's own, which a scan hands on without copying): a result larger than
 * the budget fails with the budget's error, naming this sink, rather than filling the heap. Such a
 * result is for {@code Troupe.stream}, which keeps no more than a few batches.
 */
public final class CollectSink implements Sink {

    private final StateKey<Collected> key;
    private final String label;

    /**
     * @param key   where the kept batches are published
     * @param label what keeps them, in errors ("the result", "CTE w")
     */
    public CollectSink(StateKey<Collected> key, String label) {
        this.key = key;
        this.label = label;
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
        MemoryReservation memory = ctx.memory().reservation(this, label);
        return new SinkState() {
            @Override
            public BatchConsumer local() {
                List<Batch> mine = new ArrayList<>();
                return new BatchConsumer() {
                    @Override
                    public boolean accept(Batch batch) {
                        if (batch.size() > 0) {
                            memory.grow(batch.sizeInBytes());
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
