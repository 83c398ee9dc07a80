package io.troupe.operators.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.ArrayList;
import java.util.List;

/**
 * Calcite's reduction of constant expressions (its simplifier folds {@code CAST('...' AS TIMESTAMP)} and the like
 * while it converts a statement), except for expressions that hold a date, a time or an interval: Calcite evaluates
 * those in milliseconds, and would drop a literal's microseconds ({@code CAST('2024-03-15 13:45:30.123456' AS
 * TIMESTAMP)} came out as {@code .123}), and reads interval text in its own way, without months in a day-time
 * interval ({@code CAST('1 month' AS INTERVAL DAY TO SECOND)}); and except for a BOOLEAN cast to text, which
 * Calcite writes {@code TRUE} where PostgreSQL and DuckDB write {@code true} (as Troupe's cast does); and except for
 * UUIDs and BLOBs, whose text Calcite reads otherwise than PostgreSQL. Troupe folds
 * those itself, exactly, when the plan binds. Stateless; threadsafe.
 */
final class ConstantReduction implements RexExecutor {

    static final ConstantReduction INSTANCE = new ConstantReduction();

    private ConstantReduction() {
    }

    @Override
    public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
        List<RexNode> calcite = new ArrayList<>();
        for (RexNode e : constExps) {
            if (!holdsTime(e)) {
                calcite.add(e);
            }
        }
        List<RexNode> reduced = new ArrayList<>();
        RexUtil.EXECUTOR.reduce(rexBuilder, calcite, reduced);
        int next = 0;
        for (RexNode e : constExps) {
            reducedValues.add(holdsTime(e) ? e : reduced.get(next++));
        }
    }

    /**
     * Times and intervals, UUIDs (Calcite reads their text with Java's lenient parser) and BLOBs (their text is
     * Troupe's).
     */
    private static boolean isTime(RelDataType type) {
        return SqlTypeUtil.isDatetime(type) || SqlTypeUtil.isInterval(type) || SqlTypeUtil.isBinary(type)
                || type.getSqlTypeName() == SqlTypeName.UUID;
    }

    /**
     * True when {@code e} or one of its operands is a date, a time, a timestamp or an interval, or a BOOLEAN cast
     * to text.
     */
    private static boolean holdsTime(RexNode e) {
        boolean[] found = {false};
        e.accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                found[0] |= isTime(call.getType()) || call.getKind() == SqlKind.CAST
                        && SqlTypeUtil.inCharFamily(call.getType())
                        && SqlTypeUtil.isBoolean(call.getOperands().get(0).getType());
                return super.visitCall(call);
            }

            @Override
            public RexNode visitLiteral(RexLiteral literal) {
                found[0] |= isTime(literal.getType());
                return literal;
            }
        });
        return found[0];
    }
}
