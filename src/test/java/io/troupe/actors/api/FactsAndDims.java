package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * The small fixture of the parallel executor's tests: a Troupe with 64-row batches and two tables,
 * facts (5,000 rows in chunks of 100: a chunk is a morsel, so every worker gets some; NULL keys,
 * duplicate keys) and dims (every other key of facts, and keys facts lacks).
 */
final class FactsAndDims {

    private FactsAndDims() {
    }

    /** A started Troupe with facts and dims registered; the caller closes it. */
    static Troupe start() {
        return register(Troupe.start(settings()));
    }

    /** The same over {@code settings} (64-row batches are the caller's to ask for). */
    static Troupe start(TroupeSettings settings) {
        return register(Troupe.start(settings));
    }

    /** The same, its actors inside {@code host}. */
    static Troupe startIn(ActorSystem<?> host) {
        return register(Troupe.start(settings(), host));
    }

    static TroupeSettings settings() {
        return TroupeSettings.load().withBatchSize(64);
    }

    private static Troupe register(Troupe troupe) {
        TableBuilder facts = new TableBuilder("facts", Schema.of(Field.of("id", DataType.INT64),
                Field.of("k", DataType.INT32), Field.of("v", DataType.FLOAT64), Field.of("s", DataType.VARCHAR)), 100);
        for (int i = 0; i < 5000; i++) {
            facts.addRow((long) i, i % 37 == 0 ? null : i % 50, i * 0.5, "s" + (i % 13));
        }
        TableBuilder dims = new TableBuilder("dims", Schema.of(Field.of("k", DataType.INT32),
                Field.of("name", DataType.VARCHAR)), 7);
        for (int k = 0; k < 60; k += 2) {
            dims.addRow(k, "d" + k);
        }
        troupe.register(facts.build()).register(dims.build());
        return troupe;
    }
}
