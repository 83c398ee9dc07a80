package io.troupe.cli.loadtest;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * The load of one loadtest: each engine's warm-up in turn, then the measured duration cut into
 * rounds, the engines alternating and their order reversed every other round (troupe, duckdb,
 * duckdb, troupe, ...) as the bench does, so that what else the machine is doing falls on both;
 * then, with a {@link SoakCheck}, its check. Each engine's rounds are merged into one
 * {@link PhaseResult}. A stop ends it after the phase in progress.
 *
 * <p>Not threadsafe: the command's thread runs it (the clients are the phases').
 */
final class LoadRun {

    /** What the load gave: one result per engine, in the targets' order, and the soak's readings (empty without one). */
    record Outcome(List<PhaseResult> results, List<SoakCheck.Reading> soak) {
    }

    private final List<LoadTarget> targets;
    private final List<LoadQuery> queries;
    private final LoadProfile profile;
    private final LoadClock clock;
    private final StopSignal stop;
    private final LiveLine live;
    private final PrintWriter err;

    LoadRun(List<LoadTarget> targets, List<LoadQuery> queries, LoadProfile profile, LoadClock clock, StopSignal stop,
            LiveLine live, PrintWriter err) {
        this.targets = List.copyOf(targets);
        this.queries = List.copyOf(queries);
        this.profile = profile;
        this.clock = clock;
        this.stop = stop;
        this.live = live;
        this.err = err;
    }

    /**
     * Runs the warm-ups and {@code rounds} rounds of {@code duration / rounds} per engine.
     *
     * @param checkers        each engine's answer check
     * @param soak            read after the warm-ups and checked after the load, or null
     * @param beforeSoakCheck run just before the check (a test leaks a resource there)
     * @param soakSettle      how long the check waits for the resources to come back
     */
    Outcome run(Duration warmup, Duration duration, int rounds, Function<LoadTarget, LoadPhase.AnswerChecker> checkers,
                SoakCheck soak, Runnable beforeSoakCheck, Duration soakSettle) throws InterruptedException {
        if (!warmup.isZero()) {
            for (LoadTarget target : targets) {
                if (!stop.requested()) {
                    PhaseResult warm = new LoadPhase(target.id() + " warm-up", target, queries, profile,
                            warmup.toNanos(), clock, stop, checkers.apply(target), live).run();
                    warm.failures().forEach(f -> err.println("loadtest: FAILED in the warm-up: " + f));
                }
            }
        }
        if (soak != null) {
            soak.baseline();
        }
        List<List<PhaseResult>> byEngine = new ArrayList<>();
        targets.forEach(t -> byEngine.add(new ArrayList<>()));
        for (int round = 1; round <= rounds && !stop.requested(); round++) {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < targets.size(); i++) {
                order.add(i);
            }
            if (round % 2 == 0) {
                Collections.reverse(order);
            }
            for (int i : order) {
                if (stop.requested()) {
                    break;
                }
                LoadTarget target = targets.get(i);
                String label = rounds == 1 ? target.id() : target.id() + " round " + round + "/" + rounds;
                // Split to the nanosecond: the rounds' durations add up to the whole.
                long nanos = duration.toNanos() * round / rounds - duration.toNanos() * (round - 1) / rounds;
                byEngine.get(i).add(new LoadPhase(label, target, queries, profile, nanos, clock, stop,
                        checkers.apply(target), live).run());
            }
        }
        List<SoakCheck.Reading> readings = List.of();
        if (soak != null && !stop.requested()) {
            beforeSoakCheck.run();
            readings = soak.check(soakSettle);
        }
        List<PhaseResult> results = new ArrayList<>();
        for (List<PhaseResult> engineRounds : byEngine) {
            if (!engineRounds.isEmpty()) {
                results.add(PhaseResult.merge(engineRounds));
            }
        }
        return new Outcome(results, readings);
    }
}
