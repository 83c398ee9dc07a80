package io.troupe.operators.sql;

import io.troupe.operators.expr.Function;
import io.troupe.operators.plan.Call;
import io.troupe.operators.plan.ColumnRef;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinRegions;
import io.troupe.operators.plan.Literal;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.hint.HintPredicates;
import org.apache.calcite.rel.hint.HintStrategyTable;
import org.apache.calcite.rel.hint.RelHint;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.DateString;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static io.troupe.operators.Arguments.notNull;

/**
 * A plan built with the Java API, optimized as a SQL statement's is: each of its join regions (inner joins and
 * filters over table scans, {@link JoinRegions}) becomes Calcite's relations, its filters are pushed into and
 * below the joins, {@link JoinOrdering} orders the joins and chooses their build sides by the tables'
 * statistics, and {@link RelLowering} turns the result back into plan nodes over the region's own scans, with
 * its columns in their written order and names. Where the region's columns reach a projection or an aggregate
 * ({@link JoinRegions}), each scan keeps only the columns that the plan's expressions name (a projection over it),
 * as SQL's column trimming does. The rest of the plan is kept as written, and so is a pinned subplan
 * ({@link Plan#pin}); each region it planned comes back pinned.
 *
 * <p>A condition that uses what this translation does not carry over to Calcite (it carries comparisons, AND, OR,
 * NOT, IS [NOT] NULL, IN, BETWEEN and +, -, * over columns and typed literals) stays where it was written, and so
 * do the joins above it; the regions below it are optimized on their own. So does a region whose scans name a
 * column alike (one table twice under one alias), one that Calcite proves empty (its conditions contradict each
 * other) and one of whose scans it removes (a self-join on a unique key): plan nodes could not give such a
 * region's columns their names. Each scan enters Calcite as a projection naming its columns {@code alias.column},
 * with a hint naming the scan, so that two scans of one table stay two relations.
 * Threadsafe: each region is planned on a Calcite cluster of its own.
 */
public final class PlanOptimizer {

    /** Filters into the joins (an inner join's condition is a filter over its inputs together) and below them. */
    private static final List<RelOptRule> PUSH_DOWN = List.of(CoreRules.FILTER_INTO_JOIN,
            CoreRules.JOIN_CONDITION_PUSH, CoreRules.FILTER_MERGE);

    /** The name of the schema the catalog's tables are in (as a statement sees them). */
    private static final String SCHEMA = "troupe";
    /** The hint that names a region's scan by its alias. */
    private static final String LEAF = "troupe_scan";

    private final Catalog catalog;
    private final Duration joinOrderLimit;

    /** An optimizer over {@code catalog}'s tables whose join ordering stops after {@code joinOrderLimit}. */
    public PlanOptimizer(Catalog catalog, Duration joinOrderLimit) {
        this.catalog = notNull(catalog, "PlanOptimizer", "catalog");
        this.joinOrderLimit = notNull(joinOrderLimit, "PlanOptimizer", "joinOrderLimit");
    }

    /**
     * {@code plan} with its join regions ordered and pinned, so that optimizing it again plans nothing; its pinned
     * subplans as written; the same rows, columns and names.
     *
     * @throws io.troupe.operators.plan.PlanException when the plan is not valid over the catalog
     */
    public Plan optimize(Plan plan) {
        notNull(plan, "PlanOptimizer.optimize", "plan");
        Plan resolved = catalog.functions().resolve(plan);
        resolved.validate(catalog);
        return JoinRegions.rewrite(resolved, this::order);
    }

    /**
     * The plan of one region, or null to keep it as written; with {@code named}, each scan narrowed to the columns
     * named there.
     */
    private Plan order(JoinRegions.Node region, Set<String> named) {
        JavaTypeFactoryImpl types = new JavaTypeFactoryImpl(TroupeTypeSystem.INSTANCE);
        RelOptCluster cluster = RelOptCluster.create(new VolcanoPlanner(), new RexBuilder(types));
        cluster.setHintStrategies(HintStrategyTable.builder().hintStrategy(LEAF, HintPredicates.PROJECT).build());
        cluster.setMetadataProvider(StatisticsMetadata.PROVIDER);
        cluster.invalidateMetadataQuery();
        SchemaPlus root = Frameworks.createRootSchema(false);
        root.add(SCHEMA, new CatalogSchema(catalog));
        CalciteCatalogReader tables = new CalciteCatalogReader(CalciteSchema.from(root), List.of(SCHEMA), types,
                CalciteConnectionConfig.DEFAULT);
        Translation translation = new Translation(RelFactories.LOGICAL_BUILDER.create(cluster, tables), named);
        List<Field> fields = translation.push(region);
        if (fields == null) {
            return null;
        }
        HepPlanner pushDown = new HepPlanner(new HepProgramBuilder().addRuleCollection(PUSH_DOWN).build());
        pushDown.setRoot(translation.builder.build());
        RelNode ordered = JoinOrdering.order(pushDown.findBestExp(), joinOrderLimit);
        try {
            return new RelLowering(translation.leaves, StatementClock.utc()).lowerRegion(ordered,
                    fields.stream().map(Field::qualifiedName).toList()).pin();
        } catch (UnsupportedSqlException e) {
            return null;
        }
    }

    /**
     * One region as Calcite's relations on {@link #builder}'s stack: each scan a projection of its table that
     * names every column {@code alias.column} (so that the lowering finds the scan again), each filter and join
     * condition translated over the columns of its input, resolved as the plan resolves them.
     */
    private final class Translation {

        private final RelBuilder builder;
        /** The columns a scan keeps, by name; null for all. */
        private final Set<String> named;
        private final Map<String, Plan> leaves = new HashMap<>();
        private final Set<String> names = new HashSet<>();

        Translation(RelBuilder builder, Set<String> named) {
            this.builder = builder;
            this.named = named;
        }

        /** Pushes {@code node}'s relation and returns its columns, or null when the region stays as written. */
        private List<Field> push(JoinRegions.Node node) {
            if (node instanceof JoinRegions.Scan scan) {
                return scan(scan);
            }
            if (node instanceof JoinRegions.Filter filter) {
                List<Field> in = push(filter.input());
                RexNode condition = in == null ? null : rex(filter.predicate(), new Schema(in),
                        builder.peek().getRowType().getFieldList());
                if (condition == null) {
                    return null;
                }
                builder.filter(condition);
                return in;
            }
            JoinRegions.Join join = (JoinRegions.Join) node;
            List<Field> left = push(join.left());
            List<Field> right = left == null ? null : push(join.right());
            if (right == null) {
                return null;
            }
            List<Field> both = new ArrayList<>(left);
            both.addAll(right);
            List<RelDataTypeField> types = new ArrayList<>(builder.peek(1).getRowType().getFieldList());
            types.addAll(builder.peek().getRowType().getFieldList());
            RexNode on = rex(join.on(), new Schema(both), types);
            if (on == null) {
                return null;
            }
            builder.join(JoinRelType.INNER, on);
            return both;
        }

        /** A scan, narrowed to the columns named above the region (at least one). */
        private List<Field> scan(JoinRegions.Scan scan) {
            List<Field> all = scan.plan().validate(catalog).fields();
            List<Field> fields = new ArrayList<>();
            List<RexNode> refs = new ArrayList<>();
            builder.scan(catalog.table(scan.table()).name());
            for (int i = 0; i < all.size(); i++) {
                Field f = all.get(i);
                if (named == null || named.contains(f.name().toLowerCase(Locale.ROOT))
                        || i == all.size() - 1 && fields.isEmpty()) {
                    fields.add(f);
                    refs.add(builder.field(i));
                }
            }
            Plan leaf = fields.size() == all.size() ? scan.plan()
                    : scan.plan().project(fields.stream().map(f -> Expr.col(f.qualifiedName())).toArray(Expr[]::new));
            List<String> columns = new ArrayList<>();
            for (Field f : fields) {
                if (!names.add(f.qualifiedName().toLowerCase(Locale.ROOT))) {
                    return null;
                }
                columns.add(f.qualifiedName());
                leaves.put(f.qualifiedName(), leaf);
            }
            builder.project(refs, columns, true);
            // Named by a hint too, which is part of its digest (its field names are not): so that Calcite's Hep
            // planners, which share equal relations, keep two scans of one table apart.
            builder.hints(RelHint.builder(LEAF).hintOption(scan.alias()).build());
            return fields;
        }

        /**
         * {@code e} over columns named as {@code schema} names them and typed as {@code types} (the relation on
         * top of the stack, or the two a join joins); null when not carried.
         */
        private RexNode rex(Expr e, Schema schema, List<RelDataTypeField> types) {
            RexBuilder rex = builder.getRexBuilder();
            if (e instanceof ColumnRef ref) {
                int index = schema.resolve(ref.reference());
                return index < 0 ? null : rex.makeInputRef(types.get(index).getType(), index);
            }
            if (e instanceof Literal literal) {
                return literal(literal, rex);
            }
            if (!(e instanceof Call call) || call.castType() != null) {
                return null;
            }
            List<RexNode> args = new ArrayList<>();
            for (Expr arg : call.args()) {
                RexNode r = rex(arg, schema, types);
                if (r == null) {
                    return null;
                }
                args.add(r);
            }
            if (call.function() == Function.BETWEEN) {
                return rex.makeCall(SqlStdOperatorTable.AND,
                        rex.makeCall(SqlStdOperatorTable.GREATER_THAN_OR_EQUAL, args.get(0), args.get(1)),
                        rex.makeCall(SqlStdOperatorTable.LESS_THAN_OR_EQUAL, args.get(0), args.get(2)));
            }
            if (call.function() == Function.IN) {
                List<RexNode> equalities = new ArrayList<>();
                for (RexNode value : args.subList(1, args.size())) {
                    equalities.add(rex.makeCall(SqlStdOperatorTable.EQUALS, args.get(0), value));
                }
                return equalities.size() == 1 ? equalities.get(0) : rex.makeCall(SqlStdOperatorTable.OR, equalities);
            }
            SqlOperator op = operator(call.function());
            return op == null ? null : rex.makeCall(op, args);
        }
    }

    private static SqlOperator operator(Function f) {
        return switch (f) {
            case ADD -> SqlStdOperatorTable.PLUS;
            case SUBTRACT -> SqlStdOperatorTable.MINUS;
            case MULTIPLY -> SqlStdOperatorTable.MULTIPLY;
            case EQ -> SqlStdOperatorTable.EQUALS;
            case NE -> SqlStdOperatorTable.NOT_EQUALS;
            case LT -> SqlStdOperatorTable.LESS_THAN;
            case LE -> SqlStdOperatorTable.LESS_THAN_OR_EQUAL;
            case GT -> SqlStdOperatorTable.GREATER_THAN;
            case GE -> SqlStdOperatorTable.GREATER_THAN_OR_EQUAL;
            case AND -> SqlStdOperatorTable.AND;
            case OR -> SqlStdOperatorTable.OR;
            case NOT -> SqlStdOperatorTable.NOT;
            case IS_NULL -> SqlStdOperatorTable.IS_NULL;
            case IS_NOT_NULL -> SqlStdOperatorTable.IS_NOT_NULL;
            default -> null;
        };
    }

    /** {@code literal} as Calcite's, or null when not carried. */
    private static RexNode literal(Literal literal, RexBuilder rex) {
        DataType type = literal.type();
        if (type == null) {
            return null;
        }
        if (literal.value() == null) {
            return rex.makeNullLiteral(SqlTypes.toSql(type, true, rex.getTypeFactory()));
        }
        Object v = literal.value();
        return switch (type.id()) {
            case INT32, INT64, DECIMAL, INT16, INT8 -> rex.makeExactLiteral(v instanceof BigDecimal d ? d
                    : BigDecimal.valueOf(((Number) v).longValue()), SqlTypes.toSql(type, false, rex.getTypeFactory()));
            // NaN and infinities have no exact value; Calcite's dates are of the years 1 to 9999: not carried.
            case FLOAT64, FLOAT32 -> Double.isFinite(((Number) v).doubleValue())
                    ? rex.makeApproxLiteral(new BigDecimal(v.toString()),
                    SqlTypes.toSql(type, false, rex.getTypeFactory())) : null;
            case DATE -> ((LocalDate) v).getYear() >= 1 && ((LocalDate) v).getYear() <= 9999
                    ? rex.makeDateLiteral(new DateString(((LocalDate) v).toString())) : null;
            case BOOLEAN -> rex.makeLiteral((Boolean) v);
            // Calcite's strings hold its default charset (UTF-8: config/saffron.properties); one past it is not
            // carried.
            case VARCHAR -> rex.getTypeFactory().getDefaultCharset().newEncoder().canEncode((String) v)
                    ? rex.makeLiteral((String) v) : null;
            // Calcite's literals of these hold milliseconds (and no interval of months and days): not carried.
            case TIMESTAMP, TIMESTAMP_TZ, TIME, INTERVAL -> null;
            case UUID, BLOB -> null;
        };
    }
}
