package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import java.util.Locale;
import java.util.function.LongBinaryOperator;

/**
 * A function of two integers of one type (both INTEGER or both BIGINT), computed in long arithmetic
 * by a {@link LongBinaryOperator} at each live row where neither is NULL ({@code gcd}, {@code lcm},
 * {@code bitand}, {@code leftshift}), into an INTEGER or BIGINT of the signature's type; NULL where
 * either is. As in {@link ExactUnary}, a result past the type's range or an {@link
 * ArithmeticException} from the operator is an overflow naming the values
 * ({@code integer out of range (1, 31)}).
 *
 * <p>Immutable and threadsafe.
 */
final class ExactBinary implements Expression {

    private final Expression left;
    private final Expression right;
    private final LongBinaryOperator op;
    private final DataType type;
    private final String text;

    private ExactBinary(Expression left, Expression right, LongBinaryOperator op, DataType type, String text) {
        this.left = left;
        this.right = right;
        this.op = op;
        this.type = type;
        this.text = text;
    }

    /** The kernel of a signature over two integers of one type computing {@code op}. */
    static Signature.Kernel of(LongBinaryOperator op) {
        return (args, type, text) -> new ExactBinary(args.get(0), args.get(1), op, type, text);
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
        ColumnVector av = left.evaluate(batch);
        ColumnVector bv = right.evaluate(batch);
        int[] ai = av instanceof IntVector iv ? iv.values() : null;
        int[] bi = bv instanceof IntVector iv ? iv.values() : null;
        long[] al = ai == null ? ((LongVector) av).values() : null;
        long[] bl = bi == null ? ((LongVector) bv).values() : null;
        long[] valid = Kernels.and(av, bv);
        int rows = batch.rowCount();
        boolean narrow = type.id() == TypeId.INT32;
        int[] io = narrow ? new int[rows] : null;
        long[] lo = narrow ? null : new long[rows];
        int n = batch.size();
        int[] sel = batch.selection();
        long a = 0;
        long b = 0;
        try {
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                if (Kernels.isValid(valid, r)) {
                    a = ai == null ? al[r] : ai[r];
                    b = bi == null ? bl[r] : bi[r];
                    long v = op.applyAsLong(a, b);
                    if (narrow) {
                        io[r] = narrow(v);
                    } else {
                        lo[r] = v;
                    }
                }
            }
        } catch (ArithmeticException e) {
            throw outOfRange(type, a + ", " + b).failure(text);
        } catch (DomainException e) {
            throw e.failure(text);
        }
        ColumnVector out = narrow ? new IntVector(type, io) : new LongVector(type, lo);
        out.setValidity(valid);
        return out;
    }

    /** {@code v} as an int, or an ArithmeticException past its range. */
    static int narrow(long v) {
        if (v != (int) v) {
            throw new ArithmeticException();
        }
        return (int) v;
    }

    /** PostgreSQL's overflow of an integer type, {@code bigint out of range}, with the arguments. */
    static DomainException outOfRange(DataType type, String arguments) {
        return new DomainException(QueryDataException.Kind.OVERFLOW,
                type.sqlName().toLowerCase(Locale.ROOT) + " out of range (" + arguments + ")");
    }
}
