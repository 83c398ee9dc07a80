package io.troupe.cli;

/**
 * The timed runs of one lesson, workload, setting and worker count, reduced. The ratio compares a
 * setting with the lesson's baseline (the lesson "on") round by round: each round's time with this
 * setting over the same round's baseline time, so that both saw the same moment of a noisy machine;
 * {@code ratio} is the median of those per-round ratios, {@code ratioMin}..{@code ratioMax} their
 * spread. Above 1: the setting is slower than the baseline. The baseline's own ratio is 1. Immutable.
 */
record AblationSummary(String lesson, String workload, String setting, boolean baseline, int workers, int runs,
                       double median, double min, double max, double ratio, double ratioMin, double ratioMax) {
}
