package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.Validity;
import io.troupe.operators.memory.HeapArrays;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.PhysicalType;
import io.troupe.operators.types.TypeId;

import java.util.Arrays;

/**
 * corr, covar_pop, covar_samp and the regr_ functions of pairs (y, x) of any numeric types, over the rows where
 * neither is NULL: per group the count n of such pairs, the means of x and y, and the sums of squared differences
 * from the means Sxx, Syy and of their products Sxy, each kept by the bivariate form of Welford's update (as
 * {@link VarianceState} keeps one variable's, and for the same reason: sums of squares lose every digit of a small
 * spread around a large mean). Two groups' states merge by Chan et al.'s formula, Sxy gaining
 * {@code dx * dy * n_a * n_b / n} for the differences dx, dy of their means.
 *
 * <p>Results, as PostgreSQL defines them: covar_pop {@code Sxy / n}, covar_samp {@code Sxy / (n - 1)}, corr
 * {@code Sxy / sqrt(Sxx * Syy)}, regr_slope {@code Sxy / Sxx}, regr_intercept {@code avg(y) - slope * avg(x)},
 * regr_r2 {@code Sxy^2 / (Sxx * Syy)} (1 when y is constant), regr_count n, regr_avgx and regr_avgy the means,
 * regr_sxx, regr_syy and regr_sxy the sums. NULL without pairs, covar_samp NULL for one; corr, regr_slope,
 * regr_intercept and regr_r2 NULL where x (corr: or y) does not vary, where DuckDB returns NaN for some of them.
 * Decimals are read as doubles.
 *
 * <p>Not threadsafe (see {@link AggregateState}).
 */
final class CovarianceState extends AggregateState {

    private final AggregateFunction function;
    /** 10^scale of each DECIMAL input, 1 for an integer; 0 for a FLOAT64, read as it is. */
    private final double unitY;
    private final double unitX;
    private long[] counts = new long[0];
    private double[] meansX = new double[0];
    private double[] meansY = new double[0];
    private double[] sxx = new double[0];
    private double[] syy = new double[0];
    private double[] sxy = new double[0];
    private double[] ys;
    private double[] xs;

    CovarianceState(AggregateSpec spec) {
        super(spec);
        this.function = spec.function();
        this.unitY = unit(spec.arguments().get(0).type());
        this.unitX = unit(spec.arguments().get(1).type());
    }

    private static double unit(DataType type) {
        return type.physical() == PhysicalType.DOUBLE ? 0 : type.id() == TypeId.DECIMAL ? Decimals.pow10(type.scale()) : 1;
    }

    @Override
    void ensureCapacity(int groups) {
        if (groups > counts.length) {
            int capacity = grow(counts.length, groups);
            counts = Arrays.copyOf(counts, capacity);
            meansX = Arrays.copyOf(meansX, capacity);
            meansY = Arrays.copyOf(meansY, capacity);
            sxx = Arrays.copyOf(sxx, capacity);
            syy = Arrays.copyOf(syy, capacity);
            sxy = Arrays.copyOf(sxy, capacity);
        }
    }

    @Override
    void update(ColumnVector[] inputs, Batch batch, int[] gids) {
        int n = batch.size();
        double[] y = doubles(inputs[0], unitY, batch, ys = Inputs.room(ys, n));
        double[] x = doubles(inputs[1], unitX, batch, xs = Inputs.room(xs, n));
        for (int i = 0; i < n; i++) {
            int r = batch.row(i);
            if (inputs[0].isNull(r) || inputs[1].isNull(r)) {
                continue;
            }
            int g = gids[i];
            long count = ++counts[g];
            double dx = x[i] - meansX[g];
            double dy = y[i] - meansY[g];
            meansX[g] += dx / count;
            meansY[g] += dy / count;
            double ry = y[i] - meansY[g];
            sxx[g] += dx * (x[i] - meansX[g]);
            syy[g] += dy * ry;
            sxy[g] += dx * ry;
        }
    }

    /**
     * The live values of a numeric vector as doubles: a FLOAT64 vector's own array when the batch is dense (read
     * it, never write it), else {@code scratch} filled.
     */
    private double[] doubles(ColumnVector v, double unit, Batch batch, double[] scratch) {
        if (unit == 0) {
            return Inputs.doubles(v, batch, scratch);
        }
        return Inputs.exact(v, unit, batch, scratch);
    }

    @Override
    void combine(AggregateState other, int[] theirs, int theirsFrom, int[] mine, int count) {
        CovarianceState o = (CovarianceState) other;
        for (int k = 0; k < count; k++) {
            int g = theirs[theirsFrom + k];
            merge(mine[k], o.counts[g], o.meansX[g], o.meansY[g], o.sxx[g], o.syy[g], o.sxy[g]);
        }
    }

    @Override
    void combinePartial(ColumnVector[] columns, int at, int count, int[] mine) {
        long[] n = ((LongVector) columns[at]).values();
        double[] mx = ((DoubleVector) columns[at + 1]).values();
        double[] my = ((DoubleVector) columns[at + 2]).values();
        double[] xx = ((DoubleVector) columns[at + 3]).values();
        double[] yy = ((DoubleVector) columns[at + 4]).values();
        double[] xy = ((DoubleVector) columns[at + 5]).values();
        for (int k = 0; k < count; k++) {
            merge(mine[k], n[k], mx[k], my[k], xx[k], yy[k], xy[k]);
        }
    }

    /** Chan et al.'s merge of a state of {@code nb} pairs into group {@code g}. */
    private void merge(int g, long nb, double meanXb, double meanYb, double sxxB, double syyB, double sxyB) {
        if (nb == 0) {
            return;
        }
        long na = counts[g];
        long n = na + nb;
        double dx = meanXb - meansX[g];
        double dy = meanYb - meansY[g];
        double weight = (double) na * nb / n;
        meansX[g] += dx * ((double) nb / n);
        meansY[g] += dy * ((double) nb / n);
        sxx[g] += sxxB + dx * dx * weight;
        syy[g] += syyB + dy * dy * weight;
        sxy[g] += sxyB + dx * dy * weight;
        counts[g] = n;
    }

    @Override
    DataType[] partialTypes() {
        return new DataType[] {DataType.INT64, DataType.FLOAT64, DataType.FLOAT64, DataType.FLOAT64, DataType.FLOAT64,
                DataType.FLOAT64};
    }

    @Override
    void partial(int[] groups, int count, ColumnVector[] out, int at) {
        out[at] = new LongVector(DataType.INT64, Inputs.gather(counts, groups, count));
        out[at + 1] = new DoubleVector(Inputs.gather(meansX, groups, count));
        out[at + 2] = new DoubleVector(Inputs.gather(meansY, groups, count));
        out[at + 3] = new DoubleVector(Inputs.gather(sxx, groups, count));
        out[at + 4] = new DoubleVector(Inputs.gather(syy, groups, count));
        out[at + 5] = new DoubleVector(Inputs.gather(sxy, groups, count));
    }

    @Override
    long bytesFor(int groups) {
        return 6 * HeapArrays.bytes(capacityFor(counts.length, groups), Long.BYTES);
    }

    @Override
    ColumnVector result(int from, int count) {
        if (function == AggregateFunction.REGR_COUNT) {
            return new LongVector(DataType.INT64, Arrays.copyOfRange(counts, from, from + count));
        }
        double[] out = new double[count];
        long[] validity = null;
        for (int k = 0; k < count; k++) {
            int g = from + k;
            if (defined(g)) {
                out[k] = value(g);
            } else {
                validity = validity == null ? Validity.allValid(count) : validity;
                validity[k >>> 6] &= ~(1L << k);
            }
        }
        DoubleVector vector = new DoubleVector(out);
        vector.setValidity(validity);
        return vector;
    }

    /** Whether group g has a value: pairs enough, and for the ratios a denominator that is not zero. */
    private boolean defined(int g) {
        long n = counts[g];
        return switch (function) {
            case COVAR_SAMP -> n > 1;
            case CORR -> n > 0 && sxx[g] != 0 && syy[g] != 0;
            case REGR_SLOPE, REGR_INTERCEPT, REGR_R2 -> n > 0 && sxx[g] != 0;
            default -> n > 0;
        };
    }

    /** Group g's result, where it has one. */
    private double value(int g) {
        long n = counts[g];
        return switch (function) {
            case COVAR_POP -> sxy[g] / n;
            case COVAR_SAMP -> sxy[g] / (n - 1);
            case CORR -> sxy[g] / Math.sqrt(sxx[g] * syy[g]);
            case REGR_SLOPE -> sxy[g] / sxx[g];
            case REGR_INTERCEPT -> meansY[g] - sxy[g] / sxx[g] * meansX[g];
            case REGR_R2 -> syy[g] == 0 ? 1 : sxy[g] * sxy[g] / (sxx[g] * syy[g]);
            case REGR_AVGX -> meansX[g];
            case REGR_AVGY -> meansY[g];
            case REGR_SXX -> sxx[g];
            case REGR_SYY -> syy[g];
            case REGR_SXY -> sxy[g];
            default -> throw new IllegalStateException("not an aggregate of pairs: " + function);
        };
    }
}
