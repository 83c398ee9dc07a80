package io.troupe.operators.sql;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.Locale;

/**
 * Refuses a statement whose plan computes a volatile function ({@code random()}) more often than the
 * statement calls it. Calcite 1.42 merges a subquery's projection into the query that reads it and pushes
 * filters below projections by copying the expressions (CALCITE-7551): {@code SELECT r, r FROM (SELECT
 * random() AS r FROM t)} would draw two values for a row, and {@code ... WHERE r < 0.5} would filter on one
 * value and return another. PostgreSQL evaluates such a call once per row; where the plan cannot, Troupe
 * fails the statement at the call's position rather than answer otherwise.
 *
 * <p>Stateless; threadsafe.
 */
final class VolatileCalls {

    private VolatileCalls() {
    }

    /**
     * @throws UnsupportedSqlException when {@code planned} holds more calls of non-deterministic functions than
     *         {@code validated}
     */
    static void check(SqlNode validated, RelNode planned) {
        SqlCall[] first = new SqlCall[1];
        int[] written = new int[1];
        validated.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (!call.getOperator().isDeterministic()) {
                    written[0]++;
                    first[0] = first[0] == null ? call : first[0];
                }
                return super.visit(call);
            }
        });
        if (written[0] == 0) {
            return;
        }
        int[] computed = new int[1];
        RexShuttle counter = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                computed[0] += call.getOperator().isDeterministic() ? 0 : 1;
                return super.visitCall(call);
            }
        };
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                node.accept(counter);
                super.visit(node, ordinal, parent);
            }
        }.go(planned);
        if (computed[0] > written[0]) {
            throw new UnsupportedSqlException(first[0].getOperator().getName().toLowerCase(Locale.ROOT)
                    + "() in a subquery whose column the query reads more than once or filters on: the planner "
                    + "would compute it once for each reading (Calcite's CALCITE-7551); call it where its value is "
                    + "used, as in WHERE random() < 0.1, or keep its values in a table (CREATE TABLE AS)",
                    first[0].getParserPosition());
        }
    }
}
