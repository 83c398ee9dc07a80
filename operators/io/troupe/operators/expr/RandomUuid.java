package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Uuids;

import java.security.SecureRandom;
import java.util.UUID;

/**
 * {@code gen_random_uuid()} (PostgreSQL) and {@code uuid()} (DuckDB): a version 4 UUID of 122 random bits at each
 * live row, a new one at every row and every evaluation. Its function is volatile ({@link ScalarFunction#asVolatile}),
 * so a call is never folded into a constant. The bits come from a {@link SecureRandom}, as PostgreSQL's come from
 * its strong random source, one per worker thread, so that workers do not contend on one generator.
 *
 * <p>Immutable and threadsafe.
 */
final class RandomUuid implements Expression {

    /** The kernel of {@code gen_random_uuid()}. */
    static final Signature.Kernel KERNEL = (args, type, text) -> new RandomUuid(text);

    private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(SecureRandom::new);
    /** Version 4 in bits 12-15 of the first word's low half, the IETF variant in the second word's top bits. */
    private static final long VERSION_MASK = 0xFFFFFFFFFFFF0FFFL;
    private static final long VERSION_4 = 0x0000000000004000L;
    private static final long VARIANT_MASK = 0x3FFFFFFFFFFFFFFFL;
    private static final long VARIANT_IETF = 0x8000000000000000L;

    private final String text;

    private RandomUuid(String text) {
        this.text = text;
    }

    @Override
    public DataType type() {
        return DataType.UUID;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        SecureRandom random = RANDOM.get();
        Int128Vector out = new Int128Vector(DataType.UUID, batch.rowCount());
        int n = batch.size();
        int[] sel = batch.selection();
        for (int i = 0; i < n; i++) {
            UUID u = new UUID(random.nextLong() & VERSION_MASK | VERSION_4,
                    random.nextLong() & VARIANT_MASK | VARIANT_IETF);
            out.set(sel == null ? i : sel[i], Uuids.high(u), Uuids.low(u));
        }
        return out;
    }
}
