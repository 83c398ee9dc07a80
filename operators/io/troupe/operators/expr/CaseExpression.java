package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
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
 * NULL condition counts as not true. {@link Merge} then assembles the output in one pass.
 *
 * <p>Immutable and threadsafe.
 */
final class CaseExpression implements Expression {

    private final Expression[] conditions;
    private final Expression[] results;
    private final Expression otherwise;
    private final DataType type;
    private final String text;

    private CaseExpression(Expression[] conditions, Expression[] results, Expression otherwise, DataType type,
                           String text) {
        this.conditions = conditions;
        this.results = results;
        this.otherwise = otherwise;
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
        int[] which = new int[batch.rowCount()];
        Arrays.fill(which, -1);
        ColumnVector[] parts = new ColumnVector[results.length + 1];
        int[] open = Kernels.liveRows(batch);
        int[] taken = new int[n];
        int m = n;
        for (int k = 0; k < conditions.length && m > 0; k++) {
            BooleanVector cond = (BooleanVector) conditions[k].evaluate(m == n ? batch : batch.withSelection(open, m));
            byte[] c = cond.values();
            long[] valid = cond.validity();
            int t = 0;
            int rest = 0;
            for (int j = 0; j < m; j++) {
                int r = open[j];
                if (c[r] != 0 && Kernels.isValid(valid, r)) {
                    taken[t++] = r;
                } else {
                    open[rest++] = r; // compacts in place: rest never passes j
                }
            }
            if (t > 0) {
                parts[k] = results[k].evaluate(t == n ? batch : batch.withSelection(taken, t));
                for (int j = 0; j < t; j++) {
                    which[taken[j]] = k;
                }
            }
            m = rest;
        }
        if (m > 0) {
            parts[results.length] = otherwise.evaluate(m == n ? batch : batch.withSelection(open, m));
            for (int j = 0; j < m; j++) {
                which[open[j]] = results.length;
            }
        }
        return Merge.assemble(type, batch, parts, which);
    }
}
