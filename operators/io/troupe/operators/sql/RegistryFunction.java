package io.troupe.operators.sql;

import io.troupe.operators.expr.ArgumentType;
import io.troupe.operators.expr.ExpressionTypeException;
import io.troupe.operators.expr.ScalarFunction;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidatorException;
import org.apache.calcite.util.NlsString;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A function of Troupe's {@link io.troupe.operators.expr.FunctionRegistry} as Calcite's validator sees
 * it, generated from its signatures: the operands are checked by the registry's resolution (a call no
 * signature takes fails with the registry's message, at the call's position), the result type is the
 * registry's, and a NULL or {@code ?} operand takes the type of the parameter it meets. So the
 * validator's types are the types the plan computes. One per name, aliases included
 * ({@link RegistryOperatorTable}).
 *
 * <p>Immutable and threadsafe.
 */
final class RegistryFunction extends SqlFunction {

    private final ScalarFunction function;

    RegistryFunction(String name, ScalarFunction function) {
        super(name.toUpperCase(Locale.ROOT), SqlKind.OTHER_FUNCTION,
                binding -> SqlTypes.toSql(troupeType(function, binding), anyNullable(binding),
                        binding.getTypeFactory()),
                (binding, returnType, operandTypes) -> inferOperandTypes(function, binding, operandTypes),
                new Operands(function), SqlFunctionCategory.SYSTEM);
        this.function = function;
    }

    /** The registry's function this operator calls. */
    ScalarFunction function() {
        return function;
    }

    /**
     * False for a volatile function ({@code random()}), so that Calcite's rules that ask keep its calls as written.
     * Calcite 1.42's merging of projections and pushing of filters below them do not ask (CALCITE-7551): they
     * copy a subquery's call into each place that reads it, which {@link VolatileCalls} refuses.
     */
    @Override
    public boolean isDeterministic() {
        return !function.isVolatile();
    }

    /**
     * The registry's type for a call of {@code function} with these operands (the validator's, or
     * the operands of a call Calcite typed itself).
     *
     * @throws ExpressionTypeException naming the function and its signatures when none takes the
     *         operands, or an operand's type is none of Troupe's
     */
    static DataType troupeType(ScalarFunction function, SqlOperatorBinding binding) {
        String name = binding.getOperator().getName();
        List<ArgumentType> args = new ArrayList<>();
        List<String> names = new ArrayList<>();
        boolean mapped = true;
        for (int i = 0; i < binding.getOperandCount(); i++) {
            RelDataType sql = binding.getOperandType(i);
            DataType type = troupeOrNull(sql);
            mapped &= type != null;
            names.add(type == null ? sql.getSqlTypeName().getName() : type.sqlName());
            if (type != null) {
                args.add(argument(binding, i, type));
            }
        }
        if (!mapped) {
            throw new ExpressionTypeException(function.mismatch(name, names));
        }
        return function.resultType(name, args);
    }

    /**
     * Operand {@code i} as a signature sees it: a constant with its value in Troupe's Java form (null for NULL), or
     * not a constant. Only exact numbers, text and BOOLEANs are read, the values signatures read: not a DOUBLE, as
     * Calcite has no BigDecimal for {@code CAST('NaN' AS DOUBLE)} and the infinities, nor a time. Calcite hands over a cast literal uncast ({@code CAST('-1.75' AS DECIMAL(3,2))}
     * gives the text '-1.75', {@code CAST(12 AS VARCHAR)} the number 12): a number is read from its text, and a
     * value of another type than the operand's is left to the cast when the query runs, the operand then no constant.
     */
    private static ArgumentType argument(SqlOperatorBinding binding, int i, DataType type) {
        if (!binding.isOperandLiteral(i, true)) {
            return ArgumentType.of(type);
        }
        boolean read = type.id() == TypeId.VARCHAR || type.id() == TypeId.BOOLEAN
                || type.isNumeric() && type.id() != TypeId.FLOAT64 && type.id() != TypeId.FLOAT32;
        if (!read || binding.isOperandNull(i, true)) {
            return new ArgumentType(type, true, null);
        }
        Object value = switch (type.id()) {
            case INT32, INT64, DECIMAL, INT16, INT8 -> {
                BigDecimal v = number(binding.getOperandLiteralValue(i, Object.class));
                yield v == null ? null : switch (type.id()) {
                    case INT32 -> (Object) v.intValue();
                    case INT16 -> (Object) v.shortValue();
                    case INT8 -> (Object) v.byteValue();
                    case INT64 -> (Object) v.longValue();
                    default -> v;
                };
            }
            case VARCHAR -> binding.getOperandLiteralValue(i, Object.class) instanceof NlsString text
                    ? text.getValue() : null;
            default -> binding.getOperandLiteralValue(i, Object.class) instanceof Boolean b ? b : null;
        };
        return value != null ? new ArgumentType(type, true, value) : ArgumentType.of(type);
    }

    /** A number literal's value, or the number a text literal holds; null for other text. */
    private static BigDecimal number(Object literal) {
        if (literal instanceof BigDecimal v) {
            return v;
        }
        if (literal instanceof NlsString text) {
            try {
                return new BigDecimal(text.getValue().strip());
            } catch (NumberFormatException notANumber) {
                return null;
            }
        }
        return null;
    }

    private static DataType troupeOrNull(RelDataType type) {
        try {
            return SqlTypes.toTroupe(type);
        } catch (UnsupportedSqlException notTroupes) {
            return null;
        }
    }

    private static boolean anyNullable(SqlOperatorBinding binding) {
        for (int i = 0; i < binding.getOperandCount(); i++) {
            if (binding.getOperandType(i).isNullable()) {
                return true;
            }
        }
        return false;
    }

    /** A NULL or {@code ?} operand takes the type of its parameter in the signature that the other operands choose. */
    static void inferOperandTypes(ScalarFunction function, SqlCallBinding binding, RelDataType[] operandTypes) {
        List<SqlNode> operands = binding.operands();
        List<DataType> known = new ArrayList<>();
        for (int i = 0; i < operands.size(); i++) {
            SqlNode operand = operands.get(i);
            boolean unknown = SqlUtil.isNullLiteral(operand, false) || operand instanceof SqlDynamicParam;
            operandTypes[i] = unknown ? binding.getValidator().getUnknownType() : SqlTypeUtil.deriveType(binding, operand);
            known.add(unknown ? null : troupeOrNull(operandTypes[i]));
        }
        ScalarFunction.Resolution r = function.resolve(known);
        for (int i = 0; r != null && i < operands.size(); i++) {
            if (known.get(i) == null && operandTypes[i].equals(binding.getValidator().getUnknownType())) {
                operandTypes[i] = SqlTypes.toSql(r.types().get(i), true, binding.getTypeFactory());
            }
        }
    }

    /** The operands' check: the registry's resolution, with its message at the call's position. */
    record Operands(ScalarFunction function) implements SqlOperandTypeChecker {

        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            try {
                troupeType(function, binding);
                return true;
            } catch (ExpressionTypeException e) {
                if (!throwOnFailure) {
                    return false;
                }
                SqlParserPos pos = binding.getCall().getParserPosition();
                throw new CalciteContextException(e.getMessage(), new SqlValidatorException(e.getMessage(), null),
                        pos.getLineNum(), pos.getColumnNum(), pos.getEndLineNum(), pos.getEndColumnNum());
            }
        }

        /** Any count: a wrong one fails {@link #checkOperandTypes} with the function's signatures. */
        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.any();
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return function.signatures().stream().map(s -> opName + s).collect(Collectors.joining("\n"));
        }
    }
}
