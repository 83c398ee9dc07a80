package io.troupe.operators.plan;

import io.troupe.operators.expr.Expression;
import io.troupe.operators.types.Schema;
import io.troupe.operators.window.WindowFrame;
import io.troupe.operators.window.WindowFunction;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import static io.troupe.operators.Arguments.noNulls;
import static io.troupe.operators.Arguments.notNull;

/**
 * A window function over the rows of a window's partition: {@code row_number()}, {@code sum(x)} over a frame,
 * {@code lag(x, 1, 0)}, {@code nth_value(x, 2) IGNORE NULLS}. Only {@code Plan.window} accepts one; anywhere else
 * binding it is a {@link PlanException}. Build one with {@code Expr.rowNumber()}, {@code Expr.lag(...)} ..., or an
 * aggregate ({@code Expr.sum(x)}); give it a frame with {@link Expr#over} and IGNORE NULLS with
 * {@link Expr#ignoreNulls}.
 *
 * @param function     the function
 * @param arguments    the value (none for the ranking functions and count(*)); for ntile the buckets; for lag and
 *                     lead the value, then optionally the offset (an integer literal) and the default; for
 *                     nth_value the value and the row (an integer literal)
 * @param frame        the rows a framed function reads ({@link WindowFunction#framed}); the others ignore it
 * @param ignoresNulls SQL's IGNORE NULLS ({@link WindowFunction#takesNullTreatment}); false is RESPECT NULLS
 */
public record WindowCall(WindowFunction function, List<Expr> arguments, WindowFrame frame, boolean ignoresNulls)
        implements Expr {

    public WindowCall {
        notNull(function, "WindowCall", "function");
        arguments = List.copyOf(noNulls(arguments, "WindowCall", "arguments"));
        notNull(frame, "WindowCall", "frame");
    }

    /**
     * {@code e}, a window function or an aggregate, possibly named, changed by {@code change}, keeping its name.
     *
     * @param where the API method, named in the error
     * @throws IllegalArgumentException for any other expression, or count(DISTINCT)
     */
    static Expr change(Expr e, String where, UnaryOperator<WindowCall> change) {
        Expr inner = e instanceof Alias a ? a.expr() : e;
        WindowCall call = of(inner);
        if (call == null) {
            throw new IllegalArgumentException(where + ": " + inner + " is not an aggregate or a window function");
        }
        WindowCall changed = change.apply(call);
        return e instanceof Alias a ? changed.as(a.name()) : changed;
    }

    WindowCall withFrame(WindowFrame newFrame) {
        return new WindowCall(function, arguments, newFrame, ignoresNulls);
    }

    WindowCall ignoringNulls() {
        return new WindowCall(function, arguments, frame, true);
    }

    /**
     * {@code e} as a window function over the default frame: itself if it is one, an aggregate as the window
     * function of the same name; null for any other expression.
     *
     * @throws IllegalArgumentException for count(DISTINCT), which windows do not compute
     */
    static WindowCall of(Expr e) {
        if (e instanceof WindowCall call) {
            return call;
        }
        if (e instanceof AggregateCall aggregate) {
            if (aggregate.distinct()) {
                throw new IllegalArgumentException(aggregate + " over a window is not supported: "
                        + "windows compute no DISTINCT aggregates");
            }
            return new WindowCall(WindowFunction.of(aggregate.function()), aggregate.children(), WindowFrame.DEFAULT,
                    false);
        }
        return null;
    }

    @Override
    public Expression bind(Schema input, String where) {
        throw new PlanException(where, "window function " + this
                + " is not allowed here; window functions belong in window()");
    }

    @Override
    public List<Expr> children() {
        return arguments;
    }

    @Override
    public String toString() {
        String args = function == WindowFunction.COUNT_STAR ? "*"
                : arguments.stream().map(Expr::toString).collect(Collectors.joining(", "));
        String call = function.sqlName() + "(" + args + ")" + (ignoresNulls ? " IGNORE NULLS" : "");
        return function.framed() && !frame.equals(WindowFrame.DEFAULT) ? call + " " + frame : call;
    }
}
