package io.troupe.operators.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Refuses, with its position, what a validated statement uses that Troupe has no operator for yet:
 * window functions, grouping sets, INTERSECT and EXCEPT, LATERAL/UNNEST and the like. Checked on the
 * syntax tree because positions are lost once it becomes relational algebra; what only shows after
 * conversion (a join on no equality, a correlated subquery left over) {@link RelLowering} refuses.
 */
final class SupportedSql extends SqlBasicVisitor<Void> {

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
}
