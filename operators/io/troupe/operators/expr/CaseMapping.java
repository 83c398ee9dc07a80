package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

/**
 * {@code upper(s)} and {@code lower(s)}: each code point mapped by {@link Character#toUpperCase(int)}
 * or {@link Character#toLowerCase(int)}, Unicode's simple case mapping, which depends on no
 * locale (as {@code Locale.ROOT}) and maps one code point to one. ASCII bytes map in place;
 * others are decoded, mapped and re-encoded into a buffer reused across the batch.
 *
 * <p>Immutable and threadsafe.
 */
final class CaseMapping implements Expression {

    private final Expression value;
    private final boolean upper;
    private final String text;

    private CaseMapping(Expression value, boolean upper, String text) {
        this.value = value;
        this.upper = upper;
        this.text = text;
    }

    static Expression bind(Expression value, boolean upper, String text) {
        if (value.type().id() != TypeId.VARCHAR) {
            throw new ExpressionTypeException((upper ? "upper" : "lower") + " needs a VARCHAR argument, got "
                    + value.type() + " in " + text);
        }
        return Functions.fold(new CaseMapping(value, upper, text), value);
    }

    @Override
    public DataType type() {
        return DataType.VARCHAR;
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
        int n = batch.size();
        int[] sel = batch.selection();
        long[] valid = v.validity();
        StringVector out = new StringVector(batch.rowCount(), Math.max(16, off[v.capacity()]));
        byte[] buf = new byte[64];
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!Kernels.isValid(valid, r)) {
                continue;
            }
            int from = off[r];
            int to = off[r + 1];
            // A code point of up to 4 bytes maps to one of up to 4 bytes; 4 per input byte is room enough.
            if (buf.length < 4 * (to - from)) {
                buf = new byte[4 * (to - from)];
            }
            int len = 0;
            int p = from;
            while (p < to) {
                int b = d[p];
                if (b >= 0) {
                    buf[len++] = (byte) (upper ? (b >= 'a' && b <= 'z' ? b - 32 : b) : (b >= 'A' && b <= 'Z' ? b + 32 : b));
                    p++;
                    continue;
                }
                int cp;
                int size;
                if ((b & 0xE0) == 0xC0) {
                    cp = b & 0x1F;
                    size = 2;
                } else if ((b & 0xF0) == 0xE0) {
                    cp = b & 0x0F;
                    size = 3;
                } else {
                    cp = b & 0x07;
                    size = 4;
                }
                for (int k = 1; k < size && p + k < to; k++) {
                    cp = (cp << 6) | (d[p + k] & 0x3F);
                }
                p += size;
                len = encode(upper ? Character.toUpperCase(cp) : Character.toLowerCase(cp), buf, len);
            }
            out.put(r, buf, 0, len);
        }
        out.seal();
        out.setValidity(Kernels.copy(v));
        return out;
    }

    private static int encode(int cp, byte[] buf, int pos) {
        if (cp < 0x80) {
            buf[pos++] = (byte) cp;
        } else if (cp < 0x800) {
            buf[pos++] = (byte) (0xC0 | (cp >> 6));
            buf[pos++] = (byte) (0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            buf[pos++] = (byte) (0xE0 | (cp >> 12));
            buf[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
            buf[pos++] = (byte) (0x80 | (cp & 0x3F));
        } else {
            buf[pos++] = (byte) (0xF0 | (cp >> 18));
            buf[pos++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
            buf[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
            buf[pos++] = (byte) (0x80 | (cp & 0x3F));
        }
        return pos;
    }
}
