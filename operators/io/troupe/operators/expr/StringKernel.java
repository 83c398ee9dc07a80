package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.batch.Validity;
import io.troupe.operators.types.DataType;

import java.util.List;
import java.util.function.Supplier;

/**
 * A string function computed one row at a time (the functions of {@link StringFunctions}): the
 * arguments are evaluated as vectors, the row function reads each live row's values in place
 * through {@link Args} (a string as a range of UTF-8 bytes) and writes the result: a string into
 * {@link TextOut}, a number, or a boolean. The result is NULL where an argument is (SQL's strict
 * functions), or, for {@link #textSkippingNulls}, only where the first is.
 *
 * <p>A row function that keeps state between rows (a reused matcher, a digest, a cache of the last
 * pattern) comes from a {@link Supplier} asked once per evaluation, so that each worker has its
 * own. A {@link DomainException} from a row fails the query with the call's text.
 *
 * <p>Immutable and threadsafe.
 */
final class StringKernel implements Expression {

    /** A VARCHAR result: appends row {@code row}'s value to {@code out}. */
    @FunctionalInterface
    interface ToText {
        void apply(Args a, int row, TextOut out);
    }

    /** An INTEGER or BIGINT result. */
    @FunctionalInterface
    interface ToLong {
        long apply(Args a, int row);
    }

    /** A BOOLEAN result. */
    @FunctionalInterface
    interface ToBoolean {
        boolean apply(Args a, int row);
    }

    /** The arguments' values in one batch. */
    static final class Args {

        private final ColumnVector[] vectors;
        private final byte[][] data;
        private final int[][] offsets;

        private Args(ColumnVector[] vectors) {
            this.vectors = vectors;
            this.data = new byte[vectors.length][];
            this.offsets = new int[vectors.length][];
            for (int k = 0; k < vectors.length; k++) {
                if (vectors[k] instanceof StringVector s) {
                    data[k] = s.data();
                    offsets[k] = s.offsets();
                }
            }
        }

        /** How many arguments the call has. */
        int count() {
            return vectors.length;
        }

        /** The bytes string argument {@code k} lies in. */
        byte[] data(int k) {
            return data[k];
        }

        /** Where string argument {@code k} starts at row {@code row} in {@link #data}. */
        int start(int k, int row) {
            return offsets[k][row];
        }

        /** Where it ends (exclusive). */
        int end(int k, int row) {
            return offsets[k][row + 1];
        }

        /** Integer argument {@code k} (INTEGER or BIGINT) at {@code row}. */
        long integer(int k, int row) {
            return vectors[k] instanceof LongVector l ? l.values()[row] : ((IntVector) vectors[k]).values()[row];
        }

        boolean isNull(int k, int row) {
            return !Kernels.isValid(vectors[k].validity(), row);
        }
    }

    private final Expression[] args;
    private final DataType type;
    /** A Supplier of ToText, ToLong or ToBoolean, as {@link #type} says. */
    private final Supplier<?> rows;
    private final boolean skipNulls;
    private final String text;

    private StringKernel(List<Expression> args, DataType type, Supplier<?> rows, boolean skipNulls, String text) {
        this.args = args.toArray(new Expression[0]);
        this.type = type;
        this.rows = rows;
        this.skipNulls = skipNulls;
        this.text = text;
    }

    /** A VARCHAR function computed by {@code f}. */
    static Expression text(List<Expression> args, String text, ToText f) {
        return new StringKernel(args, DataType.VARCHAR, () -> f, false, text);
    }

    /** A VARCHAR function whose row function, with its state, is made once per evaluation. */
    static Expression textWithState(List<Expression> args, String text, Supplier<ToText> f) {
        return new StringKernel(args, DataType.VARCHAR, f, false, text);
    }

    /** A BLOB function computed by {@code f}, which writes the value's bytes. */
    static Expression bytes(List<Expression> args, String text, ToText f) {
        return new StringKernel(args, DataType.BLOB, () -> f, false, text);
    }

    /** A VARCHAR function NULL only where argument 0 is; {@code f} sees the others' NULLs ({@link Args#isNull}). */
    static Expression textSkippingNulls(List<Expression> args, String text, ToText f) {
        return new StringKernel(args, DataType.VARCHAR, () -> f, true, text);
    }

    /** An INTEGER or BIGINT ({@code type}) function computed by {@code f}. */
    static Expression number(List<Expression> args, DataType type, String text, ToLong f) {
        return new StringKernel(args, type, () -> f, false, text);
    }

    /** A BOOLEAN function computed by {@code f}. */
    static Expression predicate(List<Expression> args, String text, ToBoolean f) {
        return new StringKernel(args, DataType.BOOLEAN, () -> f, false, text);
    }

    /** A BOOLEAN function whose row function, with its state, is made once per evaluation. */
    static Expression predicateWithState(List<Expression> args, String text, Supplier<ToBoolean> f) {
        return new StringKernel(args, DataType.BOOLEAN, f, false, text);
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
        ColumnVector[] in = new ColumnVector[args.length];
        long[] valid = null;
        int inputBytes = 0;
        for (int k = 0; k < args.length; k++) {
            in[k] = args[k].evaluate(batch);
            if (k == 0) {
                valid = Kernels.copy(in[0]);
            } else if (!skipNulls) {
                valid = Validity.and(valid, in[k].validity());
            }
            if (in[k] instanceof StringVector s) {
                inputBytes = Math.max(inputBytes, s.offsets()[s.capacity()]);
            }
        }
        Args a = new Args(in);
        int rows = batch.rowCount();
        int n = batch.size();
        int[] sel = batch.selection();
        try {
            ColumnVector out;
            switch (type.id()) {
                case VARCHAR, BLOB -> {
                    ToText f = (ToText) this.rows.get();
                    TextOut o = new TextOut(rows, inputBytes);
                    for (int i = 0; i < n; i++) {
                        int r = sel == null ? i : sel[i];
                        if (Kernels.isValid(valid, r)) {
                            o.start(r);
                            f.apply(a, r, o);
                            o.end();
                        }
                    }
                    out = o.finish(type);
                }
                case BOOLEAN -> {
                    ToBoolean f = (ToBoolean) this.rows.get();
                    byte[] o = new byte[rows];
                    for (int i = 0; i < n; i++) {
                        int r = sel == null ? i : sel[i];
                        if (Kernels.isValid(valid, r)) {
                            o[r] = (byte) (f.apply(a, r) ? 1 : 0);
                        }
                    }
                    out = new BooleanVector(o);
                }
                case INT32 -> {
                    ToLong f = (ToLong) this.rows.get();
                    int[] o = new int[rows];
                    for (int i = 0; i < n; i++) {
                        int r = sel == null ? i : sel[i];
                        if (Kernels.isValid(valid, r)) {
                            o[r] = (int) f.apply(a, r);
                        }
                    }
                    out = new IntVector(type, o);
                }
                default -> {
                    ToLong f = (ToLong) this.rows.get();
                    long[] o = new long[rows];
                    for (int i = 0; i < n; i++) {
                        int r = sel == null ? i : sel[i];
                        if (Kernels.isValid(valid, r)) {
                            o[r] = f.apply(a, r);
                        }
                    }
                    out = new LongVector(type, o);
                }
            }
            out.setValidity(valid);
            return out;
        } catch (DomainException e) {
            throw e.failure(text);
        }
    }
}
