/**
 * What every actor of a query wears: {@link io.troupe.actors.guard.ErrorGuard}, which turns an Error
 * thrown while the actor handles a message into that query's failure, so that it never reaches
 * Pekko's handler of fatal errors. It knows behaviors, not queries, workers or exchanges.
 */
package io.troupe.actors.guard;
