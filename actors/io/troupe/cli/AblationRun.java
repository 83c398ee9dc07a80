package io.troupe.cli;

/**
 * One timed run of {@code troupe bench --ablation}, one line of ablation.csv. Immutable.
 *
 * @param lesson   s1, s2 or s3 (docs/overview.md, "Three lessons")
 * @param workload the workload timed (w1, w2, w3, or one of the ablation's own)
 * @param setting  the lesson's setting in force, as its configuration value (e.g. always-write)
 * @param run      1-based number of the timed round (warm-ups are not recorded)
 * @param seconds  wall time of the whole query as the client sees it
 */
record AblationRun(String lesson, String workload, String setting, int workers, int run, double seconds) {
}
