package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The variance family's state: Welford's update and Chan's merge against the exact variance where the sums of
 * squares lose every digit (a large mean, a small spread), the same digits whether the values come in one state,
 * in merged partials or through spilled partial rows, and the NULLs of too few values.
 */
class VarianceStateTest {

    private static final ColumnExpression X = new ColumnExpression(0, DataType.FLOAT64, "x");

    private static VarianceState state(AggregateFunction f, ColumnExpression argument) {
        VarianceState s = (VarianceState) AggregateState.create(new AggregateSpec(f, argument, false, DataType.FLOAT64,
                f.sqlName() + "(x)"));
        s.ensureCapacity(1);
        return s;
    }

    /** Adds {@code values} to group 0 of {@code s}. */
    private static void add(VarianceState s, ColumnVector values, int rows) {
        s.update(new ColumnVector[] {values}, Batch.of(rows, values), new int[rows]);
    }

    private static Double value(AggregateState s) {
        ColumnVector v = s.result(0, 1);
        return v.isNull(0) ? null : ((DoubleVector) v).values()[0];
    }

    /** 1e9 plus a spread of about 1: the exact sample variance, in BigDecimal. */
    private static double exactSampleVariance(double[] x) {
        MathContext mc = MathContext.DECIMAL128;
        BigDecimal sum = BigDecimal.ZERO;
        for (double v : x) {
            sum = sum.add(new BigDecimal(v));
        }
        BigDecimal mean = sum.divide(BigDecimal.valueOf(x.length), mc);
        BigDecimal m2 = BigDecimal.ZERO;
        for (double v : x) {
            BigDecimal d = new BigDecimal(v).subtract(mean);
            m2 = m2.add(d.multiply(d));
        }
        return m2.divide(BigDecimal.valueOf(x.length - 1), mc).doubleValue();
    }

    @Test
    void shouldKeepTheDigitsOfASmallSpreadAroundALargeMeanInOneStateAndInMergedPartials() {
        Random random = new Random(7);
        double[] x = new double[10_000];
        for (int i = 0; i < x.length; i++) {
            x[i] = 1e9 + random.nextInt(1000) / 256.0;
        }
        double exact = exactSampleVariance(x);
        // Welford's error grows with the mean over the spread (1e9 here: about 1e-8 of the variance, as in DuckDB,
        // which keeps the same state); that of the sums of squares with its square.
        double tolerance = exact * 1e-7;

        VarianceState one = state(AggregateFunction.VAR_SAMP, X);
        add(one, new DoubleVector(x.clone()), x.length);
        assertEquals(exact, value(one), tolerance);

        // Cut into uneven parts, each a worker's partial, merged in turn (combine) or as spilled rows (combinePartial).
        VarianceState merged = state(AggregateFunction.VAR_SAMP, X);
        VarianceState spilled = state(AggregateFunction.VAR_SAMP, X);
        for (int from = 0, part = 1; from < x.length; from += part, part = part * 3 + 1) {
            int to = Math.min(x.length, from + part);
            VarianceState partial = state(AggregateFunction.VAR_SAMP, X);
            add(partial, new DoubleVector(Arrays.copyOfRange(x, from, to)), to - from);
            merged.combine(partial, new int[] {0}, 0, new int[] {0}, 1);
            ColumnVector[] rows = new ColumnVector[3];
            partial.partial(new int[] {0}, 1, rows, 0);
            spilled.combinePartial(rows, 0, 1, new int[] {0});
        }
        assertEquals(exact, value(merged), tolerance);
        assertEquals(exact, value(spilled), tolerance);

        // What AggregateReduceFunctionsRule's sums of squares would give: nothing of the variance is left.
        double sum = 0;
        double squares = 0;
        for (double v : x) {
            sum += v;
            squares += v * v;
        }
        double naive = (squares - sum * sum / x.length) / (x.length - 1);
        assertTrue(Math.abs(naive - exact) > exact, "naive " + naive + ", exact " + exact);
    }

    @Test
    void shouldGiveNullForTooFewValuesAndSquareRootsForTheDeviations() {
        VarianceState samp = state(AggregateFunction.VAR_SAMP, X);
        VarianceState pop = state(AggregateFunction.VAR_POP, X);
        VarianceState stddevSamp = state(AggregateFunction.STDDEV_SAMP, X);
        VarianceState stddevPop = state(AggregateFunction.STDDEV_POP, X);
        assertNull(value(samp));
        assertNull(value(pop));
        for (VarianceState s : new VarianceState[] {samp, pop, stddevSamp, stddevPop}) {
            add(s, new DoubleVector(new double[] {1.0}), 1);
        }
        assertNull(value(samp));
        assertEquals(0.0, value(pop));
        assertNull(value(stddevSamp));
        assertEquals(0.0, value(stddevPop));
        for (VarianceState s : new VarianceState[] {samp, pop, stddevSamp, stddevPop}) {
            add(s, new DoubleVector(new double[] {4.0, 7.0}), 2);
        }
        assertEquals(9.0, value(samp));
        assertEquals(6.0, value(pop));
        assertEquals(3.0, value(stddevSamp));
        assertEquals(Math.sqrt(6.0), value(stddevPop));
    }

    @Test
    void shouldReadDecimalsAsTheirValuesAndSkipNulls() {
        ColumnExpression d = new ColumnExpression(0, DataType.decimal(9, 2), "d");
        VarianceState s = state(AggregateFunction.VAR_SAMP, d);
        LongVector values = new LongVector(DataType.decimal(9, 2), new long[] {150, 999_999, 250});
        values.setNull(1);
        add(s, values, 3);
        assertEquals(0.5, value(s));
    }
}
