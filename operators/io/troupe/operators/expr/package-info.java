/**
 * Scalar expressions: the bound, typed, vectorised form of a plan's {@code Expr}. {@link
 * io.troupe.operators.expr.Expression} is the kernel interface (one column out of a batch, at its
 * live rows; {@link io.troupe.operators.expr.Kernels} has the loop shape and the NULL rules);
 * {@link io.troupe.operators.expr.Functions} binds the operators and special forms of
 * {@link io.troupe.operators.expr.Function} (arithmetic, comparison, CASE, CAST ...).
 *
 * <h2>Named functions</h2>
 * Every named scalar function ({@code sqrt}, {@code round}, {@code greatest} ...) is a {@link
 * io.troupe.operators.expr.ScalarFunction} in the {@link io.troupe.operators.expr.FunctionRegistry}:
 * names (an alias is a name), {@link io.troupe.operators.expr.Signature}s (parameters as {@link
 * io.troupe.operators.expr.ParamType}s, a result type, a kernel). One registry serves every way in:
 * <ul>
 *   <li>the Java plan API: {@code Expr.call("sqrt", col("x"))}, a {@code FunctionCall} that binds
 *       through {@link io.troupe.operators.expr.FunctionRegistry#bind};</li>
 *   <li>plan text: the parser reads any {@code name(args)} it has no rule for as that call;</li>
 *   <li>the wire: a {@code FunctionCall} travels by name, and each node binds it in its own
 *       registry;</li>
 *   <li>SQL: {@code RegistryOperatorTable} puts a Calcite operator generated from the signatures
 *       ({@code RegistryFunction}) over Calcite's own for every name of the registry, so the
 *       validator checks and types the call as the registry does, and {@code RexLowering} lowers
 *       any call whose name the registry has to {@code Expr.call}. CEIL and FLOOR keep Calcite's
 *       operators (its parser binds them and they keep themselves); the lowering casts them to
 *       Calcite's type where it differs.</li>
 * </ul>
 * A Troupe's functions of one's own ({@code io.troupe.operators.udf}) are {@code ScalarFunction}s too, in a
 * registry of that Troupe's over the built-in one ({@link io.troupe.operators.expr.FunctionRegistry#with}); a plan
 * calls them by name as well, bound to them when the Troupe takes it.
 *
 * <p>A call takes the signature whose argument conversions cost least ({@link
 * io.troupe.operators.expr.ParamType}), its arguments are cast to that signature's parameters, the
 * kernel computes it, and a call of constants is folded. A call no signature takes fails with
 * {@code no function round(VARCHAR); round takes (DOUBLE), (DOUBLE, INTEGER), ...}; an unknown
 * name with the nearest known ones.
 *
 * <h2>Adding a function</h2>
 * <ol>
 *   <li><b>Kernel.</b> A per-value DOUBLE function needs no class: {@link
 *       io.troupe.operators.expr.DoubleUnary#of} and {@link io.troupe.operators.expr.DoubleBinary#of}
 *       take a method ({@code NumericFunctions::sqrt}); so do {@link
 *       io.troupe.operators.expr.ExactUnary#of} and {@link io.troupe.operators.expr.ExactBinary#of} for
 *       integers computed in long arithmetic (an overflow of the result type is checked there), and
 *       {@link io.troupe.operators.expr.DoubleProperty#of} for a BOOLEAN test of a DOUBLE. Anything else
 *       is a small final class
 *       implementing {@code Expression} (see {@code Sign}, {@code DecimalFloorCeil}, {@code
 *       Extremum}, {@code Round}) with a static {@code Signature.Kernel}; a string function is a
 *       row function over UTF-8 bytes in place given to {@link
 *       io.troupe.operators.expr.StringKernel} (see {@code Substrings}). A kernel loops over the live
 *       rows as {@code Kernels} shows, copies or combines the inputs' validity, and skips NULL rows
 *       where a value could fail. A value outside the function's domain throws a {@code
 *       DomainException} with PostgreSQL's message and the value in parentheses ({@code "cannot
 *       take square root of a negative number (" + x + ")"}); the kernel turns it into the query's
 *       error with {@code DomainException.failure(text)}.</li>
 *   <li><b>Signatures.</b> One {@code Signature.of(resultType, kernel, params...)} per form, in
 *       the order errors list them (a tie in cost goes to the first). Parameters: {@code
 *       ParamType.FLOAT64}, {@code INT32}, {@code INT64}, {@code VARCHAR}, {@code DATE}, {@code
 *       BOOLEAN}, {@code ParamType.of(type)}, {@code ParamType.DECIMAL} (any precision and scale,
 *       kept), {@code ParamType.SAME} (one common type for all SAME arguments), {@code
 *       .asConstant()} for an argument the kernel reads once; {@code Signature.variadic} repeats
 *       the last parameter. The result type: {@code ResultType.fixed(type)}, {@code
 *       ResultType.argument(i)}, or a function of the converted arguments' types and constants. Use
 *       DuckDB's result types (check {@code typeof()}); the kernel must return exactly that type.</li>
 *   <li><b>Registration.</b> A {@code ScalarFunction.of(name, signatures...)} (with {@code
 *       .withAliases(...)}) in its family's list: {@link io.troupe.operators.expr.NumericFunctions#all}
 *       for numbers, {@link io.troupe.operators.expr.StringFunctions#all} for strings; a new family
 *       is a new class of the same shape, added to {@code FunctionRegistry}'s {@code BUILT_IN}.
 *       Nothing else: SQL, plan text, the plan API and the wire find it by name. A function whose
 *       value differs at each call ({@code random()}) is marked {@code .asVolatile()}: its calls are
 *       never folded, and SQL's planner knows it as non-deterministic. Only a name Calcite's parser
 *       binds by its own syntax (CEIL, TRIM, POSITION, translate, the operators {@code &} and {@code
 *       <<}) can need a look at {@code RexLowering}; one whose operands are not plain arguments
 *       (TRIM's flag) must not be a registry name, since Calcite's validator would hand the call to
 *       the registry's operator. A function of JDBC's list (the Open Group names: ABS, CEILING,
 *       LOG10, LTRIM ...) goes into {@code TroupeDatabaseMetaData}'s {@code getNumericFunctions} or
 *       {@code getStringFunctions} too.</li>
 *   <li><b>Docs row.</b> A {@code ### name(arguments)} section in docs/sql/functions-*.md (the
 *       family's page): argument and result types, NULLs, where PostgreSQL and DuckDB differ and
 *       which Troupe follows, and an {@code | Example | Result |} table, errors as {@code error:
 *       <part of the message>}.</li>
 *   <li><b>DuckDB test.</b> Cases in the family's test ({@code NumericFunctionsTest}, {@code
 *       StringFunctionsVersusDuckDbTest}): the call as a plan ({@code Expr.call}) and as SQL, over
 *       the random table with NULLs, compared with DuckDB at 1 and 2 workers, its type against
 *       DuckDB's {@code typeof()}, and each error with its message; a deliberate difference from
 *       DuckDB is listed there with its reason.</li>
 * </ol>
 */
package io.troupe.operators.expr;
