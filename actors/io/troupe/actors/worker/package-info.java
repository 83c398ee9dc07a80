/**
 * Worker actors: thin adapters that drive the operator kernels one batch per message. They know the
 * pipeline protocol of {@code io.troupe.operators.exec} and their gather outlet, not the coordinator
 * (they report through the {@code Report} types they declare) and not the plan.
 */
package io.troupe.actors.worker;
