/**
 * The control plane of the parallel executor: the {@link io.troupe.actors.coordinator.ExecutorRuntime}
 * (the Troupe's guardian actor in its own actor system or a host's, its dispatchers, gather channels)
 * and one {@link io.troupe.actors.coordinator.QueryCoordinator} per query. It sequences pipelines and
 * handles failure and cancel; it never touches a batch itself (finalizing a sink is the one kernel
 * call it makes) and compiles nothing (plans arrive compiled).
 */
package io.troupe.actors.coordinator;
