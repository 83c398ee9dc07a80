package io.troupe.operators.sql;

import io.troupe.operators.types.DataType;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.EnumSet;
import java.util.Set;

/**
 * Refuses, with its position, what a validated statement uses that Troupe has no operator for yet:
 * window functions, GROUP_ID(), LATERAL/UNNEST and the like, CASTs
 * to types Troupe does not have, and outer joins whose ON has no equality.
 * Checked on the syntax tree because positions are lost once it becomes relational algebra; what only
 * shows after conversion (a FROM list joined on no equality, an uncorrelated scalar subquery, a
 * correlated subquery left over) {@link RelLowering} refuses, without a position. Statements other than queries
 * are {@link SqlStatements}'s: it runs CREATE TABLE [AS], INSERT, DROP TABLE and COPY, and refuses UPDATE, DELETE,
 * MERGE, views, indexes, triggers, and column constraints other than NOT NULL.
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
        if (call instanceof SqlJoin join) {
            checkJoin(join);
        }
        String what = switch (call.getKind()) {
            case OVER, WINDOW -> "window functions (" + call + ")";
            case GROUP_ID -> "GROUP_ID()";
            case LATERAL, UNNEST, COLLECTION_TABLE, TABLESAMPLE, MATCH_RECOGNIZE, UNPIVOT ->
                    call.getKind().toString();
            default -> null;
        };
        if (what != null) {
            throw new UnsupportedSqlException(what, call.getParserPosition());
        }
        return super.visit(call);
    }

    /**
     * An outer join's ON is evaluated inside the join, and Troupe's joins match rows by hashing equalities: an
     * outer join whose ON has no equality (but for ON TRUE) has nothing to hash on. An inner join without one
     * (a CROSS JOIN, an ON of inequalities) runs with its condition as a filter over every pair.
     */
    private static void checkJoin(SqlJoin join) {
        SqlNode on = join.getCondition();
        boolean outer = join.getJoinType() == JoinType.LEFT || join.getJoinType() == JoinType.RIGHT
                || join.getJoinType() == JoinType.FULL;
        if (outer && join.getConditionType() == JoinConditionType.ON && on != null && !hasEquality(on)
                && !(on instanceof SqlLiteral literal && Boolean.TRUE.equals(literal.getValue()))) {
            throw new UnsupportedSqlException("an outer join on " + on
                    + " (Troupe's outer joins are hash joins on equalities for now)", on.getParserPosition());
        }
    }

    private static boolean hasEquality(SqlNode condition) {
        if (!(condition instanceof SqlCall call)) {
            return false;
        }
        if (call.getKind() == SqlKind.EQUALS) {
            return true;
        }
        return call.getKind() == SqlKind.AND && call.getOperandList().stream().anyMatch(SupportedSql::hasEquality);
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
