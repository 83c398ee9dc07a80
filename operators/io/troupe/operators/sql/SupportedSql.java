package io.troupe.operators.sql;

import io.troupe.operators.types.DataType;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.EnumSet;
import java.util.Set;

/**
 * Refuses, with its position, what a validated statement uses that Troupe has no operator for yet:
 * window functions, grouping sets, INTERSECT and EXCEPT, LATERAL/UNNEST and the like, intervals, CASTs
 * to types Troupe does not have, CROSS JOIN and ON conditions without an equality, and NOT IN (subquery).
 * Checked on the syntax tree because positions are lost once it becomes relational algebra; what only
 * shows after conversion (a FROM list joined on no equality, an uncorrelated scalar subquery, a
 * correlated subquery left over) {@link RelLowering} refuses, without a position.
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
        if (call.getKind() == SqlKind.NOT_IN && call.operand(1) instanceof SqlSelect) {
            throw new UnsupportedSqlException("NOT IN (subquery), which needs a join without an equality "
                    + "(write NOT EXISTS)", call.getParserPosition());
        }
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

    /** Troupe's joins are hash joins: a CROSS JOIN, or an ON without any equality, has nothing to hash on. */
    private static void checkJoin(SqlJoin join) {
        if (join.getJoinType() == JoinType.CROSS) {
            throw new UnsupportedSqlException("CROSS JOIN (Troupe's joins are hash joins on equalities for now)",
                    join.getParserPosition());
        }
        SqlNode on = join.getCondition();
        if (join.getConditionType() == JoinConditionType.ON && on != null && !hasEquality(on)) {
            throw new UnsupportedSqlException("a join on " + on
                    + " (Troupe's joins are hash joins on equalities for now)", on.getParserPosition());
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
