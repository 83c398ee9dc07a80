package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import java.util.Arrays;

/**
 * {@code value LIKE pattern}, the pattern a VARCHAR literal compiled at bind time
 * ({@link LikePattern}); one loop per pattern shape. NULL value or pattern gives NULL.
 *
 * <p>Immutable and threadsafe.
 */
final class LikeExpression implements Expression {

    private final Expression value;
    private final LikePattern pattern;
    private final String text;

    private LikeExpression(Expression value, LikePattern pattern, String text) {
        this.value = value;
        this.pattern = pattern;
        this.text = text;
    }

    static Expression bind(Expression value, Expression pattern, String text) {
        if (value.type().id() != TypeId.VARCHAR) {
            throw new ExpressionTypeException("LIKE needs a VARCHAR value, got " + value.type() + " in " + text);
        }
        if (!(pattern instanceof LiteralExpression lit) || lit.type().id() != TypeId.VARCHAR) {
            throw new ExpressionTypeException("the LIKE pattern must be a VARCHAR literal, got "
                    + (pattern instanceof LiteralExpression ? pattern.type() + " " : "") + pattern + " in " + text);
        }
        if (lit.isNull()) {
            return new LiteralExpression(null, DataType.BOOLEAN, text);
        }
        return Functions.fold(new LikeExpression(value, LikePattern.compile((String) lit.value()), text), value);
    }

    @Override
    public DataType type() {
        return DataType.BOOLEAN;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        StringVector v = (StringVector) value.evaluate(batch);
        byte[] d = v.data();
        int[] off = v.offsets();
        byte[] o = new byte[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        switch (pattern.shape()) {
            case ANY -> {
                for (int i = 0; i < n; i++) {
                    o[sel == null ? i : sel[i]] = 1;
                }
            }
            case EXACT -> {
                byte[] lit = pattern.literal();
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (Arrays.equals(d, off[r], off[r + 1], lit, 0, lit.length) ? 1 : 0);
                }
            }
            case PREFIX -> {
                byte[] lit = pattern.literal();
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (LikePattern.startsWith(d, off[r], off[r + 1], lit) ? 1 : 0);
                }
            }
            case SUFFIX -> {
                byte[] lit = pattern.literal();
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (LikePattern.endsWith(d, off[r], off[r + 1], lit) ? 1 : 0);
                }
            }
            case CONTAINS -> {
                byte[] lit = pattern.literal();
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (LikePattern.indexOf(d, off[r], off[r + 1], lit) >= 0 ? 1 : 0);
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (pattern.matches(d, off[r], off[r + 1]) ? 1 : 0);
                }
            }
        }
        BooleanVector out = new BooleanVector(o);
        out.setValidity(Kernels.copy(v));
        return out;
    }
}
