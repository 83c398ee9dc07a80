/**
 * The {@code bin/troupe} command line: demo, generate, bench, ablation (over the bench's rounds),
 * and loadtest (in {@code io.troupe.cli.loadtest}). It sits on top of the library and no library
 * package imports it ({@code ArchitectureTest}), so its dependencies (picocli, XChart, the TPC-DS
 * and TPC-H generators, HdrHistogram) are optional ones of the jar: a service that embeds Troupe
 * does not inherit them.
 */
package io.troupe.cli;
