package io.troupe.operators.sql;

import io.troupe.operators.expr.FunctionRegistry;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.udf.OwnFunctions;

import com.google.common.collect.ImmutableSet;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.rules.AggregateExpandDistinctAggregatesRule;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.PruneEmptyRules;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.type.SqlTypeCoercionRule;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.FrameworkConfig;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.Planner;
import org.apache.calcite.tools.RelConversionException;
import org.apache.calcite.tools.ValidationException;

import java.time.Duration;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.troupe.operators.Arguments.notNull;

/**
 * SQL in, Troupe plan out: Calcite parses the statement, validates it against the catalog's tables
 * ({@link CatalogSchema}), converts it to relational algebra, removes subqueries and decorrelates them
 * where it can, pushes filters down (a Hep pass), orders the joins and chooses their build sides by the
 * tables' statistics ({@link JoinOrdering}, within a time bound), trims the columns each relation passes
 * on to those its parents use, and {@link RelLowering} turns the result into the same plan nodes the Java
 * API builds. Calcite is the front end only: nothing of it runs when the plan executes.
 *
 * <p>Every failure is a {@link SqlException}: a syntax or validation error with its line, column and a
 * caret under the statement's line, unknown names with the nearest known ones ({@link SqlErrors}), and
 * what Troupe does not run yet as "unsupported in SQL: what". One planner per catalog; threadsafe (each
 * statement gets a Calcite planner of its own, over the tables registered when it is planned).
 */
public final class SqlPlanner {

    /**
     * Subqueries to joins over correlates, which {@link RelDecorrelator} then turns into plain joins; INTERSECT and
     * EXCEPT (distinct) to a UNION ALL of the inputs' counts, aggregated and filtered; a projection's window
     * functions ({@code RexOver}) to a Window relation of their own ({@link WindowLowering}), before any rule
     * could move a filter or a projection across them.
     */
    private static final List<RelOptRule> SUBQUERIES = List.of(CoreRules.FILTER_SUB_QUERY_TO_CORRELATE,
            CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE, CoreRules.JOIN_SUB_QUERY_TO_CORRELATE,
            CoreRules.INTERSECT_TO_DISTINCT, CoreRules.MINUS_TO_DISTINCT,
            CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW);

    /**
     * Of a disjunction over several tables (TPC-H q7's two nation pairs, q19's three part-lineitem
     * conjunctions), the part each table's columns make on their own, added as a filter of that table for
     * {@link #PUSH_DOWN} to take below the joins; the disjunction stays where it was. Once over the tree:
     * each firing adds filters, so their firings are bounded ({@link #DISJUNCTION_MATCHES}).
     */
    private static final List<RelOptRule> DISJUNCTIONS = List.of(CoreRules.EXPAND_FILTER_DISJUNCTION_GLOBAL,
            CoreRules.EXPAND_JOIN_DISJUNCTION_GLOBAL);

    /** How many times {@link #DISJUNCTIONS} may fire in one statement: a bound, as each firing adds a filter. */
    private static final int DISJUNCTION_MATCHES = 64;

    /**
     * Filters into and through joins, projections, the branches of a UNION and an aggregate (a condition on its
     * group keys), down to the scans; adjacent projections merged; what a filter that can never hold leaves empty
     * pruned (TPC-DS q4's six references to a UNION ALL of three channels, each of which keeps one channel and one
     * year: the other branches' constant channel fails the filter, and the year reaches date_dim).
     */
    private static final List<RelOptRule> PUSH_DOWN = List.of(CoreRules.FILTER_INTO_JOIN,
            CoreRules.JOIN_CONDITION_PUSH, CoreRules.FILTER_PROJECT_TRANSPOSE, CoreRules.FILTER_SET_OP_TRANSPOSE,
            CoreRules.FILTER_AGGREGATE_TRANSPOSE, CoreRules.FILTER_MERGE, CoreRules.PROJECT_MERGE,
            CoreRules.PROJECT_REMOVE, PruneEmptyRules.FILTER_INSTANCE, PruneEmptyRules.PROJECT_INSTANCE,
            PruneEmptyRules.UNION_INSTANCE, PruneEmptyRules.AGGREGATE_INSTANCE, PruneEmptyRules.JOIN_LEFT_INSTANCE,
            PruneEmptyRules.JOIN_RIGHT_INSTANCE);

    /**
     * Standard SQL with what PostgreSQL and DuckDB users write as well: {@code a % b}, {@code !=}, GROUP BY
     * aliases and ordinals, LIMIT. Calcite's Planner accepts only its named conformances, and LENIENT is
     * the one that has these.
     */
    private static final SqlConformanceEnum CONFORMANCE = SqlConformanceEnum.LENIENT;

    /** Calcite's casts, and a BOOLEAN's to a number, which PostgreSQL and DuckDB cast to 0 or 1. */
    private static final SqlTypeCoercionRule CASTS = castsWithBooleanToNumber();

    /** Also INSERT's ({@link SqlStatements}). */
    static final SqlParser.Config PARSER = SqlParser.config()
            .withConformance(CONFORMANCE)
            .withCaseSensitive(false)
            .withUnquotedCasing(Casing.UNCHANGED)
            .withQuotedCasing(Casing.UNCHANGED);

    /**
     * An aggregate with a DISTINCT call that Troupe's aggregates lack (sum, avg, min, max of DISTINCT; a
     * count(DISTINCT) they have) as Calcite's expansion: the distinct values grouped first, then aggregated,
     * joined back to the other calls or as grouping sets when there are several.
     */
    private static final RelOptRule EXPAND_DISTINCT = AggregateExpandDistinctAggregatesRule.Config.DEFAULT
            .withOperandSupplier(b -> b.operand(LogicalAggregate.class)
                    .predicate(SqlPlanner::hasDistinctBeyondCount).anyInputs())
            .as(AggregateExpandDistinctAggregatesRule.Config.class).toRule();

    /**
     * The functions of Troupe's {@link FunctionRegistry} ({@link RegistryOperatorTable}) over SQL's standard functions
     * and the spellings PostgreSQL and DuckDB users write for some of them: length(s), substr(s, start, length),
     * ifnull(a, b) and nvl(a, b), and concat(a, ...) as PostgreSQL's and DuckDB's, which skips NULL arguments
     * (Calcite's CONCAT_FUNCTION_WITH_NULL; its CONCAT_FUNCTION is MySQL's, NULL if any is); [NOT] ILIKE and
     * translate(s, from, to), which the parser binds to operators of its own (TRANSLATE3), lowered to the registry;
     * + and - with the time arithmetic of {@link TimeOperators} before the standard ones, % over DOUBLEs
     * ({@link Remainder}); the aggregates of
     * {@link AggregateOperators}; and the table functions of {@link SeriesFunctions}.
     */
    private static final SqlOperatorTable OPERATORS = new RegistryOperatorTable(FunctionRegistry.builtIn().functions(),
            SqlOperatorTables.chain(SqlOperatorTables.of(TimeOperators.PLUS, TimeOperators.MINUS,
                            TimeOperators.MULTIPLY, TimeOperators.DIVIDE, TimeOperators.EXTRACT, Remainder.OPERATOR),
                    AggregateOperators.with(SqlStdOperatorTable.instance()),
                    SqlOperatorTables.of(SqlLibraryOperators.LENGTH, SqlLibraryOperators.SUBSTR_POSTGRESQL,
                            SqlLibraryOperators.IFNULL, SqlLibraryOperators.NVL,
                            SqlLibraryOperators.CONCAT_FUNCTION_WITH_NULL, SqlLibraryOperators.ILIKE,
                            SqlLibraryOperators.NOT_ILIKE, SqlLibraryOperators.RLIKE, SqlLibraryOperators.NOT_RLIKE,
                            SqlLibraryOperators.TRANSLATE3),
                    SeriesFunctions.OPERATORS));

    /** Adjacent projections merged, and those that pass their input on unchanged removed. */
    private static final List<RelOptRule> PROJECTIONS = List.of(CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE);

    private final Catalog catalog;
    private final Duration joinOrderLimit;
    private final ZoneId zone;

    /**
     * A planner whose join ordering stops after {@code joinOrderLimit} ({@code troupe.sql.join-order-limit}),
     * the joins then kept as written, for a session in time zone {@code zone} ({@code troupe.sql.time-zone}):
     * its plans carry the zone wherever a value moves between local and absolute time.
     */
    public SqlPlanner(Catalog catalog, Duration joinOrderLimit, ZoneId zone) {
        this.catalog = notNull(catalog, "SqlPlanner", "catalog");
        this.joinOrderLimit = notNull(joinOrderLimit, "SqlPlanner", "joinOrderLimit");
        this.zone = notNull(zone, "SqlPlanner", "zone");
    }

    /** The session's time zone its statements are planned in. */
    ZoneId zone() {
        return zone;
    }

    /**
     * The plan of one SELECT statement, {@link Plan#pin pinned}; its output columns are named as the statement names
     * them, and where it does not, as PostgreSQL names them ({@link ColumnNames}: {@code count(*)} is {@code count}).
     *
     * @throws SqlException when the statement is not valid SQL over the catalog, uses what Troupe does not run,
     *                      or has parameters ({@code ?}: {@link #prepare} it)
     */
    public Plan plan(String sql) {
        notNull(sql, "SqlPlanner.plan", "sql");
        PreparedPlan prepared = prepare(sql);
        if (prepared.parameterCount() > 0) {
            throw new SqlException(SqlException.Kind.PARAMETER, "the statement has " + prepared.parameterCount()
                    + " parameter(s) (?): prepare it "
                    + "and give their values with each execution", 0, 0, null);
        }
        return prepared.plan();
    }

    /**
     * One SELECT statement planned once, its parameters ({@code ?}) left open for each execution's values.
     *
     * @throws SqlException when the statement is not valid SQL over the catalog, uses what Troupe does not run,
     *                      or has a parameter whose type cannot be told from where it stands ({@code SELECT ?})
     */
    public PreparedPlan prepare(String sql) {
        notNull(sql, "SqlPlanner.prepare", "sql");
        SqlErrors errors = SqlErrors.of(sql, catalog);
        StatementText text = errors.text();
        Planner planner = Frameworks.getPlanner(config());
        try {
            SqlNode parsed = SeriesFunctions.nameColumns(AggregateOperators.rewrite(TimeOperators.withExtract(
                    planner.parse(text.parsed()))));
            if (!parsed.isA(SqlKind.QUERY)) {
                throw new UnsupportedSqlException(parsed.getKind() + " statements (a plan is a query's; "
                        + "Troupe.sql runs INSERT, CREATE TABLE, DROP TABLE and COPY)",
                        parsed.getParserPosition());
            }
            ColumnNames columns = ColumnNames.of(parsed);
            TypeNames.check(parsed);
            SqlNode validated = planner.validate(parsed);
            SupportedSql.check(validated);
            RelRoot root = planner.rel(validated);
            RelNode rel = rewrite(root.project());
            VolatileCalls.check(validated, rel);
            RelLowering lowering = new RelLowering(zone);
            // Pinned: optimized here already, it runs as planned (troupe.sql.optimize-plans is for Java plans).
            Plan plan = lowering.lower(rel, columns.names(root.validatedRowType.getFieldNames())).pin();
            return new PreparedPlan(sql, plan, parameterCount(parsed), lowering.parameters());
        } catch (SqlParseException e) {
            throw errors.syntax(e);
        } catch (ValidationException e) {
            if (e.getCause() instanceof CalciteContextException context) {
                throw errors.validation(context);
            }
            throw errors.other(e);
        } catch (CalciteContextException e) {
            throw errors.validation(e);
        } catch (UnsupportedSqlException e) {
            throw errors.unsupported(e.getMessage(), e.position(), e);
        } catch (RelConversionException e) {
            throw errors.other(e);
        } catch (AssertionError e) {
            // Calcite throws AssertionErrors of its own where a statement meets a case it lacks (the monotonicity
            // of 37 / NULL, from the sqllogictest corpus): a statement it cannot plan, not a broken Troupe.
            StackTraceElement[] at = e.getStackTrace();
            if (at.length == 0 || !at[0].getClassName().startsWith("org.apache.calcite.")) {
                throw e;
            }
            throw errors.other(Recursions.mismatchedTypes(e));
        } finally {
            planner.close();
        }
    }

    /** The number of {@code ?} in the statement (the parser numbers them from 0 in order). */
    private static int parameterCount(SqlNode parsed) {
        int[] count = {0};
        parsed.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlDynamicParam param) {
                count[0] = Math.max(count[0], param.getIndex() + 1);
                return null;
            }
        });
        return count[0];
    }

    /** Calcite's own rules with BOOLEAN among each number type's sources (in Guava's sets, as Calcite takes them). */
    private static SqlTypeCoercionRule castsWithBooleanToNumber() {
        Map<SqlTypeName, ImmutableSet<SqlTypeName>> rules = new HashMap<>(SqlTypeCoercionRule.instance().getTypeMapping());
        for (SqlTypeName number : SqlTypeName.NUMERIC_TYPES) {
            rules.put(number, ImmutableSet.<SqlTypeName>builder().addAll(rules.getOrDefault(number, ImmutableSet.of()))
                    .add(SqlTypeName.BOOLEAN).build());
        }
        return SqlTypeCoercionRule.instance(rules);
    }

    private FrameworkConfig config() {
        SchemaPlus root = Frameworks.createRootSchema(false);
        SchemaPlus tables = root.add("troupe", new CatalogSchema(catalog));
        TypeNames.addTo(root);
        return Frameworks.newConfigBuilder()
                .parserConfig(PARSER)
                .defaultSchema(tables)
                .typeSystem(TroupeTypeSystem.INSTANCE)
                .operatorTable(operators())
                .executor(ConstantReduction.INSTANCE)
                .sqlValidatorConfig(SqlValidator.Config.DEFAULT.withConformance(CONFORMANCE)
                        .withTypeCoercionRules(CASTS))
                // Subqueries stay expressions for the Hep pass; an IN list of any length stays comparisons
                // (by default Calcite joins a list of 20 or more with a VALUES relation).
                .convertletTable(TimeOperators.CONVERTLETS)
                .sqlToRelConverterConfig(SqlToRelConverter.config().withExpand(false)
                        .withInSubQueryThreshold(Integer.MAX_VALUE))
                .build();
    }

    /** The built-in operators, under the catalog's functions and aggregates of its own where it has some. */
    private SqlOperatorTable operators() {
        OwnFunctions own = catalog.functions().current();
        if (own.isEmpty()) {
            return OPERATORS;
        }
        SqlOperatorTable aggregates = SqlOperatorTables.of(own.aggregates().stream()
                .map(OwnAggregateOperator::of).toList());
        return new RegistryOperatorTable(own.scalars(), SqlOperatorTables.chain(aggregates, OPERATORS));
    }

    /**
     * The names SQL calls functions by (lower case): the registry's, the aggregates', the window functions' and those
     * of Calcite's operators written as functions ({@code coalesce}, {@code nullif}), which a function of one's own
     * must not take.
     */
    public static Set<String> functionNames() {
        Set<String> names = new TreeSet<>();
        for (SqlOperator op : OPERATORS.getOperatorList()) {
            String name = op.getName().toLowerCase(Locale.ROOT);
            if (name.matches("[a-z_][a-z0-9_]*")) {
                names.add(name);
            }
        }
        return names;
    }

    /**
     * WHERE's EXISTS and IN as semi and anti joins ({@link SemiJoins}), INTERSECT and EXCEPT ALL over occurrence
     * numbers ({@link SetOperationsAll}), other subqueries removed and
     * decorrelated, filters pushed down, joins ordered, aggregates that a join matches by key reduced to the
     * keys it can keep ({@link GroupReduction}), columns trimmed; each Hep planner is the statement's own.
     */
    private RelNode rewrite(RelNode rel) {
        rel.getCluster().setMetadataProvider(StatisticsMetadata.PROVIDER);
        rel.getCluster().invalidateMetadataQuery();
        HepPlanner subqueries = new HepPlanner(program(SUBQUERIES));
        subqueries.setRoot(SetOperationsAll.rewrite(SemiJoins.rewrite(rel)));
        RelNode plain = subqueries.findBestExp();
        HepPlanner distinct = new HepPlanner(program(List.of(EXPAND_DISTINCT)));
        distinct.setRoot(RelDecorrelator.decorrelateQuery(plain,
                RelFactories.LOGICAL_BUILDER.create(plain.getCluster(), null)));
        RelNode decorrelated = distinct.findBestExp();
        HepPlanner disjunctions = new HepPlanner(new HepProgramBuilder().addMatchLimit(DISJUNCTION_MATCHES)
                .addRuleCollection(DISJUNCTIONS).build());
        disjunctions.setRoot(pullFactors(decorrelated));
        HepPlanner pushDown = new HepPlanner(program(PUSH_DOWN));
        pushDown.setRoot(disjunctions.findBestExp());
        RelNode ordered = EagerAggregation.rewrite(GroupReduction.rewrite(JoinOrdering.order(pushDown.findBestExp(),
                joinOrderLimit)));
        RelNode trimmed = new RelFieldTrimmer(null, RelFactories.LOGICAL_BUILDER.create(ordered.getCluster(), null))
                .trim(ordered);
        HepPlanner projections = new HepPlanner(program(PROJECTIONS));
        projections.setRoot(trimmed);
        return projections.findBestExp();
    }

    /**
     * Each filter's and join's condition with what every branch of an OR shares pulled out as a conjunct of its
     * own (TPC-H q19's join key and lineitem's shipping conditions), which push-down then takes below the
     * joins, and a join hashes on.
     */
    private static RelNode pullFactors(RelNode rel) {
        return rel.accept(new RelShuttleImpl() {
            @Override
            public RelNode visit(LogicalFilter filter) {
                Filter visited = (Filter) super.visit(filter);
                return visited.copy(visited.getTraitSet(), visited.getInput(),
                        RexUtil.pullFactors(visited.getCluster().getRexBuilder(), visited.getCondition()));
            }

            @Override
            public RelNode visit(LogicalJoin join) {
                Join visited = (Join) super.visit(join);
                return visited.copy(visited.getTraitSet(), RexUtil.pullFactors(visited.getCluster().getRexBuilder(),
                        visited.getCondition()), visited.getLeft(), visited.getRight(), visited.getJoinType(),
                        visited.isSemiJoinDone());
            }
        });
    }

    /**
     * Whether DISTINCT needs expanding: a call other than count's and string_agg's has it, and no string_agg
     * (LISTAGG) has it, whose ORDER BY the expansion would lose (Calcite 1.42 keeps its field numbers in the
     * expanded input); a string_agg runs DISTINCT itself, and its neighbours' DISTINCT is then refused.
     */
    private static boolean hasDistinctBeyondCount(Aggregate aggregate) {
        return aggregate.getAggCallList().stream().anyMatch(call -> call.isDistinct()
                && call.getAggregation().getKind() != SqlKind.COUNT && call.getAggregation().getKind() != SqlKind.LISTAGG)
                && aggregate.getAggCallList().stream().noneMatch(call -> call.isDistinct()
                && call.getAggregation().getKind() == SqlKind.LISTAGG);
    }

    private static HepProgram program(List<RelOptRule> rules) {
        return new HepProgramBuilder().addRuleCollection(rules).build();
    }
}
