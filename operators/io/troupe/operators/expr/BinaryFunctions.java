package io.troupe.operators.expr;

import io.troupe.operators.types.Blobs;
import io.troupe.operators.types.DataType;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import static io.troupe.operators.expr.Signature.ResultType.fixed;

/**
 * The UUID and BLOB functions of the {@link FunctionRegistry}, documented for users in docs/sql/functions-binary.md
 * and checked against DuckDB by {@code UuidSqlTest} and {@code BlobSqlTest}: {@code gen_random_uuid()} ({@link
 * RandomUuid}), and over a BLOB's bytes in place ({@link StringKernel}) {@code octet_length}, {@code get_byte},
 * PostgreSQL's {@code encode} and {@code decode} (hex, base64, escape) and DuckDB's {@code hex} and {@code unhex}.
 * {@code length}, {@code substring}, {@code ||}, {@code md5} and {@code sha256} take BLOBs beside their text forms.
 * Values follow PostgreSQL where it and DuckDB differ.
 *
 * <p>Stateless; threadsafe.
 */
final class BinaryFunctions {

    private static final ParamType BLOB = ParamType.of(DataType.BLOB);
    private static final ParamType TEXT = ParamType.VARCHAR;
    private static final byte[] LOWER_HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UPPER_HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
    /** PostgreSQL's encode(..., 'base64') breaks its text into lines of 76 characters. */
    private static final int BASE64_LINE = 76;

    private BinaryFunctions() {
    }

    static List<ScalarFunction> all() {
        Signature.Kernel octets = (args, type, text) -> StringKernel.number(args, DataType.INT64, text,
                (a, r) -> a.end(0, r) - a.start(0, r));
        return List.of(
                ScalarFunction.of("gen_random_uuid", Signature.of(fixed(DataType.UUID), RandomUuid.KERNEL))
                        .withAliases("uuid").asVolatile(),
                ScalarFunction.of("octet_length", Signature.of(fixed(DataType.INT64), octets, BLOB),
                        Signature.of(fixed(DataType.INT64), octets, TEXT)),
                ScalarFunction.of("get_byte", Signature.of(fixed(DataType.INT32), BinaryFunctions::getByte, BLOB,
                        ParamType.INT64)),
                ScalarFunction.of("encode", Signature.of(fixed(DataType.VARCHAR), BinaryFunctions::encode, BLOB, TEXT)),
                ScalarFunction.of("decode", Signature.of(fixed(DataType.BLOB), BinaryFunctions::decode, TEXT, TEXT)),
                ScalarFunction.of("hex", Signature.of(fixed(DataType.VARCHAR), (args, type, text) ->
                        StringKernel.text(args, text, (a, r, out) -> hex(a, r, out, UPPER_HEX)), BLOB)),
                ScalarFunction.of("unhex", Signature.of(fixed(DataType.BLOB), (args, type, text) ->
                        StringKernel.bytes(args, text, (a, r, out) -> append(out, read(a, r, "hex"))), TEXT))
                        .withAliases("from_hex"));
    }

    /** {@code get_byte(b, n)}: byte {@code n} (from 0) of {@code b}, 0 to 255, as PostgreSQL's. */
    private static Expression getByte(List<Expression> args, DataType type, String text) {
        return StringKernel.number(args, DataType.INT32, text, (a, r) -> {
            int size = a.end(0, r) - a.start(0, r);
            long n = a.integer(1, r);
            if (n < 0 || n >= size) {
                throw new DomainException("index " + n + " out of valid range, 0.." + (size - 1));
            }
            return a.data(0)[a.start(0, r) + (int) n] & 0xFF;
        });
    }

    /** {@code encode(b, format)}: {@code b} as text in {@code hex}, {@code base64} or {@code escape}, as PostgreSQL. */
    private static Expression encode(List<Expression> args, DataType type, String text) {
        return StringKernel.text(args, text, (a, r, out) -> {
            switch (format(a, r)) {
                case "hex" -> hex(a, r, out, LOWER_HEX);
                case "base64" -> {
                    byte[] all = Base64.getEncoder().encode(java.util.Arrays.copyOfRange(a.data(0), a.start(0, r),
                            a.end(0, r)));
                    for (int at = 0; at < all.length; at += BASE64_LINE) {
                        if (at > 0) {
                            out.append((byte) '\n');
                        }
                        out.append(all, at, Math.min(all.length, at + BASE64_LINE));
                    }
                }
                case "escape" -> escape(a, r, out);
                default -> throw unknownFormat(a, r);
            }
        });
    }

    /** {@code decode(s, format)}: the bytes {@code s} spells in {@code hex}, {@code base64} or {@code escape}. */
    private static Expression decode(List<Expression> args, DataType type, String text) {
        return StringKernel.bytes(args, text, (a, r, out) -> append(out, read(a, r, format(a, r))));
    }

    /** The bytes argument 0 spells in {@code format}, or PostgreSQL's error naming what is wrong. */
    private static byte[] read(StringKernel.Args a, int r, String format) {
        String s = new String(a.data(0), a.start(0, r), a.end(0, r) - a.start(0, r), StandardCharsets.UTF_8);
        try {
            return switch (format) {
                case "hex" -> Blobs.parseHex(s, 0);
                case "base64" -> Base64.getDecoder().decode(s.replaceAll("[ \\t\\n\\r]", ""));
                case "escape" -> Blobs.parseEscape(s);
                default -> throw unknownFormat(a, r);
            };
        } catch (IllegalArgumentException e) {
            throw new DomainException(format.equals("base64") ? "invalid base64 data: \"" + s + "\"" : e.getMessage());
        }
    }

    private static void append(TextOut out, byte[] bytes) {
        out.append(bytes, 0, bytes.length);
    }

    private static String format(StringKernel.Args a, int r) {
        return new String(a.data(1), a.start(1, r), a.end(1, r) - a.start(1, r), StandardCharsets.UTF_8)
                .toLowerCase(java.util.Locale.ROOT);
    }

    private static DomainException unknownFormat(StringKernel.Args a, int r) {
        return new DomainException("unrecognized encoding: \"" + format(a, r) + "\" (hex, base64 or escape)");
    }

    private static void hex(StringKernel.Args a, int r, TextOut out, byte[] digits) {
        byte[] d = a.data(0);
        for (int i = a.start(0, r), end = a.end(0, r); i < end; i++) {
            out.append(digits[(d[i] >> 4) & 0xF]);
            out.append(digits[d[i] & 0xF]);
        }
    }

    /** PostgreSQL's escape form: a zero byte and bytes from 0x80 as {@code \ooo}, a backslash doubled. */
    private static void escape(StringKernel.Args a, int r, TextOut out) {
        byte[] d = a.data(0);
        for (int i = a.start(0, r), end = a.end(0, r); i < end; i++) {
            int b = d[i] & 0xFF;
            if (b == '\\') {
                out.append((byte) '\\');
                out.append((byte) '\\');
            } else if (b == 0 || b >= 0x80) {
                out.append((byte) '\\');
                out.append((byte) ('0' + (b >> 6)));
                out.append((byte) ('0' + ((b >> 3) & 7)));
                out.append((byte) ('0' + (b & 7)));
            } else {
                out.append((byte) b);
            }
        }
    }
}
