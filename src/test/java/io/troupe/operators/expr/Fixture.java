package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.PlanException;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A batch of rows to bind and evaluate expressions over, in tests. Immutable. */
final class Fixture {

    private static final String WHERE = "test";

    private final Schema schema;
    private final Batch batch;

    private Fixture(Schema schema, Batch batch) {
        this.schema = schema;
        this.batch = batch;
    }

    /** A dense batch of {@code rows} (Java values, see {@link VectorBuilder#appendObject}). */
    static Fixture of(Schema schema, Object[]... rows) {
        ColumnVector[] columns = new ColumnVector[schema.size()];
        for (int c = 0; c < columns.length; c++) {
            VectorBuilder b = new VectorBuilder(schema.type(c), rows.length);
            for (Object[] row : rows) {
                b.appendObject(row[c]);
            }
            columns[c] = b.build();
        }
        return new Fixture(schema, Batch.of(rows.length, columns));
    }

    /** Over a batch built by hand (to put values in NULL slots, say). */
    static Fixture of(Schema schema, Batch batch) {
        return new Fixture(schema, batch);
    }

    static Object[] row(Object... values) {
        return values;
    }

    /** The same rows with only {@code rows} (ascending physical positions) live. */
    Fixture select(int... rows) {
        return new Fixture(schema, batch.withSelection(rows, rows.length));
    }

    Expression bind(Expr e) {
        return e.bind(schema, WHERE);
    }

    /** The values of {@code e} at the live rows, in order. */
    List<Object> eval(Expr e) {
        Expression x = bind(e);
        ColumnVector v = x.evaluate(batch);
        assertTrue(v.capacity() >= batch.rowCount(), "result shorter than the batch");
        assertEquals(x.type(), v.type(), "vector type of " + e);
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            out.add(v.getObject(batch.row(i)));
        }
        return out;
    }

    /**
     * Checks that {@link Expression#select} keeps exactly the live rows where {@link Expression#evaluate}
     * gives TRUE, and returns how many it kept.
     */
    int checkSelect(Expr e) {
        Expression x = bind(e);
        List<Integer> expected = new ArrayList<>();
        ColumnVector v = x.evaluate(batch);
        for (int i = 0; i < batch.size(); i++) {
            int r = batch.row(i);
            if (Boolean.TRUE.equals(v.getObject(r))) {
                expected.add(r);
            }
        }
        int[] out = new int[batch.size()];
        int k = x.select(batch, out);
        List<Integer> actual = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            actual.add(out[i]);
        }
        assertEquals(expected, actual, "rows selected by " + e);
        return k;
    }

    /** The value of {@code e} at the first live row. */
    Object one(Expr e) {
        return eval(e).get(0);
    }

    /** The bind-time error of {@code e}, without the plan node suffix. */
    String typeError(Expr e) {
        PlanException ex = assertThrows(PlanException.class, () -> bind(e));
        String suffix = " (in " + WHERE + ")";
        assertTrue(ex.getMessage().endsWith(suffix), ex.getMessage());
        return ex.getMessage().substring(0, ex.getMessage().length() - suffix.length());
    }

    /** The runtime error of evaluating {@code e}. */
    String runtimeError(Expr e) {
        Expression x = bind(e);
        return assertThrows(QueryFailedException.class, () -> x.evaluate(batch)).getMessage();
    }
}
