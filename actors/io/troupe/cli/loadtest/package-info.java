/**
 * {@code bin/troupe loadtest}: loads an embedded Troupe (and a DuckDB peer beside it) as a service
 * is loaded, from N client threads in a closed loop or on an open-loop schedule, and reports latency
 * percentiles measured from each query's intended start (no coordinated omission), throughput,
 * errors by kind, and at the end of a soak whether every resource came back. Part of the command
 * line: HdrHistogram, XChart and picocli are optional dependencies that only {@code io.troupe.cli}
 * may use ({@code ArchitectureTest}).
 */
package io.troupe.cli.loadtest;
