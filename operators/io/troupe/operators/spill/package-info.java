/**
 * Spill files: where operators over the memory budget put what does not fit, and read it back.
 *
 * <p>{@link io.troupe.operators.spill.SpillSpace}, one per Troupe, owns a directory under
 * {@code troupe.spill.directory} and caps the bytes all queries' files hold
 * ({@code troupe.spill.max-size}); {@link io.troupe.operators.spill.QuerySpill}, one per query (in its
 * {@link io.troupe.operators.exec.ExecContext}), makes the query's files and deletes them all when the
 * query ends, however it ends; a {@link io.troupe.operators.spill.SpillFile} holds batches of one
 * schema, written once by one worker ({@link io.troupe.operators.spill.SpillWriter}) and then read by
 * any number ({@link io.troupe.operators.spill.SpillReader}). The layout is in
 * {@link io.troupe.operators.spill.SpillBlock}.
 */
package io.troupe.operators.spill;
