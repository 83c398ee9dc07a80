package io.troupe.operators.expr;

import io.troupe.operators.types.DataType;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One form of a {@link ScalarFunction}: its parameters, its result type and the kernel that
 * computes it. With {@code variadic} the last parameter repeats, so a call takes
 * {@code params.size()} arguments or more ({@code greatest(T, ...)}).
 *
 * <p>The result type is a function of the arguments' types (after conversion to the parameters)
 * and constant values, so that SQL's validator ({@code RegistryFunction}) and the plan's binding
 * derive it alike; the kernel gets it with the converted arguments and must produce it.
 *
 * <p>Immutable and threadsafe.
 */
public record Signature(List<ParamType> params, boolean variadic, ResultType result, Kernel kernel) {

    /** The result type of a call, from its arguments as converted to the signature's parameters. */
    @FunctionalInterface
    public interface ResultType {

        DataType of(List<ArgumentType> args);

        /** Always {@code type}. */
        static ResultType fixed(DataType type) {
            Objects.requireNonNull(type, "type");
            return args -> type;
        }

        /** The type of argument {@code index} (for SAME parameters: their common type). */
        static ResultType argument(int index) {
            return args -> args.get(index).type();
        }
    }

    /**
     * Builds a call's vectorised expression. {@code args} are bound and converted to the
     * parameters' types (a constant parameter's argument is a {@link LiteralExpression});
     * {@code type} is the signature's {@link ResultType} for them; {@code text} names the call in
     * errors. The registry folds the result when every argument is a constant.
     */
    @FunctionalInterface
    public interface Kernel {
        Expression bind(List<Expression> args, DataType type, String text);
    }

    public Signature {
        params = List.copyOf(params);
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(kernel, "kernel");
        if (variadic && params.isEmpty()) {
            throw new IllegalArgumentException("Signature: a variadic signature needs a parameter to repeat");
        }
    }

    /** A signature of exactly these parameters. */
    public static Signature of(ResultType result, Kernel kernel, ParamType... params) {
        return new Signature(List.of(params), false, result, kernel);
    }

    /** A signature whose last parameter repeats: at least {@code params.length} arguments. */
    public static Signature variadic(ResultType result, Kernel kernel, ParamType... params) {
        return new Signature(List.of(params), true, result, kernel);
    }

    boolean accepts(int arguments) {
        return variadic ? arguments >= params.size() : arguments == params.size();
    }

    /** The parameter that argument {@code index} of an accepted call goes to. */
    ParamType param(int index) {
        return params.get(Math.min(index, params.size() - 1));
    }

    /** As errors list it: {@code (DOUBLE, INTEGER)}, {@code (T, ...)}. */
    @Override
    public String toString() {
        String list = params.stream().map(ParamType::toString).collect(Collectors.joining(", "));
        return "(" + list + (variadic ? ", ..." : "") + ")";
    }
}
