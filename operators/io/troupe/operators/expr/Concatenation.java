package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.batch.Validity;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import java.util.List;

/**
 * String concatenation, in its two SQL forms: {@code a || b}, NULL where either operand is NULL (standard SQL,
 * PostgreSQL and DuckDB), and {@code concat(a, ...)}, which skips NULL arguments and so is never NULL
 * ({@code concat(NULL, NULL)} is {@code ''}, as in DuckDB and PostgreSQL). The arguments are VARCHAR: SQL's
 * planner casts other types first. Each row's bytes are the arguments' bytes one after the other, copied in
 * row order into one output vector.
 *
 * <p>Immutable and threadsafe.
 */
final class Concatenation implements Expression {

    private final List<Expression> args;
    private final boolean skipNulls;
    private final String text;

    private Concatenation(List<Expression> args, boolean skipNulls, String text) {
        this.args = List.copyOf(args);
        this.skipNulls = skipNulls;
        this.text = text;
    }

    /** @param skipNulls true for {@code concat(...)}, false for {@code ||} */
    static Expression bind(List<Expression> args, boolean skipNulls, String text) {
        // || joins BLOBs too (PostgreSQL's bytea || bytea); concat and a mix of the two take text only.
        DataType type = skipNulls ? DataType.VARCHAR : args.get(0).type();
        for (Expression arg : args) {
            if (arg.type().id() != TypeId.VARCHAR && (skipNulls || arg.type().id() != TypeId.BLOB)
                    || !arg.type().equals(type)) {
                throw new ExpressionTypeException((skipNulls ? "concat needs VARCHAR arguments"
                        : "|| needs VARCHAR or BLOB arguments, all of one type") + ", got " + arg.type() + " (" + arg
                        + ") in " + text);
            }
        }
        return Functions.fold(new Concatenation(args, skipNulls, text), args);
    }

    @Override
    public DataType type() {
        return args.get(0).type();
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        StringVector[] in = new StringVector[args.size()];
        int bytes = 0;
        long[] valid = null;
        for (int a = 0; a < in.length; a++) {
            in[a] = (StringVector) args.get(a).evaluate(batch);
            bytes += in[a].offsets()[in[a].capacity()];
            if (!skipNulls) {
                valid = a == 0 ? Kernels.copy(in[a]) : Validity.and(valid, in[a].validity());
            }
        }
        int rows = batch.rowCount();
        byte[] data = new byte[bytes];
        int[] offsets = new int[rows + 1];
        int n = batch.size();
        int[] sel = batch.selection();
        int pos = 0;
        int next = 0;
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            // Rows not selected, and NULL rows, are empty (StringVector's rule); the selection ascends.
            while (next < r) {
                offsets[++next] = pos;
            }
            if (Kernels.isValid(valid, r)) {
                for (StringVector v : in) {
                    if (!skipNulls || Kernels.isValid(v.validity(), r)) {
                        int size = v.length(r);
                        System.arraycopy(v.data(), v.start(r), data, pos, size);
                        pos += size;
                    }
                }
            }
            offsets[++next] = pos;
        }
        while (next < rows) {
            offsets[++next] = pos;
        }
        StringVector out = new StringVector(type(), data, offsets);
        out.setValidity(valid);
        return out;
    }
}
