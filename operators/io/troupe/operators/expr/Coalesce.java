package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code coalesce(a, b, ...)}: the first argument that is not NULL, or NULL. Each argument is
 * evaluated only at the rows every earlier one left NULL (a narrowed selection); the arguments
 * share one type after numeric promotion. {@link Merge} assembles the output.
 *
 * <p>Immutable and threadsafe.
 */
final class Coalesce implements Expression {

    private final Expression[] args;
    private final DataType type;
    private final String text;

    private Coalesce(Expression[] args, DataType type, String text) {
        this.args = args;
        this.type = type;
        this.text = text;
    }

    static Expression bind(List<Expression> args, String text) {
        List<DataType> types = new ArrayList<>();
        for (Expression a : args) {
            types.add(a.type());
        }
        DataType type = TypeRules.commonType(types);
        if (type == null) {
            throw new ExpressionTypeException("coalesce arguments have incompatible types "
                    + new java.util.LinkedHashSet<>(types) + " in " + text);
        }
        Expression[] converted = new Expression[args.size()];
        for (int i = 0; i < converted.length; i++) {
            converted[i] = CastExpression.of(args.get(i), type, text);
        }
        if (converted.length == 1) {
            return converted[0];
        }
        return Functions.fold(new Coalesce(converted, type, text), args);
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
        int n = batch.size();
        int[] which = new int[batch.rowCount()];
        Arrays.fill(which, -1);
        ColumnVector[] parts = new ColumnVector[args.length];
        int[] open = Kernels.liveRows(batch);
        int m = n;
        for (int k = 0; k < args.length && m > 0; k++) {
            ColumnVector v = args[k].evaluate(m == n ? batch : batch.withSelection(open, m));
            parts[k] = v;
            int rest = 0;
            for (int j = 0; j < m; j++) {
                int r = open[j];
                if (v.isNull(r)) {
                    open[rest++] = r;
                } else {
                    which[r] = k;
                }
            }
            m = rest;
        }
        return Merge.assemble(type, batch, parts, which);
    }
}
