package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * single_value's state: a group's one value, NULL without rows, and the error as soon as a group has two rows,
 * whether one worker saw both, two workers' partials had one each (combine), or spilled partial rows bring them.
 */
class SingleValueStateTest {

    private static final String TOO_MANY = "more than one row returned by a subquery used as an expression";
    private static final ColumnExpression S = new ColumnExpression(0, DataType.VARCHAR, "s");

    private static SingleValueState state() {
        SingleValueState s = (SingleValueState) AggregateState.create(
                new AggregateSpec(AggregateFunction.SINGLE_VALUE, S, false, DataType.VARCHAR, "single_value(s)"));
        s.ensureCapacity(2);
        return s;
    }

    /** Rows of {@code values} (null: a NULL) into groups {@code gids}. */
    private static void add(SingleValueState s, int[] gids, String... values) {
        StringVector v = new StringVector(values.length);
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                v.putNull(i);
            } else {
                v.put(i, values[i]);
            }
        }
        s.update(new ColumnVector[] {v.seal()}, Batch.of(values.length, v), gids);
    }

    private static ColumnVector[] partial(SingleValueState s, int group) {
        ColumnVector[] rows = new ColumnVector[s.partialTypes().length];
        s.partial(new int[] {group}, 1, rows, 0);
        return rows;
    }

    @Test
    void shouldGiveTheOneRowsValueOrNullWithoutRows() {
        SingleValueState s = state();
        add(s, new int[] {1}, "one");
        ColumnVector result = s.result(0, 2);
        assertTrue(result.isNull(0));
        assertEquals("one", result.getObject(1));
    }

    @Test
    void shouldFailOnASecondRowOfAGroupNullsCounted() {
        SingleValueState s = state();
        add(s, new int[] {0, 1}, "a", null);
        QueryFailedException e = assertThrows(QueryFailedException.class, () -> add(s, new int[] {1}, (String) null));
        assertEquals(TOO_MANY, e.getMessage());
        assertThrows(QueryFailedException.class, () -> add(state(), new int[] {0, 0}, "a", "b"));
    }

    @Test
    void shouldFailWhenTwoPartialsHaveARowEach() {
        SingleValueState mine = state();
        add(mine, new int[] {0}, "a");
        SingleValueState empty = state();
        mine.combine(empty, new int[] {0}, 0, new int[] {0}, 1);
        mine.combinePartial(partial(empty, 0), 0, 1, new int[] {0});
        assertEquals("a", mine.result(0, 1).getObject(0));

        SingleValueState theirs = state();
        add(theirs, new int[] {1}, "b");
        QueryFailedException e = assertThrows(QueryFailedException.class,
                () -> mine.combine(theirs, new int[] {1}, 0, new int[] {0}, 1));
        assertEquals(TOO_MANY, e.getMessage());

        SingleValueState other = state();
        add(other, new int[] {0}, "c");
        e = assertThrows(QueryFailedException.class,
                () -> other.combinePartial(partial(theirs, 1), 0, 1, new int[] {0}));
        assertEquals(TOO_MANY, e.getMessage());
    }
}
