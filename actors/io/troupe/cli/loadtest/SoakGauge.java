package io.troupe.cli.loadtest;

import java.util.function.LongSupplier;
import java.util.function.LongUnaryOperator;

/**
 * One resource that a soak checks is back where it started: how to read it, and how far above
 * its start it may end (0 for a count that must not grow). Immutable.
 *
 * @param name      how the report names it ("live threads")
 * @param bytes     whether it is a number of bytes (printed in MiB)
 * @param read      reads it now (may be called from any thread, and repeatedly while it settles)
 * @param allowance how much above its value at the start ({@code before}) it may end
 */
record SoakGauge(String name, boolean bytes, LongSupplier read, LongUnaryOperator allowance) {

    /** A count that must end no higher than it started. */
    static SoakGauge count(String name, LongSupplier read) {
        return new SoakGauge(name, false, read, before -> 0);
    }
}
