package io.troupe.operators.sql;

import io.troupe.operators.types.DataType;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.EnumSet;
import java.util.Set;

/**
 * Refuses, with its position, what a validated statement uses that Troupe has no operator for yet:
 * GROUP_ID(), LATERAL/UNNEST and the like, CASTs to types Troupe does not have, and LIKE's empty ESCAPE.
 * Checked on the syntax tree because positions are lost once it becomes relational algebra; what only
 * shows after conversion (a correlated subquery left over, a window frame or function Troupe lacks, an
 * aggregate it lacks such as stddev_samp, a scalar subquery not known to return one row (SINGLE_VALUE), string
 * concatenation) {@link RelLowering} refuses, without a position. Statements other than queries are {@link SqlStatements}'s:
 * it runs CREATE TABLE [AS], INSERT, DROP TABLE and COPY, and refuses UPDATE, DELETE, MERGE, views, indexes,
 * triggers, and column constraints other than NOT NULL.
 */
final class SupportedSql extends SqlBasicVisitor<Void> {

    /** The SQL types a CAST may name: those {@link SqlTypes} maps to Troupe's. */
    private static final Set<SqlTypeName> SUPPORTED = EnumSet.of(SqlTypeName.TINYINT, SqlTypeName.SMALLINT,
            SqlTypeName.INTEGER, SqlTypeName.BIGINT, SqlTypeName.DOUBLE, SqlTypeName.FLOAT, SqlTypeName.REAL,
            SqlTypeName.DECIMAL, SqlTypeName.DATE, SqlTypeName.BOOLEAN, SqlTypeName.CHAR, SqlTypeName.VARCHAR,
            SqlTypeName.TIMESTAMP, SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, SqlTypeName.TIMESTAMP_TZ, SqlTypeName.TIME);

    static {
        SUPPORTED.addAll(SqlTypeName.INTERVAL_TYPES);
        SUPPORTED.addAll(EnumSet.of(SqlTypeName.UUID, SqlTypeName.BINARY, SqlTypeName.VARBINARY));
    }

    private SupportedSql() {
    }

    /** @throws UnsupportedSqlException at the first unsupported construct, in statement order */
    static void check(SqlNode validated) {
        validated.accept(new SupportedSql());
    }

    @Override
    public Void visit(SqlCall call) {
        if (call.getKind() == SqlKind.COLLECTION_TABLE && SeriesFunctions.callsSeries(call)) {
            return super.visit(call);
        }
        String what = switch (call.getKind()) {
            case GROUP_ID -> "GROUP_ID()";
            case LATERAL, UNNEST, COLLECTION_TABLE, TABLESAMPLE, MATCH_RECOGNIZE, UNPIVOT ->
                    call.getKind().toString();
            // Calcite's simplification fails on an empty escape; the registry's like_escape takes it.
            case LIKE -> call.operandCount() == 3 && call.operand(2) instanceof SqlLiteral escape
                    && "".equals(escape.getValueAs(String.class))
                    ? "LIKE ... ESCAPE '' (write like_escape(s, pattern, '') or ilike_escape)" : null;
            default -> null;
        };
        if (what != null) {
            throw new UnsupportedSqlException(what, call.getParserPosition());
        }
        return super.visit(call);
    }

    /** A type Troupe has no column type for, e.g. DECIMAL(30,2), which Calcite would otherwise narrow silently. */
    @Override
    public Void visit(SqlDataTypeSpec type) {
        if (type.getTypeNameSpec() instanceof SqlBasicTypeNameSpec basic) {
            SqlTypeName name = SqlTypeName.get(basic.getTypeName().getSimple());
            if (name == null || !SUPPORTED.contains(name)) {
                throw new UnsupportedSqlException("type " + type, type.getParserPosition());
            }
            if (name == SqlTypeName.DECIMAL && basic.getPrecision() > DataType.MAX_DECIMAL_PRECISION) {
                throw new UnsupportedSqlException("type " + type + " (decimals hold at most "
                        + DataType.MAX_DECIMAL_PRECISION + " digits)", type.getParserPosition());
            }
        }
        return null;
    }
}
