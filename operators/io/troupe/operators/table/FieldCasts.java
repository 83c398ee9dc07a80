package io.troupe.operators.table;

import io.troupe.operators.types.ByteChars;
import io.troupe.operators.types.DataType;

import java.nio.charset.StandardCharsets;

/**
 * Whether a field's text loads as a type, by the very parsers that {@link DelimitedFileLoader} runs: what a
 * detector asks of a sample before it names a column's type, so that whatever it detects loads. Dates and
 * timestamps are ISO 8601 here; a {@link io.troupe.operators.expr.Strptime} answers for other spellings.
 *
 * <p>Stateless and threadsafe.
 */
public final class FieldCasts {

    private FieldCasts() {
    }

    /** Whether {@code text} (not NULL) loads as a value of {@code type}. */
    public static boolean loads(DataType type, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        int to = b.length;
        try {
            switch (type.id()) {
                case INT32 -> FieldParsers.parseInt(b, 0, to);
                case INT16 -> FieldParsers.parseInt(b, 0, to, Short.MIN_VALUE, Short.MAX_VALUE);
                case INT8 -> FieldParsers.parseInt(b, 0, to, Byte.MIN_VALUE, Byte.MAX_VALUE);
                case INT64 -> FieldParsers.parseLong(b, 0, to);
                case FLOAT32 -> FieldParsers.parseFloat(b, 0, to);
                case UUID -> FieldParsers.parseUuid(b, 0, to, new ByteChars());
                case BLOB -> FieldParsers.parseBlob(b, 0, to, new ByteChars());
                case FLOAT64 -> FieldParsers.parseDouble(b, 0, to);
                case DECIMAL -> {
                    if (type.isWideDecimal()) {
                        FieldParsers.parseWideDecimal(b, 0, to, type);
                    } else {
                        FieldParsers.parseDecimal(b, 0, to, type);
                    }
                }
                case DATE -> FieldParsers.parseDate(b, 0, to);
                case BOOLEAN -> FieldParsers.parseBoolean(b, 0, to);
                case INTERVAL -> FieldParsers.parseInterval(b, 0, to, new ByteChars());
                case TIMESTAMP, TIMESTAMP_TZ, TIME -> FieldParsers.parseTemporal(b, 0, to, type.id(), new ByteChars());
                case VARCHAR -> FieldParsers.checkUtf8(b, 0, to);
            }
            return true;
        } catch (FieldParsers.FieldParseException e) {
            return false;
        }
    }
}
