package io.troupe.operators.sql;

import io.troupe.operators.types.DataType;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.EnumSet;
import java.util.Set;

/**
 * Refuses, with its position, what a validated statement uses that Troupe has no operator for yet:
 * window functions, grouping sets, INTERSECT and EXCEPT, LATERAL/UNNEST and the like, intervals, and
 * CASTs to types Troupe does not have. Checked on the
 * syntax tree because positions are lost once it becomes relational algebra; what only shows after
 * conversion (a join on no equality, a correlated subquery left over) {@link RelLowering} refuses.
 */
final class SupportedSql extends SqlBasicVisitor<Void> {

    /** The SQL types a CAST may name: those {@link SqlTypes} maps to Troupe's. */
    private static final Set<SqlTypeName> SUPPORTED = EnumSet.of(SqlTypeName.TINYINT, SqlTypeName.SMALLINT,
            SqlTypeName.INTEGER, SqlTypeName.BIGINT, SqlTypeName.DOUBLE, SqlTypeName.FLOAT, SqlTypeName.REAL,
            SqlTypeName.DECIMAL, SqlTypeName.DATE, SqlTypeName.BOOLEAN, SqlTypeName.CHAR, SqlTypeName.VARCHAR);

    private SupportedSql() {
    }

    /** @throws UnsupportedSqlException at the first unsupported construct, in statement order */
    static void check(SqlNode validated) {
        validated.accept(new SupportedSql());
    }

    @Override
    public Void visit(SqlCall call) {
        String what = switch (call.getKind()) {
            case OVER, WINDOW -> "window functions (" + call + ")";
            case ROLLUP, CUBE, GROUPING_SETS, GROUPING, GROUP_ID, GROUPING_ID -> call.getKind() + " (grouping sets)";
            case INTERSECT, EXCEPT -> call.getKind().toString();
            case LATERAL, UNNEST, COLLECTION_TABLE, TABLESAMPLE, MATCH_RECOGNIZE, UNPIVOT ->
                    call.getKind().toString();
            default -> null;
        };
        if (what != null) {
            throw new UnsupportedSqlException(what, call.getParserPosition());
        }
        return super.visit(call);
    }

    @Override
    public Void visit(SqlLiteral literal) {
        if (literal instanceof SqlIntervalLiteral) {
            throw new UnsupportedSqlException("intervals and date arithmetic (" + literal + ")",
                    literal.getParserPosition());
        }
        return null;
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
