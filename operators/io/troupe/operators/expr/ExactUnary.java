package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import java.util.function.LongUnaryOperator;

/**
 * A function of one exact number (an INTEGER, a BIGINT, or a DECIMAL's unscaled value), computed in
 * long arithmetic by a {@link LongUnaryOperator} at each live row that is not NULL ({@code abs},
 * {@code bitnot}, {@code factorial}), into an INTEGER, BIGINT or DECIMAL of the signature's type.
 * A result past that type's range, or an {@link ArithmeticException} from the operator
 * ({@code Math.multiplyExact}), is an overflow naming the value, as PostgreSQL words it
 * ({@code integer out of range (-2147483648)}); the operator may throw a {@link DomainException} too.
 *
 * <p>Immutable and threadsafe.
 */
final class ExactUnary implements Expression {

    private final Expression value;
    private final LongUnaryOperator op;
    private final DataType type;
    private final String text;

    private ExactUnary(Expression value, LongUnaryOperator op, DataType type, String text) {
        this.value = value;
        this.op = op;
        this.type = type;
        this.text = text;
    }

    /** The kernel of a signature over an exact number computing {@code op}. */
    static Signature.Kernel of(LongUnaryOperator op) {
        return (args, type, text) -> new ExactUnary(args.get(0), op, type, text);
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        ColumnVector in = value.evaluate(batch);
        int[] ints = in instanceof IntVector iv ? iv.values() : null;
        long[] longs = ints == null ? ((LongVector) in).values() : null;
        long[] valid = in.validity();
        int rows = batch.rowCount();
        boolean narrow = type.id() == TypeId.INT32;
        int[] io = narrow ? new int[rows] : null;
        long[] lo = narrow ? null : new long[rows];
        int n = batch.size();
        int[] sel = batch.selection();
        long x = 0;
        try {
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                if (Kernels.isValid(valid, r)) {
                    x = ints == null ? longs[r] : ints[r];
                    long v = op.applyAsLong(x);
                    if (narrow) {
                        io[r] = ExactBinary.narrow(v);
                    } else {
                        lo[r] = v;
                    }
                }
            }
        } catch (ArithmeticException e) {
            throw ExactBinary.outOfRange(type, String.valueOf(x)).failure(text);
        } catch (DomainException e) {
            throw e.failure(text);
        }
        ColumnVector out = narrow ? new IntVector(type, io) : new LongVector(type, lo);
        out.setValidity(Kernels.copy(in));
        return out;
    }
}
