package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import java.util.Arrays;

/**
 * {@code value LIKE pattern}, the pattern a VARCHAR literal compiled at bind time
 * ({@link LikePattern}); one loop per pattern shape. NULL value or pattern gives NULL. A backslash
 * escapes the character after it, as in PostgreSQL (DuckDB has no escape unless one is named).
 * {@code like_escape(value, pattern, escape)} names the escape character ({@code ''} for none:
 * SQL's {@code LIKE ... ESCAPE}); {@code ilike_escape} also ignores case, lower-casing the pattern
 * and each value ({@link CaseMapping}) as PostgreSQL's ILIKE does. A pattern ending in its escape
 * character, or an escape of more than one character, fails when a row reaches it (SQLSTATE 22025).
 *
 * <p>Immutable and threadsafe.
 */
final class LikeExpression implements Expression {

    private static final int BACKSLASH = '\\';

    private final Expression value;
    private final LikePattern pattern;
    private final boolean ignoreCase;
    private final String text;

    private LikeExpression(Expression value, LikePattern pattern, boolean ignoreCase, String text) {
        this.value = value;
        this.pattern = pattern;
        this.ignoreCase = ignoreCase;
        this.text = text;
    }

    /** The kernel of like_escape ({@code ignoreCase} false) and ilike_escape: (value, pattern, escape), constants. */
    static Signature.Kernel kernel(boolean ignoreCase) {
        return (args, type, text) -> {
            LiteralExpression pattern = (LiteralExpression) args.get(1);
            LiteralExpression escape = (LiteralExpression) args.get(2);
            if (pattern.isNull() || escape.isNull()) {
                return new LiteralExpression(null, DataType.BOOLEAN, text);
            }
            String e = (String) escape.value();
            if (e.codePointCount(0, e.length()) > 1) {
                return new Failure(DataType.BOOLEAN, new DomainException(QueryDataException.Kind.INVALID_ESCAPE,
                        "invalid escape string '" + e + "': it must be empty or one character"), text);
            }
            int escapeCharacter = e.isEmpty() ? -1 : e.codePointAt(0);
            return compile(args.get(0), (String) pattern.value(), escapeCharacter, ignoreCase, text);
        };
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
        return compile(value, (String) lit.value(), BACKSLASH, false, text);
    }

    private static Expression compile(Expression value, String pattern, int escape, boolean ignoreCase, String text) {
        try {
            return Functions.fold(new LikeExpression(value, LikePattern.compile(pattern, escape, ignoreCase),
                    ignoreCase, text), value);
        } catch (DomainException e) {
            return new Failure(DataType.BOOLEAN, e, text);
        }
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
        if (ignoreCase) {
            long[] valid = v.validity();
            byte[] lower = new byte[64];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                if (Kernels.isValid(valid, r)) {
                    int room = CaseMapping.room(off[r], off[r + 1]);
                    lower = lower.length < room ? new byte[room] : lower;
                    int length = CaseMapping.map(d, off[r], off[r + 1], false, lower);
                    o[r] = (byte) (pattern.test(lower, 0, length) ? 1 : 0);
                }
            }
            BooleanVector out = new BooleanVector(o);
            out.setValidity(Kernels.copy(v));
            return out;
        }
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
