package io.troupe.operators.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlBasicAggFunction;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.util.Optionality;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The aggregate functions SQL reaches beyond Calcite's standard table: PostgreSQL's string_agg, bool_and and
 * bool_or (from Calcite's library), and of our own making median and approx_quantile (DuckDB's), corr and the
 * regr_ functions Calcite lacks, and three that replace the standard ones: percentile_cont typed DOUBLE (as
 * PostgreSQL types it; Calcite gives the ORDER BY key's type), percentile_disc over any type that sorts (Calcite's
 * takes numbers only), and mode in PostgreSQL's form {@code mode() WITHIN GROUP (ORDER BY x)} besides DuckDB's
 * {@code mode(x)}. {@link AggregateLowering} lowers their calls.
 *
 * <p>Immutable and threadsafe.
 */
final class AggregateOperators {

    private static final SqlReturnTypeInference NULLABLE_DOUBLE = ReturnTypes.DOUBLE
            .andThen(SqlTypeTransforms.FORCE_NULLABLE);

    /** DuckDB's: DOUBLE for integers and doubles, a DECIMAL's or VARCHAR's own type. */
    private static final SqlReturnTypeInference MEDIAN_TYPE = binding -> {
        RelDataType argument = binding.getOperandType(0);
        RelDataType type = switch (argument.getSqlTypeName()) {
            case DECIMAL, CHAR, VARCHAR -> argument;
            default -> binding.getTypeFactory().createSqlType(SqlTypeName.DOUBLE);
        };
        return binding.getTypeFactory().createTypeWithNullability(type, true);
    };

    static final SqlAggFunction MEDIAN = SqlBasicAggFunction.create("MEDIAN", SqlKind.OTHER_FUNCTION, MEDIAN_TYPE,
            OperandTypes.ANY).withFunctionType(SqlFunctionCategory.SYSTEM);

    static final SqlAggFunction APPROX_QUANTILE = SqlBasicAggFunction.create("APPROX_QUANTILE",
                    SqlKind.OTHER_FUNCTION, ReturnTypes.ARG0_FORCE_NULLABLE,
                    OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.NUMERIC))
            .withFunctionType(SqlFunctionCategory.SYSTEM);

    static final SqlAggFunction PERCENTILE_CONT = SqlBasicAggFunction.create(SqlKind.PERCENTILE_CONT, NULLABLE_DOUBLE,
                    OperandTypes.UNIT_INTERVAL_NUMERIC_LITERAL)
            .withFunctionType(SqlFunctionCategory.SYSTEM)
            .withGroupOrder(Optionality.MANDATORY)
            .withPercentile(true)
            .withAllowsFraming(false);

    /**
     * percentile_disc(fraction, x) WITHIN GROUP (ORDER BY x), as {@link #rewrite} writes percentile_disc(fraction)
     * WITHIN GROUP (ORDER BY x): typed by x, of any type that sorts. Calcite's own takes numbers only, and its kind
     * makes Calcite type it by the WITHIN GROUP key, which FILTER's typing cannot see.
     */
    static final SqlAggFunction PERCENTILE_DISC = SqlBasicAggFunction.create("PERCENTILE_DISC",
                    SqlKind.OTHER_FUNCTION, AggregateOperators::lastOperandType,
                    new FractionAndValue())
            .withFunctionType(SqlFunctionCategory.SYSTEM)
            .withGroupOrder(Optionality.MANDATORY)
            .withAllowsFraming(false);

    /** The type of the value, the last operand (a call without WITHIN GROUP has none but the fraction, and fails). */
    private static RelDataType lastOperandType(SqlOperatorBinding binding) {
        return binding.getTypeFactory().createTypeWithNullability(
                binding.getOperandType(binding.getOperandCount() - 1), true);
    }

    /** {@code mode(x)}, and {@code mode() WITHIN GROUP (ORDER BY x)} once {@link #rewrite} gave it its x. */
    static final SqlAggFunction MODE = SqlBasicAggFunction.create("MODE", SqlKind.MODE,
                    ReturnTypes.ARG0_NULLABLE_IF_EMPTY, OperandTypes.ANY)
            .withGroupOrder(Optionality.OPTIONAL)
            .withFunctionType(SqlFunctionCategory.SYSTEM);

    /** The aggregates of pairs (y, x) that Calcite lacks; it has covar_pop, covar_samp, regr_count, regr_sxx, regr_syy. */
    static final List<SqlAggFunction> PAIRS = List.of(pair("CORR"), pair("REGR_SLOPE"), pair("REGR_INTERCEPT"),
            pair("REGR_R2"), pair("REGR_AVGX"), pair("REGR_AVGY"), pair("REGR_SXY"));

    /**
     * Names of these aggregates that Calcite's parser reserves (SQL's keywords) and reads as no function name: a call
     * of one is quoted before parsing ({@link StatementText}), {@code "CORR"(y, x)}, which the parser reads as a call.
     */
    static final Set<String> RESERVED_NAMES = Set.of("CORR", "REGR_SLOPE", "REGR_INTERCEPT", "REGR_R2",
            "REGR_AVGX", "REGR_AVGY", "REGR_SXY");

    /** The standard operators these replace. */
    private static final Set<SqlOperator> REPLACED = Set.of(SqlStdOperatorTable.PERCENTILE_CONT,
            SqlStdOperatorTable.PERCENTILE_DISC, SqlStdOperatorTable.MODE);

    private AggregateOperators() {
    }

    private static SqlAggFunction pair(String name) {
        return SqlBasicAggFunction.create(name, SqlKind.OTHER_FUNCTION, NULLABLE_DOUBLE, OperandTypes.NUMERIC_NUMERIC)
                .withFunctionType(SqlFunctionCategory.SYSTEM);
    }

    /** These aggregates, then {@code standard}'s operators but those replaced here. */
    static SqlOperatorTable with(SqlOperatorTable standard) {
        List<SqlOperator> mine = new ArrayList<>(List.of(MEDIAN, APPROX_QUANTILE, PERCENTILE_CONT, PERCENTILE_DISC,
                MODE, SqlLibraryOperators.STRING_AGG, SqlLibraryOperators.BOOL_AND, SqlLibraryOperators.BOOL_OR));
        mine.addAll(PAIRS);
        SqlOperatorTable rest = new SqlOperatorTable() {
            @Override
            public void lookupOperatorOverloads(SqlIdentifier name, SqlFunctionCategory category, SqlSyntax syntax,
                                                List<SqlOperator> operators, SqlNameMatcher matcher) {
                List<SqlOperator> found = new ArrayList<>();
                standard.lookupOperatorOverloads(name, category, syntax, found, matcher);
                found.removeAll(REPLACED);
                operators.addAll(found);
            }

            @Override
            public List<SqlOperator> getOperatorList() {
                List<SqlOperator> all = new ArrayList<>(standard.getOperatorList());
                all.removeAll(REPLACED);
                return all;
            }
        };
        return SqlOperatorTables.chain(SqlOperatorTables.of(mine), rest);
    }

    /**
     * The parsed statement made ready for these aggregates: the percentiles' calls with these operators (the parser
     * puts the standard ones in), {@code mode() WITHIN GROUP (ORDER BY x)} written {@code mode(x) WITHIN GROUP (ORDER
     * BY x)} so that the validator can type it (a WITHIN GROUP key types only the percentiles), and string_agg's
     * separator NULL typed VARCHAR (PostgreSQL joins with nothing then).
     *
     * @throws UnsupportedSqlException for a percentile of an ARRAY of fractions, PostgreSQL's form that returns an
     *                                 array: Troupe has no ARRAY type
     */
    static SqlNode rewrite(SqlNode parsed) {
        return parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                if (visited instanceof SqlCall c && (c.getOperator() == SqlStdOperatorTable.PERCENTILE_CONT
                        || c.getOperator() == SqlStdOperatorTable.PERCENTILE_DISC)) {
                    SqlAggFunction mine = c.getOperator() == SqlStdOperatorTable.PERCENTILE_CONT ? PERCENTILE_CONT
                            : PERCENTILE_DISC;
                    return new SqlBasicCall(mine, c.getOperandList(), c.getParserPosition(),
                            c.getFunctionQuantifier());
                }
                if (visited instanceof SqlCall c && c.getOperator().getName().equalsIgnoreCase("STRING_AGG")
                        && c.operandCount() > 1 && SqlUtil.isNullLiteral(c.operand(1), false)) {
                    SqlNode typed = SqlStdOperatorTable.CAST.createCall(c.operand(1).getParserPosition(), c.operand(1),
                            new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, SqlParserPos.ZERO),
                                    SqlParserPos.ZERO));
                    c.setOperand(1, typed);
                    return c;
                }
                if (!(visited instanceof SqlCall within) || within.getKind() != SqlKind.WITHIN_GROUP) {
                    return visited;
                }
                SqlCall aggregate = within.operand(0);
                String name = aggregate.getOperator().getName();
                if ((name.equalsIgnoreCase("PERCENTILE_CONT") || name.equalsIgnoreCase("PERCENTILE_DISC"))
                        && aggregate.operandCount() == 1
                        && aggregate.operand(0).getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR) {
                    throw new UnsupportedSqlException(name.toLowerCase() + " of an ARRAY of fractions (Troupe has no "
                            + "ARRAY type: take each fraction's percentile apart)", aggregate.operand(0)
                            .getParserPosition());
                }
                SqlNodeList keys = within.operand(1);
                boolean disc = aggregate.getOperator() == PERCENTILE_DISC && aggregate.operandCount() == 1;
                boolean mode = name.equalsIgnoreCase("MODE") && aggregate.operandCount() == 0;
                if (!disc && !mode || keys.isEmpty()) {
                    return visited;
                }
                SqlNode key = keys.get(0);
                while (key.getKind() == SqlKind.DESCENDING || key.getKind() == SqlKind.NULLS_FIRST
                        || key.getKind() == SqlKind.NULLS_LAST) {
                    key = ((SqlCall) key).operand(0);
                }
                List<SqlNode> operands = new ArrayList<>(aggregate.getOperandList());
                operands.add(key);
                SqlCall withValue = new SqlBasicCall(aggregate.getOperator(), operands, aggregate.getParserPosition(),
                        aggregate.getFunctionQuantifier());
                return within.getOperator().createCall(within.getParserPosition(), withValue, keys);
            }
        });
    }

    /** percentile_disc's operands after {@link #rewrite}: a fraction literal from 0 to 1, then the value. */
    private static final class FractionAndValue implements SqlOperandTypeChecker {

        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            return OperandTypes.UNIT_INTERVAL_NUMERIC_LITERAL.checkSingleOperandType(binding, binding.operand(0), 0,
                    throwOnFailure);
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.between(1, 2);
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return opName + "(<FRACTION>) WITHIN GROUP (ORDER BY <VALUE>)";
        }
    }
}
