package io.troupe.operators.udf;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.types.DataType;

import java.util.List;

/**
 * A call of a function of one's own, bound: its arguments evaluated per batch and handed to the function (a
 * {@link VectorFunction}, or a {@link RowFunction} through {@link RowsOf}), whose column is checked (its type, its
 * room for the batch's rows) before the query reads it. A function that throws, or returns no such column, fails
 * the query naming the function.
 *
 * <p>Immutable and threadsafe; the function is called by every worker that evaluates the call.
 */
final class OwnCall implements Expression {

    private final String name;
    private final VectorFunction function;
    private final List<Expression> arguments;
    private final DataType type;
    private final String text;

    OwnCall(String name, VectorFunction function, List<Expression> arguments, DataType type, String text) {
        this.name = name;
        this.function = function;
        this.arguments = List.copyOf(arguments);
        this.type = type;
        this.text = text;
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
        ColumnVector[] in = new ColumnVector[arguments.size()];
        for (int a = 0; a < in.length; a++) {
            in[a] = arguments.get(a).evaluate(batch);
        }
        ColumnVector out;
        try {
            out = function.apply(in, batch);
        } catch (QueryFailedException e) {
            throw e;
        } catch (Exception e) {
            throw new QueryFailedException("the function " + name + " failed in " + text + ": " + e, e);
        }
        if (out == null || !out.type().equals(type) || out.capacity() < batch.rowCount()) {
            throw new QueryFailedException("the function " + name + " returned "
                    + (out == null ? "null" : "a " + out.type().sqlName() + " column of " + out.capacity() + " rows")
                    + ", not a " + type.sqlName() + " column of " + batch.rowCount() + " rows, in " + text);
        }
        return out;
    }
}
