package io.troupe.operators.udf;

import io.troupe.operators.expr.ParamType;
import io.troupe.operators.expr.ScalarFunction;
import io.troupe.operators.expr.Signature;
import io.troupe.operators.types.DataType;

import java.util.List;
import java.util.stream.Collectors;

/**
 * An aggregate function of one's own, registered: its name, the types of its arguments, result and state fields,
 * and the user's {@link UserAggregate}. {@link #signature} gives its arguments' resolution as a scalar function's,
 * so that a call is checked and converted, and its errors worded, as a function's are. Immutable and threadsafe.
 *
 * @param name      lower case
 * @param arguments the parameters' types
 * @param result    the result's type
 * @param state     the state's fields' types
 * @param function  the user's aggregate
 */
public record OwnAggregate(String name, List<DataType> arguments, DataType result, List<DataType> state,
                           UserAggregate function) {

    public OwnAggregate {
        arguments = List.copyOf(arguments);
        state = List.copyOf(state);
    }

    /**
     * The aggregate's arguments as a scalar function of one signature, for their resolution ({@link
     * ScalarFunction#resolve}, {@link ScalarFunction#mismatch}); it computes nothing.
     */
    public ScalarFunction signature() {
        return ScalarFunction.of(name, Signature.of(Signature.ResultType.fixed(result), (args, type, text) -> {
            throw new IllegalStateException(text + " is an aggregate");
        }, arguments.stream().map(ParamType::of).toArray(ParamType[]::new)));
    }

    /** As errors name it: {@code sum_sq(DOUBLE) -> DOUBLE}. */
    @Override
    public String toString() {
        return name + arguments.stream().map(DataType::sqlName).collect(Collectors.joining(", ", "(", ")")) + " -> "
                + result.sqlName();
    }
}
