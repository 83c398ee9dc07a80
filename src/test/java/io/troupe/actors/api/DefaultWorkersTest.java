package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.profile.QueryProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A Troupe started with the defaults runs a query that does not say otherwise on
 * one worker per processor, its actor system up from the start; {@code workers.default = 0} keeps
 * queries on the caller's thread and starts nothing.
 */
@Timeout(60)
class DefaultWorkersTest {

    private static final long ROWS = 100_000;

    @Test
    void shouldRunOnOneWorkerPerProcessorByDefault() {
        int processors = Math.min(TroupeSettings.Workers.MAX_WORKERS, Runtime.getRuntime().availableProcessors());
        try (Troupe troupe = Troupe.start()) {
            assertNotNull(troupe.actorSystemName(), "the actor system starts with the Troupe");
            QueryProfile profile = troupe.explainAnalyze(sumOfSeries(), QueryOptions.defaults());
            assertEquals(processors, profile.workersPlanned());
            assertEquals(List.of(List.of(ROWS * (ROWS + 1) / 2)), profile.result().rows());
        }
    }

    @Test
    void shouldRunOnTheCallersThreadWithZero() {
        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0))) {
            QueryProfile profile = troupe.explainAnalyze(sumOfSeries(), QueryOptions.defaults());
            assertEquals(0, profile.workersPlanned());
            assertEquals(List.of(List.of(ROWS * (ROWS + 1) / 2)), profile.result().rows());
            assertNull(troupe.actorSystemName(), "no actor system for the caller's thread alone");
        }
    }

    private static Plan sumOfSeries() {
        return Plan.series("i", 1, ROWS).aggregate(List.of(), sum(col("i")).as("s"));
    }
}
