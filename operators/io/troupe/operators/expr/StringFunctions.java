package io.troupe.operators.expr;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.troupe.operators.expr.Signature.ResultType.fixed;

/**
 * The string functions of the {@link FunctionRegistry}, documented for users in
 * docs/sql/functions-string.md and checked against DuckDB by {@code StringFunctionsVersusDuckDbTest}. They count
 * characters as code points and work on the UTF-8 bytes in place ({@link Utf8}, {@link
 * StringKernel}); values follow PostgreSQL where it and DuckDB differ, result types are DuckDB's.
 * The kernels: {@link Trim}, {@link Padding}, {@link Substrings}, {@link Characters}, {@link
 * Digests}, {@link RegexFunctions}, {@link LikeExpression}; {@code concat_ws} is here.
 *
 * <p>Stateless; threadsafe.
 */
final class StringFunctions {

    private static final ParamType TEXT = ParamType.VARCHAR;
    private static final ParamType COUNT = ParamType.INT64;
    private static final Signature.ResultType STRING = fixed(DataType.VARCHAR);
    private static final Signature.ResultType BOOLEAN = fixed(DataType.BOOLEAN);

    private StringFunctions() {
    }

    static List<ScalarFunction> all() {
        return List.of(
                ScalarFunction.of("btrim", Signature.of(STRING, Trim.kernel(true, true), TEXT),
                        Signature.of(STRING, Trim.kernel(true, true), TEXT, TEXT)),
                ScalarFunction.of("ltrim", Signature.of(STRING, Trim.kernel(true, false), TEXT),
                        Signature.of(STRING, Trim.kernel(true, false), TEXT, TEXT)),
                ScalarFunction.of("rtrim", Signature.of(STRING, Trim.kernel(false, true), TEXT),
                        Signature.of(STRING, Trim.kernel(false, true), TEXT, TEXT)),
                ScalarFunction.of("lpad", Signature.of(STRING, Padding.kernel(true), TEXT, COUNT),
                        Signature.of(STRING, Padding.kernel(true), TEXT, COUNT, TEXT)),
                ScalarFunction.of("rpad", Signature.of(STRING, Padding.kernel(false), TEXT, COUNT),
                        Signature.of(STRING, Padding.kernel(false), TEXT, COUNT, TEXT)),
                ScalarFunction.of("repeat", Signature.of(STRING, Padding.REPEAT, TEXT, COUNT)),
                ScalarFunction.of("replace", Signature.of(STRING, Substrings.REPLACE, TEXT, TEXT, TEXT)),
                ScalarFunction.of("translate", Signature.of(STRING, Characters.TRANSLATE, TEXT, TEXT, TEXT)),
                ScalarFunction.of("reverse", Signature.of(STRING, Characters.REVERSE, TEXT)),
                ScalarFunction.of("left", Signature.of(STRING, Substrings.left(true), TEXT, COUNT)),
                ScalarFunction.of("right", Signature.of(STRING, Substrings.left(false), TEXT, COUNT)),
                ScalarFunction.of("strpos", Signature.of(fixed(DataType.INT64), Substrings.STRPOS, TEXT, TEXT)),
                ScalarFunction.of("split_part", Signature.of(STRING, Substrings.SPLIT_PART, TEXT, TEXT, COUNT)),
                ScalarFunction.of("concat_ws", Signature.variadic(STRING, StringFunctions::concatWs, TEXT)),
                ScalarFunction.of("starts_with", Signature.of(BOOLEAN, Substrings.STARTS_WITH, TEXT, TEXT)),
                ScalarFunction.of("ends_with", Signature.of(BOOLEAN, Substrings.ENDS_WITH, TEXT, TEXT))
                        .withAliases("suffix"),
                ScalarFunction.of("like_escape", Signature.of(BOOLEAN, LikeExpression.kernel(false), TEXT,
                        TEXT.asConstant(), TEXT.asConstant())),
                ScalarFunction.of("ilike_escape", Signature.of(BOOLEAN, LikeExpression.kernel(true), TEXT,
                        TEXT.asConstant(), TEXT.asConstant())),
                ScalarFunction.of("regexp_matches", Signature.of(BOOLEAN, RegexFunctions.MATCHES, TEXT, TEXT),
                        Signature.of(BOOLEAN, RegexFunctions.MATCHES, TEXT, TEXT, TEXT.asConstant())),
                ScalarFunction.of("regexp_replace", Signature.of(STRING, RegexFunctions.REPLACE, TEXT, TEXT, TEXT),
                        Signature.of(STRING, RegexFunctions.REPLACE, TEXT, TEXT, TEXT, TEXT.asConstant())),
                ScalarFunction.of("regexp_extract", Signature.of(STRING, RegexFunctions.EXTRACT, TEXT, TEXT),
                        Signature.of(STRING, RegexFunctions.EXTRACT, TEXT, TEXT, ParamType.INT32.asConstant()),
                        Signature.of(STRING, RegexFunctions.EXTRACT, TEXT, TEXT, ParamType.INT32.asConstant(),
                                TEXT.asConstant())),
                ScalarFunction.of("ascii", Signature.of(fixed(DataType.INT32), Characters.ASCII, TEXT)),
                ScalarFunction.of("chr", Signature.of(STRING, Characters.CHR, ParamType.INT32)),
                ScalarFunction.of("initcap", Signature.of(STRING, Characters.INITCAP, TEXT)),
                ScalarFunction.of("md5", Signature.of(STRING, Digests.kernel("MD5"), TEXT),
                        Signature.of(STRING, Digests.kernel("MD5"), ParamType.of(DataType.BLOB))),
                ScalarFunction.of("sha256", Signature.of(STRING, Digests.kernel("SHA-256"), TEXT),
                        Signature.of(STRING, Digests.kernel("SHA-256"), ParamType.of(DataType.BLOB))),
                // The argument's type as SQL spells it, known when the call is bound (DuckDB's typeof).
                ScalarFunction.of("typeof", Signature.of(STRING,
                        (args, type, text) -> new LiteralExpression(args.get(0).type().sqlName(), DataType.VARCHAR, text),
                        ParamType.SAME)));
    }

    /** The UTF-8 bytes of a VARCHAR literal that is not NULL, or null for anything else. */
    static byte[] constant(Expression e) {
        return e instanceof LiteralExpression lit && !lit.isNull() && lit.type().id() == TypeId.VARCHAR
                ? ((String) lit.value()).getBytes(StandardCharsets.UTF_8) : null;
    }

    /**
     * {@code concat_ws(separator, s, ...)}: the strings that are not NULL, joined by the separator;
     * NULL only for a NULL separator, {@code ''} when every string is NULL (PostgreSQL and DuckDB).
     */
    private static Expression concatWs(List<Expression> args, DataType type, String text) {
        return StringKernel.textSkippingNulls(args, text, (a, r, out) -> {
            boolean first = true;
            for (int k = 1; k < a.count(); k++) {
                if (!a.isNull(k, r)) {
                    if (!first) {
                        out.append(a.data(0), a.start(0, r), a.end(0, r));
                    }
                    out.append(a.data(k), a.start(k, r), a.end(k, r));
                    first = false;
                }
            }
        });
    }
}
