package io.troupe.operators.udf;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.types.DataType;

import java.util.List;

/**
 * A {@link RowFunction} as a {@link VectorFunction}: called at each live row without a NULL argument, its results
 * checked against the result type and collected into a column. A function that throws, or returns a value of
 * another type, fails the query naming the function and the row's arguments.
 *
 * <p>Immutable and threadsafe as its function is.
 */
final class RowsOf implements VectorFunction {

    private final String name;
    private final RowFunction function;
    private final DataType type;
    private final String text;

    RowsOf(String name, RowFunction function, DataType type, String text) {
        this.name = name;
        this.function = function;
        this.type = type;
        this.text = text;
    }

    @Override
    public ColumnVector apply(ColumnVector[] arguments, Batch batch) {
        int rows = batch.rowCount();
        VectorBuilder out = new VectorBuilder(type, rows);
        int next = 0;
        for (int i = 0; i < batch.size(); i++) {
            int r = batch.row(i);
            for (; next < r; next++) {
                out.appendNull();
            }
            out.appendObject(valueAt(arguments, r));
            next++;
        }
        for (; next < rows; next++) {
            out.appendNull();
        }
        return out.build();
    }

    /** The result at row {@code r}: NULL where an argument is, else the function's, checked. */
    private Object valueAt(ColumnVector[] arguments, int r) {
        Object[] values = new Object[arguments.length];
        for (int a = 0; a < values.length; a++) {
            values[a] = arguments[a].getObject(r);
            if (values[a] == null) {
                return null;
            }
        }
        Object result;
        try {
            result = function.apply(values.clone());
        } catch (Exception e) {
            throw new QueryFailedException("the function " + name + " failed on (" + JavaValues.describe(List.of(values))
                    + ") in " + text + ": " + e, e);
        }
        try {
            return JavaValues.exact(result, type);
        } catch (IllegalArgumentException e) {
            throw new QueryFailedException("the function " + name + " returned a value that is not a "
                    + type.sqlName() + " on (" + JavaValues.describe(List.of(values)) + ") in " + text + ": "
                    + e.getMessage());
        }
    }
}
