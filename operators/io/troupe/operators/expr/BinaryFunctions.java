package io.troupe.operators.expr;

import io.troupe.operators.types.DataType;

import java.util.List;

import static io.troupe.operators.expr.Signature.ResultType.fixed;

/**
 * The UUID and BLOB functions of the {@link FunctionRegistry}, documented for users in docs/sql/functions-binary.md
 * and checked against DuckDB by {@code UuidSqlTest} and {@code BlobSqlTest}. Values follow PostgreSQL where it and
 * DuckDB differ. The kernels: {@link RandomUuid}.
 *
 * <p>Stateless; threadsafe.
 */
final class BinaryFunctions {

    private BinaryFunctions() {
    }

    static List<ScalarFunction> all() {
        return List.of(
                ScalarFunction.of("gen_random_uuid", Signature.of(fixed(DataType.UUID), RandomUuid.KERNEL))
                        .withAliases("uuid").asVolatile());
    }
}
