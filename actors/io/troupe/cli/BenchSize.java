package io.troupe.cli;

/**
 * How big the bench's generated data is: {@code rows} for the workloads over a generated series
 * (W1, W2), {@code scale} (the TPC-DS scale factor) for those over benchmark tables. Immutable.
 */
public record BenchSize(long rows, double scale) {
}
