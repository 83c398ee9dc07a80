/**
 * Troupe's metrics in Micrometer ({@link io.troupe.actors.metrics.TroupeMetrics}): the one package that
 * imports {@code io.micrometer}, an optional dependency, and that no other package of the library imports,
 * so that a service without Micrometer never loads it. What it reads is the library's own, dependency-free
 * monitoring: {@code Troupe.status()}, {@code Troupe.counters()} and {@code QueryListener}.
 */
package io.troupe.actors.metrics;
