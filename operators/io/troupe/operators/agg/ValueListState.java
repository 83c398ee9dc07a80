package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.batch.Validity;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.sort.OrderKey;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.TypeId;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * median, percentile_cont, percentile_disc, mode and string_agg: the aggregates whose result depends on every value
 * of the group, which they keep in a {@link ValueLog} (NULL values skipped) until output, where each group's values
 * are sorted and read. Combining appends the other state's entries; a partial state is the group's entries in one
 * VARCHAR cell ({@link PartialBytes}), so that these aggregates spill and merge as the others do.
 *
 * <p>Results, as PostgreSQL computes them (and DuckDB, but for the types): percentile_cont(q) interpolates at
 * position {@code q * (n - 1)} of the ordered values, as a DOUBLE; percentile_disc(q) is the value at position
 * {@code ceil(q * n)} (counting from 1, at least 1), the product taken exactly from the fraction as written;
 * median is percentile_cont(0.5) as a DOUBLE for integers and doubles, the two middle decimals' mean truncated to
 * their scale for a DECIMAL, and the lower middle value for a VARCHAR (DuckDB's median, which PostgreSQL lacks);
 * mode is the most frequent value, the first in the WITHIN GROUP order among those as frequent; string_agg joins
 * the values in its ORDER BY order (else as they came) with the separator, each once with DISTINCT (which orders
 * by the value). A group without values is NULL.
 *
 * <p>Not threadsafe until finished (see {@link AggregateState}); {@link #result} then only reads, so several
 * readers may call it at once.
 */
final class ValueListState extends AggregateState {

    private final AggregateFunction function;
    private final ValueLog log;
    private final DataType valueType;
    private final boolean descending;
    /** 10^scale of a DECIMAL value, to read it as a double. */
    private final double unit;
    /** string_agg's ORDER BY keys (columns 1 ..). */
    private final OrderKey[] keys;
    private final byte[] separator;
    private int[] rows;
    private long[] valueWords;
    private long[] keyWords;

    ValueListState(AggregateSpec spec) {
        super(spec);
        this.function = spec.function();
        this.valueType = spec.argument().type();
        this.descending = spec.descending();
        this.unit = valueType.id() == TypeId.DECIMAL ? Decimals.pow10(valueType.scale()) : 1;
        boolean joins = function == AggregateFunction.STRING_AGG;
        this.keys = joins ? spec.order().toArray(new OrderKey[0]) : new OrderKey[0];
        this.separator = joins ? spec.separator().getBytes(StandardCharsets.UTF_8) : null;
        List<Expression> inputs = spec.inputs();
        DataType[] types = new DataType[inputs.size()];
        boolean[] nullable = new boolean[types.length];
        for (int c = 0; c < types.length; c++) {
            types[c] = inputs.get(c).type();
            nullable[c] = c > 0;
        }
        this.log = new ValueLog(types, nullable, spec.text());
    }

    @Override
    void ensureCapacity(int groups) {
        log.ensureGroups(groups);
    }

    @Override
    void update(ColumnVector[] inputs, Batch batch, int[] gids) {
        int n = batch.size();
        ColumnVector value = inputs[0];
        int[] live = rows = Inputs.room(rows, n);
        int m = Inputs.validRows(value, batch, live);
        long bytes = 0;
        for (ColumnVector input : inputs) {
            bytes += Inputs.stringBytes(input, batch);
        }
        log.ensureRoom(m, bytes);
        long[] words = log.strings(0) ? null : ValueLog.words(value, batch, valueWords = Inputs.room(valueWords, n));
        int[] entries = new int[m];
        for (int j = 0; j < m; j++) {
            int i = live[j];
            int g = gids[i];
            int e = entries[j] = log.append(g);
            if (words == null) {
                StringVector strings = (StringVector) value;
                int r = batch.row(i);
                log.setString(0, e, g, strings.data(), strings.start(r), strings.length(r));
            } else {
                log.setWord(0, e, words[i]);
            }
        }
        for (int c = 1; c < inputs.length; c++) {
            setKeys(c, inputs[c], batch, live, m, entries, gids);
        }
    }

    /** Sets column c (an ORDER BY key) of the entries just appended for live rows {@code live[0 .. m)}. */
    private void setKeys(int c, ColumnVector key, Batch batch, int[] live, int m, int[] entries, int[] gids) {
        long[] words = log.strings(c) ? null
                : ValueLog.words(key, batch, keyWords = Inputs.room(keyWords, batch.size()));
        for (int j = 0; j < m; j++) {
            int i = live[j];
            int r = batch.row(i);
            if (key.isNull(r)) {
                log.setNull(c, entries[j]);
            } else if (words == null) {
                StringVector strings = (StringVector) key;
                log.setString(c, entries[j], gids[i], strings.data(), strings.start(r), strings.length(r));
            } else {
                log.setWord(c, entries[j], words[i]);
            }
        }
    }

    @Override
    void combine(AggregateState other, int[] theirs, int theirsFrom, int[] mine, int count) {
        ValueLog o = ((ValueListState) other).log;
        long entries = 0;
        long bytes = 0;
        for (int k = 0; k < count; k++) {
            entries += o.count(theirs[theirsFrom + k]);
            bytes += o.groupBytes(theirs[theirsFrom + k]);
        }
        log.ensureRoom(entries, bytes);
        for (int k = 0; k < count; k++) {
            for (int e = o.head(theirs[theirsFrom + k]); e >= 0; e = o.next(e)) {
                log.appendCopy(mine[k], o, e);
            }
        }
    }

    @Override
    void combinePartial(ColumnVector[] columns, int at, int count, int[] mine) {
        StringVector cells = (StringVector) columns[at];
        long entries = 0;
        for (int k = 0; k < count; k++) {
            entries += ValueLog.partialEntries(cells, k);
        }
        log.ensureRoom(entries, cells.start(count) - cells.start(0));
        for (int k = 0; k < count; k++) {
            log.appendPartial(mine[k], cells, k);
        }
    }

    @Override
    DataType[] partialTypes() {
        return new DataType[] {DataType.VARCHAR};
    }

    @Override
    void partial(int[] groups, int count, ColumnVector[] out, int at) {
        out[at] = log.partial(groups, count);
    }

    @Override
    long bytesFor(int groups) {
        return log.bytesFor(groups);
    }

    @Override
    long bytesAfterUpdate(int groups, ColumnVector[] inputs, Batch batch) {
        long bytes = 0;
        for (ColumnVector input : inputs) {
            bytes += Inputs.stringBytes(input, batch);
        }
        return log.bytesFor(groups, batch.size(), bytes, (long) log.largest() + batch.size());
    }

    @Override
    long bytesAfterCombine(int groups, AggregateState other, int[] theirs, int theirsFrom, int count) {
        ValueLog o = ((ValueListState) other).log;
        long entries = 0;
        long bytes = 0;
        int largest = 0;
        for (int k = 0; k < count; k++) {
            int g = theirs[theirsFrom + k];
            entries += o.count(g);
            bytes += o.groupBytes(g);
            largest = Math.max(largest, o.count(g));
        }
        return log.bytesFor(groups, entries, bytes, (long) log.largest() + largest);
    }

    @Override
    long bytesAfterPartial(int groups, ColumnVector[] columns, int at, int count) {
        StringVector cells = (StringVector) columns[at];
        long entries = 0;
        for (int k = 0; k < count; k++) {
            entries += ValueLog.partialEntries(cells, k);
        }
        return log.bytesFor(groups, entries, cells.start(count) - cells.start(0), log.largest() + entries);
    }

    // ------------------------------------------------------------------ results

    @Override
    ColumnVector result(int from, int count) {
        long[] validity = null;
        for (int k = 0; k < count; k++) {
            if (log.count(from + k) == 0) {
                validity = validity == null ? Validity.allValid(count) : validity;
                validity[k >>> 6] &= ~(1L << k);
            }
        }
        ColumnVector out;
        if (function == AggregateFunction.STRING_AGG) {
            out = joined(from, count);
        } else if (log.strings(0)) {
            out = strings(from, count);
        } else if (function == AggregateFunction.PERCENTILE_CONT
                || function == AggregateFunction.MEDIAN && valueType.id() != TypeId.DECIMAL) {
            out = interpolated(from, count);
        } else {
            out = picked(from, count);
        }
        out.setValidity(validity);
        return out;
    }

    /** A group's values as words, sorted ascending, into {@code scratch} (or a larger array); its count is log's. */
    private long[] sortedWords(int g, long[] scratch) {
        int n = log.count(g);
        long[] w = scratch.length >= n ? scratch : new long[n];
        int k = 0;
        for (int e = log.head(g); e >= 0; e = log.next(e)) {
            w[k++] = log.word(0, e);
        }
        Arrays.sort(w, 0, n);
        return w;
    }

    /** Position i (from 0) of n sorted values in the aggregate's order. */
    private int at(int i, int n) {
        return descending ? n - 1 - i : i;
    }

    /** A group's values, sorted ascending as words: the first n of {@code w}. */
    @FunctionalInterface
    private interface SortedGroup {
        void accept(int k, long[] w, int n);
    }

    /** Calls {@code each} with every group of {@code from .. from+count-1} that has values (k from 0 in the range). */
    private void forEachSorted(int from, int count, SortedGroup each) {
        long[] w = new long[0];
        for (int k = 0; k < count; k++) {
            int n = log.count(from + k);
            if (n > 0) {
                w = sortedWords(from + k, w);
                each.accept(k, w, n);
            }
        }
    }

    /** percentile_cont, and median over integers and doubles: interpolated, as a DOUBLE. */
    private DoubleVector interpolated(int from, int count) {
        double q = spec.fraction().doubleValue();
        double[] out = new double[count];
        forEachSorted(from, count, (k, w, n) -> {
            double position = q * (n - 1);
            int lo = (int) Math.floor(position);
            int hi = (int) Math.ceil(position);
            double a = doubleOf(w[at(lo, n)]);
            double b = doubleOf(w[at(hi, n)]);
            out[k] = lo == hi ? a : a + (b - a) * (position - lo);
        });
        return new DoubleVector(out);
    }

    private double doubleOf(long word) {
        return switch (valueType.id()) {
            case FLOAT64, FLOAT32 -> ValueLog.doubleOf(word);
            case DECIMAL -> word / unit;
            default -> word;
        };
    }

    /** percentile_disc, mode, and median over decimals, of numbers: a value of the argument's type. */
    private ColumnVector picked(int from, int count) {
        long[] out = new long[count];
        forEachSorted(from, count, (k, w, n) -> out[k] = switch (function) {
            case PERCENTILE_DISC -> w[at(discrete(n), n)];
            case MODE -> w[at(mode(n, (i, j) -> w[at(i, n)] == w[at(j, n)]), n)];
            // The mean of the middle two, truncated toward zero (DuckDB's): sums of 18-digit decimals fit a long.
            default -> n % 2 == 1 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
        });
        return ValueLog.vectorOf(spec.resultType(), out, null);
    }

    /** The position (from 0) percentile_disc picks of n values: ceil(fraction * n) - 1, exactly, at least 0. */
    private int discrete(int n) {
        BigDecimal fraction = spec.fraction();
        int k = fraction.multiply(BigDecimal.valueOf(n)).setScale(0, RoundingMode.CEILING).intValueExact();
        return Math.max(1, k) - 1;
    }

    /** Whether the values at positions i and j (from 0, in the aggregate's order) are equal. */
    @FunctionalInterface
    private interface Equal {
        boolean at(int i, int j);
    }

    /** The position of the first value of the longest run of equal ones among n sorted values: the mode, first. */
    private static int mode(int n, Equal equal) {
        int best = 0;
        int bestLength = 0;
        int start = 0;
        for (int i = 1; i <= n; i++) {
            if (i == n || !equal.at(i, start)) {
                if (i - start > bestLength) {
                    best = start;
                    bestLength = i - start;
                }
                start = i;
            }
        }
        return best;
    }

    /** A group's entries sorted by the value (column 0), into {@code scratch} (or a larger array). */
    private int[] sortedEntries(int g, int[] scratch) {
        int n = log.count(g);
        int[] entries = log.entriesOf(g, scratch.length >= n ? scratch : new int[n]);
        EntrySort.sort(entries, n, (a, b) -> log.compare(0, a, b));
        return entries;
    }

    /** percentile_disc, mode and median of strings. */
    private StringVector strings(int from, int count) {
        int[] picked = new int[count];
        int bytes = 0;
        int[] entries = new int[0];
        for (int k = 0; k < count; k++) {
            int n = log.count(from + k);
            if (n == 0) {
                picked[k] = -1;
                continue;
            }
            entries = sortedEntries(from + k, entries);
            int i = switch (function) {
                case PERCENTILE_DISC -> discrete(n);
                case MODE -> {
                    int[] sorted = entries;
                    yield mode(n, (a, b) -> log.compare(0, sorted[at(a, n)], sorted[at(b, n)]) == 0);
                }
                default -> (n - 1) / 2;
            };
            picked[k] = entries[at(i, n)];
            bytes += log.length(0, picked[k]);
        }
        StringVector out = new StringVector(spec.resultType(), count, Math.max(16, bytes));
        for (int k = 0; k < count; k++) {
            if (picked[k] < 0) {
                out.putNull(k);
            } else {
                out.put(k, log.heap(), log.start(0, picked[k]), log.length(0, picked[k]));
            }
        }
        return out.seal();
    }

    /** string_agg: each group's values in its ORDER BY order, the separator between them. */
    private StringVector joined(int from, int count) {
        long total = 0;
        for (int k = 0; k < count; k++) {
            int n = log.count(from + k);
            total += log.groupBytes(from + k) + (long) Math.max(0, n - 1) * separator.length;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new QueryFailedException(spec.text() + " makes more than 2 GiB of text in "
                    + count + " rows");
        }
        StringVector out = new StringVector(count, (int) Math.max(16, total));
        byte[] row = new byte[64];
        int[] entries = new int[0];
        for (int k = 0; k < count; k++) {
            int g = from + k;
            int n = log.count(g);
            if (n == 0) {
                out.putNull(k);
                continue;
            }
            entries = log.entriesOf(g, entries.length >= n ? entries : new int[n]);
            if (keys.length > 0) {
                EntrySort.sort(entries, n, this::compareKeys);
            } else if (spec.distinct()) {
                EntrySort.sort(entries, n, (a, b) -> log.compare(0, a, b));
            }
            int length = (int) (log.groupBytes(g) + (long) (n - 1) * separator.length);
            row = row.length >= length ? row : new byte[length];
            int at = 0;
            for (int i = 0; i < n; i++) {
                int e = entries[i];
                if (spec.distinct() && i > 0 && log.compare(0, entries[i - 1], e) == 0) {
                    // DISTINCT orders by the value alone: its repeats are neighbours.
                    continue;
                }
                if (i > 0) {
                    // The first entry is always written: any later one written follows a separator.
                    System.arraycopy(separator, 0, row, at, separator.length);
                    at += separator.length;
                }
                System.arraycopy(log.heap(), log.start(0, e), row, at, log.length(0, e));
                at += log.length(0, e);
            }
            out.put(k, row, 0, at);
        }
        return out.seal();
    }

    /** Entries a and b by string_agg's ORDER BY keys, each with its direction and its NULLs' place. */
    private int compareKeys(int a, int b) {
        for (int k = 0; k < keys.length; k++) {
            int c = k + 1;
            boolean nullA = log.isNull(c, a);
            boolean nullB = log.isNull(c, b);
            int cmp;
            if (nullA || nullB) {
                cmp = nullA == nullB ? 0 : nullA == keys[k].nullsFirst() ? -1 : 1;
            } else {
                cmp = log.compare(c, a, b);
                cmp = keys[k].ascending() ? cmp : -cmp;
            }
            if (cmp != 0) {
                return cmp;
            }
        }
        return 0;
    }
}
