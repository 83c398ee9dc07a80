package io.troupe.operators.join;

/**
 * The phases of one shared hash join, in the order they happen. The protocol (who moves the join
 * from one phase to the next, and which steps one worker or all workers do) is described in the
 * package documentation; see note on parallelism in {@code package-info.java}.
 */
public enum JoinPhase {
    /** All build workers copy their input rows into their own chunks; nothing is hashed yet. */
    BUILDING,
    /** One worker sized the bucket array; all inserters link rows into it with CAS on bucket heads. */
    INSERTING,
    /** The table is complete and read-only (but for match flags); all probers probe it. */
    PROBING,
    /** The last prober to finish emits the build rows no probe matched (RIGHT and FULL joins only). */
    EMITTING_UNMATCHED,
    /** Every prober has finished; the table may be dropped. */
    DONE
}
