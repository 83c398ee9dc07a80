package io.troupe.operators.sql;

import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.types.DataType;

import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlTableFunction;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlValidatorException;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The set-returning {@code generate_series} (PostgreSQL's and DuckDB's: the stop included) and {@code range}
 * (DuckDB's: the stop excluded) in FROM, as Calcite's validator sees them and as {@link RelLowering} lowers them
 * ({@link Plan#series}, {@link Plan#range}): {@code (start, stop [, step])} of integers, DuckDB's {@code (stop)} from
 * 0, and {@code (start, stop, interval)} of DATEs or TIMESTAMPs by an interval of months or of days and time. The
 * arguments are constants (literals, {@code ?}, arithmetic of them); the column is INTEGER when every integer
 * argument is, as in PostgreSQL (DuckDB's is always BIGINT), else BIGINT, and TIMESTAMP over dates and
 * timestamps (PostgreSQL's over dates is TIMESTAMP WITH TIME ZONE). The column is named after the function, or after
 * the table's alias when it has no column alias ({@code generate_series(1, 3) AS t} names it {@code t}, as both do).
 *
 * <p>Calcite's parser reads {@code range} as a keyword (of window frames): {@link StatementText} quotes it where it
 * is called. Stateless; threadsafe.
 */
final class SeriesFunctions {

    /** The two functions, for the validator's operator table. */
    static final SqlOperatorTable OPERATORS = SqlOperatorTables.of(new Series("generate_series", true),
            new Series("range", false));

    private SeriesFunctions() {
    }

    /**
     * {@code parsed} with a column alias given to each series in FROM that has a table alias and no column alias: the
     * table's alias, as PostgreSQL and DuckDB name the one column of a function that returns a plain value.
     */
    static SqlNode nameColumns(SqlNode parsed) {
        parsed.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select && select.getFrom() != null) {
                    select.setFrom(named(select.getFrom()));
                } else if (call instanceof SqlJoin join) {
                    join.setLeft(named(join.getLeft()));
                    join.setRight(named(join.getRight()));
                }
                return super.visit(call);
            }
        });
        return parsed;
    }

    private static SqlNode named(SqlNode from) {
        if (from instanceof SqlBasicCall as && as.getKind() == SqlKind.AS && as.operandCount() == 2
                && as.operand(0) instanceof SqlCall table && table.getKind() == SqlKind.COLLECTION_TABLE
                && table.operand(0) instanceof SqlCall function && isSeries(function)) {
            SqlIdentifier alias = as.operand(1);
            return SqlStdOperatorTable.AS.createCall(as.getParserPosition(), table, alias,
                    new SqlIdentifier(alias.getSimple(), alias.getParserPosition()));
        }
        return from;
    }

    /** Whether {@code table} (a {@code TABLE(f(...))} in FROM) calls generate_series or range. */
    static boolean callsSeries(SqlCall table) {
        return table.operandCount() == 1 && table.operand(0) instanceof SqlCall function && isSeries(function);
    }

    private static boolean isSeries(SqlCall function) {
        String name = function.getOperator().getName().toLowerCase(Locale.ROOT);
        return function.getOperator() instanceof Series || name.equals("generate_series") || name.equals("range");
    }

    /**
     * The plan of a series in FROM: its column named as the scan's row type names it, its arguments lowered by
     * {@code lower} (constants).
     *
     * @throws UnsupportedSqlException for a table function other than these, or an argument that is not constant
     */
    static Plan lower(TableFunctionScan scan, Function<RexNode, Expr> lower) {
        if (!(scan.getCall() instanceof RexCall call) || !(call.getOperator() instanceof Series series)) {
            throw new UnsupportedSqlException("table function " + scan.getCall());
        }
        List<RexNode> args = new ArrayList<>(call.getOperands());
        for (RexNode arg : args) {
            if (!RexUtil.isConstant(arg) && !(arg instanceof RexDynamicParam)) {
                throw new UnsupportedSqlException(series.getName() + " with an argument that is not a constant ("
                        + arg + ")");
            }
        }
        String column = scan.getRowType().getFieldNames().get(0);
        DataType type = SqlTypes.toTroupe(scan.getRowType().getFieldList().get(0).getType());
        if (args.size() == 1) {
            args.add(0, scan.getCluster().getRexBuilder().makeExactLiteral(BigDecimal.ZERO));
        }
        Expr start = argument(args.get(0), type, lower);
        Expr stop = argument(args.get(1), type, lower);
        if (args.size() == 2) {
            return series.inclusive ? Plan.series(column, start, stop) : Plan.range(column, start, stop);
        }
        // An interval step of a time series, or an integer one of the column's type.
        Expr by = argument(args.get(2), type.equals(DataType.TIMESTAMP) ? DataType.INTERVAL : type, lower);
        return series.inclusive ? Plan.series(column, start, stop, by) : Plan.range(column, start, stop, by);
    }

    /** An argument lowered, a NULL typed as the column (a NULL argument makes an empty series). */
    private static Expr argument(RexNode arg, DataType type, Function<RexNode, Expr> lower) {
        if (arg instanceof RexLiteral literal && literal.isNull()) {
            return Expr.nullOf(type);
        }
        return lower.apply(arg);
    }

    /** The operator of one of the two functions; {@code inclusive}: generate_series. Immutable and threadsafe. */
    private static final class Series extends SqlFunction implements SqlTableFunction {

        final boolean inclusive;

        Series(String name, boolean inclusive) {
            super(name.toUpperCase(Locale.ROOT), SqlKind.OTHER_FUNCTION, ReturnTypes.CURSOR,
                    (binding, returnType, operandTypes) -> inferOperandTypes(binding, operandTypes),
                    new Operands(), SqlFunctionCategory.USER_DEFINED_TABLE_FUNCTION);
            this.inclusive = inclusive;
        }

        @Override
        public SqlReturnTypeInference getRowTypeInference() {
            return this::rowType;
        }

        /** One column, named after the function: INTEGER, BIGINT or TIMESTAMP. */
        private RelDataType rowType(SqlOperatorBinding binding) {
            RelDataTypeFactory types = binding.getTypeFactory();
            RelDataType column = types.createSqlType(SqlTypeName.INTEGER);
            for (int i = 0; i < binding.getOperandCount(); i++) {
                RelDataType t = binding.getOperandType(i);
                if (SqlTypeUtil.isDatetime(t) || SqlTypeUtil.isInterval(t)) {
                    column = types.createSqlType(SqlTypeName.TIMESTAMP, TroupeTypeSystem.MICROSECONDS);
                    break;
                }
                if (t.getSqlTypeName() == SqlTypeName.BIGINT || t.getSqlTypeName() == SqlTypeName.NULL) {
                    column = types.createSqlType(SqlTypeName.BIGINT);
                }
            }
            return types.builder().add(getName().toLowerCase(Locale.ROOT), column).build();
        }

        /** A NULL or {@code ?} start or stop is a TIMESTAMP beside an interval step, else a BIGINT. */
        private static void inferOperandTypes(SqlCallBinding binding, RelDataType[] operandTypes) {
            List<SqlNode> operands = binding.operands();
            boolean time = operands.size() == 3 && isInterval(SqlTypeUtil.deriveType(binding, operands.get(2)));
            RelDataTypeFactory types = binding.getTypeFactory();
            for (int i = 0; i < operands.size(); i++) {
                SqlNode operand = operands.get(i);
                boolean unknown = SqlUtil.isNullLiteral(operand, false) || operand instanceof SqlDynamicParam;
                operandTypes[i] = !unknown ? SqlTypeUtil.deriveType(binding, operand)
                        : types.createSqlType(time ? SqlTypeName.TIMESTAMP : SqlTypeName.BIGINT);
            }
        }
    }

    private static boolean isInterval(RelDataType type) {
        return type.getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME || type.getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH;
    }

    /** The operands' check: integers, or dates and timestamps with an interval; else an error naming the forms. */
    private static final class Operands implements SqlOperandTypeChecker {

        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            List<RelDataType> types = new ArrayList<>();
            for (int i = 0; i < binding.getOperandCount(); i++) {
                types.add(binding.getOperandType(i));
            }
            if (accepts(types)) {
                return true;
            }
            if (!throwOnFailure) {
                return false;
            }
            String name = binding.getOperator().getName().toLowerCase(Locale.ROOT);
            List<String> names = types.stream().map(t -> t.getSqlTypeName().getName()).toList();
            String message = "no function " + name + "(" + String.join(", ", names) + "); " + name + " takes "
                    + getAllowedSignatures(binding.getOperator(), name);
            SqlParserPos pos = binding.getCall().getParserPosition();
            throw new CalciteContextException(message, new SqlValidatorException(message, null),
                    pos.getLineNum(), pos.getColumnNum(), pos.getEndLineNum(), pos.getEndColumnNum());
        }

        private static boolean accepts(List<RelDataType> types) {
            if (types.isEmpty() || types.size() > 3) {
                return false;
            }
            if (types.size() == 3 && isInterval(types.get(2))) {
                return time(types.get(0)) && time(types.get(1));
            }
            return types.stream().allMatch(Operands::integer);
        }

        private static boolean integer(RelDataType t) {
            return SqlTypeUtil.isIntType(t) || t.getSqlTypeName() == SqlTypeName.NULL;
        }

        private static boolean time(RelDataType t) {
            return t.getSqlTypeName() == SqlTypeName.DATE || t.getSqlTypeName() == SqlTypeName.TIMESTAMP
                    || t.getSqlTypeName() == SqlTypeName.NULL;
        }

        /** Any count: a wrong one fails {@link #checkOperandTypes} with the function's forms. */
        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.any();
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return "(BIGINT), (BIGINT, BIGINT), (BIGINT, BIGINT, BIGINT) and (TIMESTAMP, TIMESTAMP, INTERVAL)";
        }
    }
}
