package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code CASE WHEN c1 THEN r1 ... ELSE e END}. Arguments: c1, r1, c2, r2, ..., e, where e may be
 * an untyped NULL (a null entry), which takes the results' type.
 *
 * <p>Each condition is evaluated only at the rows no earlier condition took, and each result
 * only at the rows its condition took (narrowed selections): a branch never runs on a row it
 * does not answer, so {@code CASE WHEN b = 0 THEN 0 ELSE a / b END} cannot divide by zero. A
 * NULL condition counts as not true; conditions pick their rows with {@link Expression#select}.
 * A NULL literal branch is not evaluated: its rows are NULL. When a single branch supplies values
 * (as in {@code sum(CASE WHEN c THEN x END)}) the output shares that branch's values and only
 * its validity is new ({@link ColumnVector#withValidity}); otherwise {@link Merge} assembles the
 * output in one pass.
 *
 * <p>Immutable and threadsafe.
 */
final class CaseExpression implements Expression {

    private final Expression[] conditions;
    private final Expression[] results;
    private final Expression otherwise;
    /** Per result, then otherwise: true for a NULL literal, whose rows are NULL without evaluating it. */
    private final boolean[] nullPart;
    /** All NULLs of {@link #type}, for a batch whose every row a NULL part took. */
    private final LiteralExpression nulls;
    private final DataType type;
    private final String text;

    private CaseExpression(Expression[] conditions, Expression[] results, Expression otherwise, DataType type,
                           String text) {
        this.conditions = conditions;
        this.results = results;
        this.otherwise = otherwise;
        this.nullPart = new boolean[results.length + 1];
        for (int k = 0; k <= results.length; k++) {
            Expression part = k < results.length ? results[k] : otherwise;
            nullPart[k] = part instanceof LiteralExpression lit && lit.isNull();
        }
        this.nulls = new LiteralExpression(null, type, "NULL");
        this.type = type;
        this.text = text;
    }

    static Expression bind(List<Expression> args, String text) {
        int arms = args.size() / 2;
        List<DataType> resultTypes = new ArrayList<>();
        for (int k = 0; k < arms; k++) {
            Expression condition = args.get(2 * k);
            if (condition == null || !condition.type().equals(DataType.BOOLEAN)) {
                throw new ExpressionTypeException("a CASE condition must be BOOLEAN, got "
                        + (condition == null ? "NULL" : condition.type()) + " in " + text);
            }
            Expression result = args.get(2 * k + 1);
            resultTypes.add(result == null ? null : result.type());
        }
        Expression last = args.get(args.size() - 1);
        resultTypes.add(last == null ? null : last.type());
        DataType type = TypeRules.commonType(resultTypes);
        if (type == null) {
            boolean allUntyped = resultTypes.stream().allMatch(t -> t == null);
            throw new ExpressionTypeException(allUntyped
                    ? "CASE results are all untyped NULLs in " + text + ": use Expr.nullOf(type)"
                    : "CASE results have incompatible types " + distinct(resultTypes) + " in " + text);
        }
        Expression[] conditions = new Expression[arms];
        Expression[] results = new Expression[arms];
        for (int k = 0; k < arms; k++) {
            conditions[k] = args.get(2 * k);
            results[k] = convert(args.get(2 * k + 1), type, text);
        }
        Expression otherwise = convert(last, type, text);
        return Functions.fold(new CaseExpression(conditions, results, otherwise, type, text), args);
    }

    private static Expression convert(Expression e, DataType type, String text) {
        return e == null ? new LiteralExpression(null, type, "NULL") : CastExpression.of(e, type, text);
    }

    private static String distinct(List<DataType> types) {
        List<String> names = new ArrayList<>();
        for (DataType t : types) {
            if (t != null && !names.contains(t.toString())) {
                names.add(t.toString());
            }
        }
        return String.join(", ", names);
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
        int rows = batch.rowCount();
        int arms = results.length;
        ColumnVector[] parts = new ColumnVector[arms + 1];
        int[][] taken = new int[arms + 1][];
        int[] counts = new int[arms + 1];
        int[] open = null; // the rows no condition took yet, once one took some
        int m = n;
        int evaluated = 0;
        int last = -1;
        for (int k = 0; k < arms && m > 0; k++) {
            int[] t = new int[m];
            int c = conditions[k].select(m == n ? batch : batch.withSelection(open, m), t);
            if (c == 0) {
                continue;
            }
            if (k + 1 < arms || !nullPart[arms]) {
                open = open == null ? Kernels.liveRows(batch) : open;
                m = remove(open, m, t, c);
            } else {
                m = 0; // the rows left are NULL, as the NULL ELSE would make them
            }
            taken[k] = t;
            counts[k] = c;
            if (!nullPart[k]) {
                parts[k] = results[k].evaluate(c == n ? batch : batch.withSelection(t, c));
                evaluated++;
                last = k;
            }
        }
        if (m > 0 && !nullPart[arms]) {
            open = open == null ? Kernels.liveRows(batch) : open;
            taken[arms] = open;
            counts[arms] = m;
            parts[arms] = otherwise.evaluate(m == n ? batch : batch.withSelection(open, m));
            evaluated++;
            last = arms;
        }
        if (evaluated == 0) {
            return nulls.evaluate(batch);
        }
        if (evaluated == 1) {
            return counts[last] == n ? parts[last] : onlyAt(parts[last], taken[last], counts[last], rows);
        }
        int[] which = new int[rows];
        Arrays.fill(which, -1);
        for (int k = 0; k <= arms; k++) {
            if (parts[k] != null) {
                for (int j = 0; j < counts[k]; j++) {
                    which[taken[k][j]] = k;
                }
            }
        }
        return Merge.assemble(type, batch, parts, which);
    }

    /** Removes {@code taken[0..c)} from {@code open[0..m)} in place (both ascending); returns the rows left. */
    private static int remove(int[] open, int m, int[] taken, int c) {
        int j = 0;
        int rest = 0;
        for (int i = 0; i < m; i++) {
            int r = open[i];
            if (j < c && taken[j] == r) {
                j++;
            } else {
                open[rest++] = r; // compacts in place: rest never passes i
            }
        }
        return rest;
    }

    /** {@code part}'s values, valid only at {@code rows[0..count)} where {@code part} is valid. */
    private static ColumnVector onlyAt(ColumnVector part, int[] rows, int count, int rowCount) {
        long[] bits = Kernels.allNull(rowCount);
        long[] valid = part.validity();
        for (int j = 0; j < count; j++) {
            int r = rows[j];
            bits[r >>> 6] |= (long) Kernels.bit(valid, r) << r;
        }
        return part.withValidity(bits);
    }
}
