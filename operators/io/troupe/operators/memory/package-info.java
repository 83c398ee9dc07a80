/**
 * Hash-table memory (lesson 2, seed 001): {@link io.troupe.operators.memory.MemoryArena}, one per
 * Troupe, hands out large chunks, preallocated and pre-touched when {@code troupe.memory.preallocate}
 * asks, under {@code troupe.memory.budget}; {@link io.troupe.operators.memory.QueryMemory}, one per
 * query (in its {@link io.troupe.operators.exec.ExecContext}), tracks what the query holds and
 * returns it all when the query ends.
 */
package io.troupe.operators.memory;
