package io.troupe.operators.expr;

import io.troupe.operators.types.DataType;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A named scalar function: its names (the first is its own, the rest aliases; all lower case, matched
 * case-insensitively by the {@link FunctionRegistry}) and its {@link Signature}s. A call takes the
 * signature that accepts its arguments at the least conversion cost ({@link ParamType}); the
 * arguments are converted to that signature's parameters and its kernel computes the result. A call
 * no signature accepts fails with the function's name and all its forms:
 * {@code no function round(VARCHAR); round takes (DOUBLE), (DOUBLE, INTEGER), ...}.
 *
 * <p>A call of constants is folded into a literal when it is bound, except a call of a volatile
 * function ({@link #asVolatile}, {@code random()}), whose value differs at each row and each call.
 *
 * <p>Immutable and threadsafe.
 */
public final class ScalarFunction {

    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]*");

    private final List<String> names;
    private final List<Signature> signatures;
    private final boolean isVolatile;

    /**
     * @throws IllegalArgumentException when a name is not an identifier, or there are no names or
     *         no signatures
     */
    public ScalarFunction(List<String> names, List<Signature> signatures) {
        this(names, signatures, false);
    }

    private ScalarFunction(List<String> names, List<Signature> signatures, boolean isVolatile) {
        List<String> lower = new ArrayList<>();
        for (String name : names) {
            String n = Objects.requireNonNull(name, "name").toLowerCase(Locale.ROOT);
            if (!NAME.matcher(n).matches()) {
                throw new IllegalArgumentException("ScalarFunction: '" + name + "' is not a function name "
                        + "(letters, digits and _, not first a digit)");
            }
            lower.add(n);
        }
        if (lower.isEmpty() || signatures.isEmpty()) {
            throw new IllegalArgumentException("ScalarFunction: needs a name and a signature, got " + names
                    + " and " + signatures.size() + " signatures");
        }
        this.names = List.copyOf(lower);
        this.signatures = List.copyOf(signatures);
        this.isVolatile = isVolatile;
    }

    public static ScalarFunction of(String name, Signature... signatures) {
        return new ScalarFunction(List.of(name), List.of(signatures));
    }

    /** This function, also known as {@code aliases} ({@code ceil} as {@code ceiling}). */
    public ScalarFunction withAliases(String... aliases) {
        List<String> all = new ArrayList<>(names);
        all.addAll(List.of(aliases));
        return new ScalarFunction(all, signatures, isVolatile);
    }

    /** This function, marked volatile: its calls are never folded, and SQL's planner knows it as non-deterministic. */
    public ScalarFunction asVolatile() {
        return new ScalarFunction(names, signatures, true);
    }

    /** True when a call may give another value each time it runs ({@code random()}). */
    public boolean isVolatile() {
        return isVolatile;
    }

    public String name() {
        return names.get(0);
    }

    /** The name, then the aliases. */
    public List<String> names() {
        return names;
    }

    public List<Signature> signatures() {
        return signatures;
    }

    /** The signature a call takes and the type each of its arguments is converted to. */
    public record Resolution(Signature signature, List<DataType> types) {
    }

    /**
     * The signature that takes arguments of {@code types} at the least cost (the first of equal
     * cost), or null. A null type is an argument of no known type yet (SQL's NULL or {@code ?}),
     * which takes the parameter's own type.
     */
    public Resolution resolve(List<DataType> types) {
        Resolution best = null;
        int bestCost = Integer.MAX_VALUE;
        for (Signature s : signatures) {
            if (!s.accepts(types.size())) {
                continue;
            }
            DataType same = commonTypeOfSame(s, types);
            List<DataType> targets = new ArrayList<>(types.size());
            int cost = 0;
            for (int i = 0; i < types.size() && cost >= 0; i++) {
                ParamType p = s.param(i);
                DataType actual = types.get(i);
                if (p.kind() == ParamType.Kind.SAME) {
                    int c = same == null ? ParamType.NO_MATCH : actual == null ? 0 : ParamType.promotionCost(actual, same);
                    cost = c < 0 ? c : cost + c;
                    targets.add(same);
                } else {
                    int c = p.cost(actual);
                    cost = c < 0 ? c : cost + c;
                    targets.add(p.target(actual));
                }
            }
            if (cost >= 0 && cost < bestCost) {
                best = new Resolution(s, targets);
                bestCost = cost;
            }
        }
        return best;
    }

    /** The common type of the arguments at SAME parameters, or null when they have none (or none is known). */
    private static DataType commonTypeOfSame(Signature s, List<DataType> types) {
        List<DataType> same = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            if (s.param(i).kind() == ParamType.Kind.SAME) {
                same.add(types.get(i));
            }
        }
        return same.isEmpty() ? null : TypeRules.commonType(same);
    }

    /**
     * The type of a call of this function named {@code calledAs}, with arguments of these (unconverted)
     * types and constants.
     *
     * @throws ExpressionTypeException when no signature takes them, or a constant parameter gets an
     *         argument that is not one; the message names the function and, for a mismatch, its forms
     */
    public DataType resultType(String calledAs, List<ArgumentType> args) {
        List<DataType> types = args.stream().map(ArgumentType::type).toList();
        Resolution r = resolution(calledAs, types);
        List<ArgumentType> converted = new ArrayList<>(args.size());
        for (int i = 0; i < args.size(); i++) {
            ArgumentType a = args.get(i);
            requireConstant(calledAs, r.signature(), i, a.constant());
            DataType target = r.types().get(i);
            converted.add(new ArgumentType(target, a.constant(), a.constant() ? convert(a.value(), target) : null));
        }
        return r.signature().result().of(converted);
    }

    /**
     * The expression of a call of this function named {@code calledAs} over bound {@code args}:
     * the chosen signature's kernel over the converted arguments, folded into a literal when every
     * argument is one and the function is not volatile.
     *
     * @param text the call's text, for error messages
     * @throws ExpressionTypeException naming the function and the call's text when no signature fits
     */
    Expression bind(String calledAs, List<Expression> args, String text) {
        Functions.requireTyped(args, text);
        Resolution r;
        List<Expression> converted = new ArrayList<>(args.size());
        List<ArgumentType> types = new ArrayList<>(args.size());
        try {
            r = resolution(calledAs, args.stream().map(Expression::type).toList());
            for (int i = 0; i < args.size(); i++) {
                Expression arg = args.get(i);
                boolean constant = arg instanceof LiteralExpression;
                requireConstant(calledAs, r.signature(), i, constant);
                Expression c = Functions.fold(CastExpression.of(arg, r.types().get(i), text), arg);
                converted.add(c);
                types.add(new ArgumentType(c.type(), constant, c instanceof LiteralExpression lit ? lit.value() : null));
            }
        } catch (ExpressionTypeException e) {
            throw new ExpressionTypeException(e.getMessage() + " in " + text);
        }
        DataType type = r.signature().result().of(types);
        Expression e = r.signature().kernel().bind(converted, type, text);
        assert e.type().equals(type) : name() + r.signature() + " declares " + type + ", its kernel gives " + e.type();
        return isVolatile ? e : Functions.fold(e, converted);
    }

    private Resolution resolution(String calledAs, List<DataType> types) {
        Resolution r = resolve(types);
        if (r == null) {
            throw new ExpressionTypeException(mismatch(calledAs, types.stream().map(DataType::sqlName).toList()));
        }
        return r;
    }

    private static void requireConstant(String calledAs, Signature s, int index, boolean constant) {
        if (s.param(index).constant() && !constant) {
            throw new ExpressionTypeException(calledAs.toLowerCase(Locale.ROOT) + " takes a constant as argument "
                    + (index + 1));
        }
    }

    /** The message for a call named {@code calledAs} with arguments of these types, which no signature takes. */
    public String mismatch(String calledAs, List<String> argumentTypes) {
        String name = calledAs.toLowerCase(Locale.ROOT);
        // A signature of a wide DECIMAL is its DECIMAL signature's to a user: not listed apart.
        return "no function " + name + "(" + String.join(", ", argumentTypes) + "); " + name + " takes "
                + signatures.stream().filter(s -> !s.params().contains(ParamType.WIDE_DECIMAL))
                .map(Signature::toString).collect(Collectors.joining(", "));
    }

    /** A constant's value converted to {@code type}, as the cast of its literal gives it. */
    private static Object convert(Object value, DataType type) {
        if (!(value instanceof Number n) || !type.isNumeric()) {
            return value;
        }
        return switch (type.id()) {
            case INT32 -> n.intValue();
            case INT16 -> n.shortValue();
            case INT8 -> n.byteValue();
            case INT64 -> n.longValue();
            case FLOAT64 -> n.doubleValue();
            case FLOAT32 -> n.floatValue();
            case DECIMAL -> new BigDecimal(n.toString()).setScale(type.scale(), RoundingMode.HALF_UP);
            default -> value;
        };
    }

    @Override
    public String toString() {
        return name() + " " + signatures.stream().map(Signature::toString).collect(Collectors.joining(", "));
    }
}
