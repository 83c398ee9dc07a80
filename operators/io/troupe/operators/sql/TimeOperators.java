package io.troupe.operators.sql;

import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlExtractFunction;
import org.apache.calcite.sql.fun.SqlMonotonicBinaryOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlMonotonicity;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

import java.util.ArrayList;
import java.util.List;

/**
 * SQL's {@code +} and {@code -} with the time arithmetic PostgreSQL and DuckDB users write and the SQL standard
 * lacks: {@code ts - ts} of two TIMESTAMPs (one may be a DATE, its midnight), TIMESTAMP WITH TIME ZONEs or TIMEs (an
 * INTERVAL), {@code date - date}
 * (the INTEGER days between), {@code date ± integer} and {@code integer + date} (a DATE), and intervals of both
 * kinds added together ({@code INTERVAL '1' MONTH + INTERVAL '1' DAY}, one INTERVAL to Troupe). Everything else is
 * Calcite's own {@code +} and {@code -}, typed and converted as Calcite does.
 *
 * <p>Calcite's validator resolves a binary operator by name and takes the first the operator table gives, so these
 * stand before the standard ones; {@link #CONVERTLETS} turns a call back into the standard operator where the
 * standard one types it, so that its conversion (DATETIME_PLUS, MINUS_DATE) and every rule that knows it keep
 * working, and converts the rest to a call of these, which {@link RexLowering} lowers by kind as any {@code +} and
 * {@code -}. {@link #EXTRACT} takes any field from any interval. {@link #MULTIPLY} and {@link #DIVIDE} are Calcite's
 * own but for the order they keep: Calcite reads an interval constant there as a number, and fails on PostgreSQL's
 * interval literal ({@code INTERVAL '1 day' * n}, a cast of text to Calcite); an interval's product keeps no order.
 * Immutable and threadsafe.
 */
final class TimeOperators {

    static final SqlOperator PLUS = new TimeOperator(SqlStdOperatorTable.PLUS, SqlKind.PLUS);
    static final SqlOperator MINUS = new TimeOperator(SqlStdOperatorTable.MINUS, SqlKind.MINUS);

    static final SqlOperator MULTIPLY = new Scaling(SqlStdOperatorTable.MULTIPLY);
    static final SqlOperator DIVIDE = new Scaling(SqlStdOperatorTable.DIVIDE);

    /** EXTRACT, which takes every field Troupe's INTERVAL has from any interval ({@link #withExtract}). */
    static final SqlFunction EXTRACT = new IntervalExtract();

    /** Calcite's convertlets, with this class's operators converted as above. */
    static final SqlRexConvertletTable CONVERTLETS = TimeOperators::convertlet;

    private static final SqlIntervalQualifier DAY_TO_SECOND = new SqlIntervalQualifier(TimeUnit.DAY, TimeUnit.SECOND,
            SqlParserPos.ZERO);

    private TimeOperators() {
    }

    /** The result type of {@code kind} over {@code a} and {@code b} where only these operators take it, else null. */
    private static RelDataType typeOf(SqlKind kind, RelDataType a, RelDataType b, RelDataTypeFactory factory) {
        SqlTypeName x = a.getSqlTypeName();
        SqlTypeName y = b.getSqlTypeName();
        RelDataType type = null;
        if (isInterval(a) && isInterval(b) && a.getSqlTypeName().getFamily() != b.getSqlTypeName().getFamily()) {
            type = factory.createSqlIntervalType(DAY_TO_SECOND);
        } else if (x == SqlTypeName.DATE && isInteger(y) || kind == SqlKind.PLUS && isInteger(x) && y == SqlTypeName.DATE) {
            type = factory.createSqlType(SqlTypeName.DATE);
        } else if (kind == SqlKind.MINUS && x == y && x == SqlTypeName.DATE) {
            type = factory.createSqlType(SqlTypeName.INTEGER);
        } else if (kind == SqlKind.MINUS && (x == y && (x == SqlTypeName.TIMESTAMP || x == SqlTypeName.TIME)
                || isInstant(x) && isInstant(y) || isDateAndTimestamp(x, y) || isDateAndTimestamp(y, x))) {
            type = factory.createSqlIntervalType(DAY_TO_SECOND);
        }
        return type == null ? null
                : factory.createTypeWithNullability(type, a.isNullable() || b.isNullable());
    }

    private static boolean isInterval(RelDataType t) {
        SqlTypeFamily f = t.getSqlTypeName().getFamily();
        return f == SqlTypeFamily.INTERVAL_YEAR_MONTH || f == SqlTypeFamily.INTERVAL_DAY_TIME;
    }

    /** Calcite's two spellings of Troupe's TIMESTAMP WITH TIME ZONE. */
    private static boolean isInstant(SqlTypeName t) {
        return t == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE || t == SqlTypeName.TIMESTAMP_TZ;
    }

    private static boolean isDateAndTimestamp(SqlTypeName x, SqlTypeName y) {
        return x == SqlTypeName.DATE && y == SqlTypeName.TIMESTAMP;
    }

    private static boolean isInteger(SqlTypeName t) {
        return t == SqlTypeName.TINYINT || t == SqlTypeName.SMALLINT || t == SqlTypeName.INTEGER
                || t == SqlTypeName.BIGINT;
    }

    /**
     * The parsed statement with its EXTRACT calls made {@link #EXTRACT}'s: the parser puts the standard operator in,
     * and the validator checks a call with the operator it holds.
     */
    static SqlNode withExtract(SqlNode parsed) {
        return parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call.getOperator() == SqlStdOperatorTable.EXTRACT && call instanceof SqlBasicCall basic) {
                    basic.setOperator(EXTRACT);
                }
                return super.visit(call);
            }
        });
    }

    private static SqlRexConvertlet convertlet(SqlCall call) {
        if (call.getOperator() == EXTRACT) {
            ((SqlBasicCall) call).setOperator(SqlStdOperatorTable.EXTRACT);
            return StandardConvertletTable.INSTANCE.get(call);
        }
        if (call.getOperator() instanceof Scaling scaling) {
            return (cx, c) -> {
                RexNode converted = StandardConvertletTable.INSTANCE.convertCall(cx, c);
                return converted instanceof RexCall r && r.getOperator() == scaling ? cx.getRexBuilder()
                        .makeCall(c.getParserPosition(), r.getType(), scaling.standard, r.getOperands()) : converted;
            };
        }
        if (!(call.getOperator() instanceof TimeOperator op)) {
            return StandardConvertletTable.INSTANCE.get(call);
        }
        return (cx, c) -> {
            RelDataType a = cx.getValidator().getValidatedNodeType(c.operand(0));
            RelDataType b = cx.getValidator().getValidatedNodeType(c.operand(1));
            if (typeOf(op.getKind(), a, b, cx.getTypeFactory()) == null) {
                ((SqlBasicCall) c).setOperator(op.standard);
                return StandardConvertletTable.INSTANCE.convertCall(cx, c);
            }
            List<RexNode> operands = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                RexNode operand = cx.convertExpression(c.operand(i));
                // A DATE against a TIMESTAMP is its midnight, as PostgreSQL promotes it.
                RelDataType other = i == 0 ? b : a;
                operands.add(isDateAndTimestamp(operand.getType().getSqlTypeName(), other.getSqlTypeName())
                        ? cx.getRexBuilder().makeCast(cx.getTypeFactory().createTypeWithNullability(other,
                                operand.getType().isNullable()), operand) : operand);
            }
            return cx.getRexBuilder().makeCall(c.getParserPosition(), cx.getValidator().getValidatedNodeType(c),
                    op, operands);
        };
    }

    /** {@code +} or {@code -}: the standard operator's forms and these. */
    private static final class TimeOperator extends SqlMonotonicBinaryOperator {

        private final SqlOperator standard;

        TimeOperator(SqlOperator standard, SqlKind kind) {
            super(standard.getName(), kind, standard.getLeftPrec(), true,
                    binding -> {
                        RelDataType type = typeOf(kind, binding.getOperandType(0), binding.getOperandType(1),
                                binding.getTypeFactory());
                        return type != null ? type : ReturnTypes.NULLABLE_SUM.inferReturnType(binding);
                    },
                    InferTypes.FIRST_KNOWN, new Operands(kind, standard.getOperandTypeChecker()));
            this.standard = standard;
        }
    }

    /** {@code *} or {@code /}, the standard operator's, keeping no order where an operand is an interval. */
    private static final class Scaling extends SqlMonotonicBinaryOperator {

        private final SqlBinaryOperator standard;

        Scaling(SqlBinaryOperator standard) {
            super(standard.getName(), standard.getKind(), standard.getLeftPrec(), true,
                    standard.getReturnTypeInference(), standard.getOperandTypeInference(),
                    standard.getOperandTypeChecker());
            this.standard = standard;
        }

        @Override
        public SqlMonotonicity getMonotonicity(SqlOperatorBinding call) {
            for (int i = 0; i < call.getOperandCount(); i++) {
                if (isInterval(call.getOperandType(i))) {
                    return SqlMonotonicity.NOT_MONOTONIC;
                }
            }
            return standard.getMonotonicity(call);
        }
    }

    /**
     * Calcite's EXTRACT, but for an interval: Calcite takes a field from an interval only where its qualifier holds
     * it (no YEAR of an INTERVAL DAY TO SECOND, which every PostgreSQL-style interval is to Calcite), where Troupe's
     * INTERVAL has every field; the kernel refuses the ones it lacks (DOW, DOY, WEEK ...) by name.
     */
    private static final class IntervalExtract extends SqlExtractFunction {

        IntervalExtract() {
            super(SqlStdOperatorTable.EXTRACT.getName(), false);
        }

        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            return binding.getOperandCount() == 2 && SqlTypeUtil.isInterval(binding.getOperandType(1))
                    || super.checkOperandTypes(binding, throwOnFailure);
        }

        @Override
        public void validateCall(SqlCall call, SqlValidator validator, SqlValidatorScope scope,
                                 SqlValidatorScope operandScope) {
            if (!SqlTypeUtil.isInterval(validator.deriveType(operandScope, call.operand(1)))) {
                super.validateCall(call, validator, scope, operandScope);
                return;
            }
            for (SqlNode operand : call.getOperandList()) {
                operand.validateExpr(validator, operandScope);
            }
        }
    }

    /** The standard operand forms, or one of {@link #typeOf}'s; a call that fits neither fails as the standard's. */
    private record Operands(SqlKind kind, SqlOperandTypeChecker standard) implements SqlOperandTypeChecker {

        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            if (binding.getOperandCount() == 2 && typeOf(kind, binding.getOperandType(0), binding.getOperandType(1),
                    binding.getTypeFactory()) != null) {
                return true;
            }
            return standard.checkOperandTypes(binding, throwOnFailure);
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.of(2);
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            String ours = kind == SqlKind.PLUS
                    ? "'<DATE> + <INTEGER>'\n'<INTEGER> + <DATE>'\n'<INTERVAL> + <INTERVAL>'"
                    : "'<DATE> - <INTEGER>'\n'<DATE> - <DATE>'\n'<TIMESTAMP> - <TIMESTAMP>'\n'<TIME> - <TIME>'\n"
                    + "'<INTERVAL> - <INTERVAL>'";
            return standard.getAllowedSignatures(op, opName) + "\n" + ours;
        }
    }
}
