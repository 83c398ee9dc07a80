package io.troupe.operators.plan;

import io.troupe.config.TroupeSettings;
import io.troupe.config.TroupeSettings.MatchFlags;
import io.troupe.operators.exec.CollectSink;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.expr.Function;
import io.troupe.operators.fragment.ExchangeKind;
import io.troupe.operators.join.HashJoinBuildSink;
import io.troupe.operators.join.HashJoinProbeOperator;
import io.troupe.operators.join.HashJoinTable;
import io.troupe.operators.join.SpilledPartitionsSource;
import io.troupe.operators.scan.CollectedScanSource;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Hash join: the right input is built into a hash table, the left input probes it. The condition
 * is a conjunction: its equalities between an expression over the left input and one over the
 * right are the join keys (at least one); any other conjunct is the residual, which a pair of rows
 * with equal keys must also pass to match (checked on each batch of candidate pairs, before matches
 * are recorded, so that it decides for outer, semi and anti joins as SQL's ON does). Compiles to a build pipeline (the right input into a
 * {@link HashJoinBuildSink}) and a {@link HashJoinProbeOperator} on the left input's pipeline,
 * followed there by a branch that joins the partitions the build spilled, if it did
 * ({@link SpilledPartitionsSource}).
 */
final class JoinNode extends Plan {

    private final Plan left;
    private final Plan right;
    private final JoinType type;
    private final Expr on;

    JoinNode(Plan left, Plan right, JoinType type, Expr on) {
        this.left = left;
        this.right = right;
        this.type = type;
        this.on = on;
    }

    JoinType type() {
        return type;
    }

    Expr on() {
        return on;
    }

    @Override
    public List<Plan> children() {
        return List.of(left, right);
    }

    @Override
    public String label() {
        return "Hash Join " + type + " on " + on;
    }

    /**
     * The bound condition: leftKeys.get(i) = rightKeys.get(i), and the residual over the left columns then
     * the right ones (null when every conjunct is a key pair).
     */
    record Keys(List<Expression> leftKeys, List<Expression> rightKeys, Expression residual) {
    }

    Keys bindKeys(Schema leftSchema, Schema rightSchema) {
        List<Expr> conjuncts = new ArrayList<>();
        flattenAnd(on, conjuncts);
        List<Expression> leftKeys = new ArrayList<>();
        List<Expression> rightKeys = new ArrayList<>();
        Expr residual = null;
        Schema joint = leftSchema.concat(rightSchema);
        for (Expr c : conjuncts) {
            Expression[] pair = null;
            if (c instanceof Call call && call.function() == Function.EQ) {
                Expr a = call.args().get(0);
                Expr b = call.args().get(1);
                pair = bindPair(a, b, leftSchema, rightSchema);
                if (pair == null) {
                    pair = bindPair(b, a, leftSchema, rightSchema);
                }
            }
            if (pair == null) {
                residual = residual == null ? c : residual.and(c);
                continue;
            }
            if (!pair[0].type().equals(pair[1].type())) {
                throw new PlanException(label(), "join keys of " + c + " differ in type: " + pair[0].type()
                        + " and " + pair[1].type() + "; cast one side");
            }
            leftKeys.add(pair[0]);
            rightKeys.add(pair[1]);
        }
        Expression boundResidual = residual == null ? null : residual.bind(joint, label());
        if (leftKeys.isEmpty()) {
            throw new PlanException(label(), "join condition " + on + " has no equality between an expression over"
                    + " the left input and one over the right; a hash join needs at least one (for a cross join,"
                    + " equate a constant on each side)");
        }
        if (boundResidual != null && !boundResidual.type().equals(DataType.BOOLEAN)) {
            throw new PlanException(label(), "join condition " + residual + " is " + boundResidual.type()
                    + ", not BOOLEAN");
        }
        return new Keys(leftKeys, rightKeys, boundResidual);
    }

    private Expression[] bindPair(Expr l, Expr r, Schema leftSchema, Schema rightSchema) {
        try {
            return new Expression[] {l.bind(leftSchema, label()), r.bind(rightSchema, label())};
        } catch (PlanException e) {
            return null;
        }
    }

    private static void flattenAnd(Expr e, List<Expr> out) {
        if (e instanceof Call call && call.function() == Function.AND) {
            flattenAnd(call.args().get(0), out);
            flattenAnd(call.args().get(1), out);
        } else {
            out.add(e);
        }
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        Schema l = left.deriveSchema(catalog);
        Schema r = right.deriveSchema(catalog);
        bindKeys(l, r);
        return switch (type) {
            case INNER -> l.concat(r);
            case LEFT -> l.concat(r.asNullable());
            case RIGHT -> l.asNullable().concat(r);
            case FULL -> l.asNullable().concat(r.asNullable());
            case SEMI, ANTI -> l;
            case RIGHT_SEMI, RIGHT_ANTI -> r;
        };
    }

    /**
     * The right input ends in a build sink; the left input's pipeline waits for it and gets the
     * probe appended. One state key ties the two: the sink publishes the table under it.
     */
    @Override
    Plan withParameters(ParameterBinding binding) {
        return new JoinNode(binding.plan(left), binding.plan(right), type, binding.expr(on));
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        Schema l = left.deriveSchema(compiler.catalog());
        Schema r = right.deriveSchema(compiler.catalog());
        Keys keys = bindKeys(l, r);
        StateKey<HashJoinTable> table = compiler.newKey("hash-join", HashJoinTable.class);
        // The residual reads the build rows' columns, whichever side the join emits.
        DataType[] payload = type.emitsRight() || keys.residual() != null ? types(r) : new DataType[0];
        // Lesson 1's baseline is PostgreSQL 12's executor, which stored the match bit on every match
        // of every hash join, whether or not its type ever read it.
        boolean matchFlags = type.needsMatchFlags() || compiler.settings().matchFlags() == MatchFlags.ALWAYS_WRITE;
        HashJoinBuildSink buildSink = new HashJoinBuildSink(table, label(), keys.rightKeys(), payload, matchFlags);
        Optional<ExchangeKind.Forward> coLocated = coLocated(compiler, keys);
        if (coLocated.isPresent()) {
            // Both sides sit by the hash of a key pair already: each node joins its own parts.
            HashJoinProbeOperator probe = new HashJoinProbeOperator(table, type, keys.leftKeys(), keys.residual(),
                    types(l), compiler.settings().matchFlags(), true);
            Pipeline build = right.compile(compiler).into(buildSink);
            return left.compile(compiler)
                    .dependsOn(build, coLocated.get(), right)
                    .then(probe)
                    .branch(new SpilledPartitionsSource(probe));
        }
        if (repartitions(compiler)) {
            // Each node's share of the probe side, by the hash of its keys, is kept whole and then probed.
            StateKey<CollectSink.Collected> probeSide = compiler.newKey("probe-side", CollectSink.Collected.class);
            CollectSink keptSink = new CollectSink(probeSide, "the probe side of " + label());
            ExchangeKind.Repartition byLeftKeys = new ExchangeKind.Repartition(keys.leftKeys());
            Pipeline build;
            Pipeline kept;
            ExchangeKind buildRead;
            if (sidesRepartitionAlike(compiler.catalog(), keys)) {
                // A self join on the same columns: each node builds from its kept share, repartitioned once.
                kept = left.compile(compiler).into(keptSink);
                build = compiler.source(new CollectedScanSource(probeSide)).dependsOn(kept, byLeftKeys, left)
                        .into(buildSink);
                buildRead = new ExchangeKind.Forward("the probe side's repartition, reused: the same rows by the"
                        + " same keys");
            } else {
                build = right.compile(compiler).into(buildSink);
                kept = left.compile(compiler).into(keptSink);
                buildRead = new ExchangeKind.Repartition(keys.rightKeys());
            }
            HashJoinProbeOperator probe = new HashJoinProbeOperator(table, type, keys.leftKeys(), keys.residual(),
                    types(l), compiler.settings().matchFlags(), true);
            return compiler.source(new CollectedScanSource(probeSide))
                    .dependsOn(build, buildRead, right)
                    .dependsOn(kept, byLeftKeys, left)
                    .then(probe)
                    .branch(new SpilledPartitionsSource(probe));
        }
        HashJoinProbeOperator probe = new HashJoinProbeOperator(table, type, keys.leftKeys(), keys.residual(),
                types(l), compiler.settings().matchFlags(), false);
        Pipeline build = right.compile(compiler).into(buildSink);
        return left.compile(compiler)
                .dependsOn(build, new ExchangeKind.Broadcast(), right)
                .then(probe)
                .branch(new SpilledPartitionsSource(probe));
    }

    /**
     * Whether the two sides of this repartitioned join are the same rows going by the same columns (a self
     * join on one key, as TPC-DS's q95 joins web_sales to itself on its order number): then the probe side
     * crosses the nodes once and each node builds from its share of it, which halves what moves.
     */
    private boolean sidesRepartitionAlike(Catalog catalog, Keys keys) {
        return left.sameRowsAs(right, catalog) && ColumnExpression.sameColumns(keys.leftKeys(), keys.rightKeys());
    }

    /**
     * In a query spread over nodes (unless {@code troupe.spread.join} forces a broadcast), the Forward of a
     * join whose sides are co-located on a pair of its keys ({@link HashPlacement}): scans of tables
     * partitioned alike by those columns, filtered or projected since; empty for any other join.
     */
    private Optional<ExchangeKind.Forward> coLocated(PlanCompiler compiler, Keys keys) {
        if (!compiler.spread() || compiler.settings().spread().join() == TroupeSettings.JoinDistribution.BROADCAST) {
            return Optional.empty();
        }
        Optional<HashPlacement> probeSide = left.hashPlacement(compiler.catalog());
        Optional<HashPlacement> buildSide = right.hashPlacement(compiler.catalog());
        if (probeSide.isEmpty() || buildSide.isEmpty()) {
            return Optional.empty();
        }
        int k = probeSide.get().coLocatedPair(buildSide.get(), keys.leftKeys(), keys.rightKeys());
        return k < 0 ? Optional.empty() : Optional.of(new ExchangeKind.Forward("co-located: partitioned by hash of "
                + keys.leftKeys().get(k) + " and " + keys.rightKeys().get(k)));
    }

    /**
     * Whether this join, in a query spread over nodes, repartitions both sides by its keys rather than
     * broadcast its build side ({@code troupe.spread.join}; AUTO: a RIGHT or FULL join, which broadcast
     * would probe on the coordinator alone, or a build side reading more rows from its tables and series
     * than {@code broadcast-max-rows}, an upper bound of its size).
     */
    private boolean repartitions(PlanCompiler compiler) {
        if (!compiler.spread()) {
            return false;
        }
        TroupeSettings.Spread spread = compiler.settings().spread();
        return switch (spread.join()) {
            case BROADCAST -> false;
            case REPARTITION -> true;
            case AUTO -> type.needsMatchFlags() || inputRows(right, compiler.catalog()) > spread.broadcastMaxRows();
        };
    }

    /** The rows {@code plan} reads from its tables and series, all together. */
    private static long inputRows(Plan plan, Catalog catalog) {
        if (plan instanceof ScanNode scan) {
            return catalog.table(scan.table()).rowCount();
        }
        if (plan instanceof SeriesNode series) {
            return series.rows();
        }
        long rows = 0;
        for (Plan child : plan.children()) {
            rows = Math.min(Long.MAX_VALUE / 2, rows + inputRows(child, catalog));
        }
        return rows;
    }

    private static DataType[] types(Schema schema) {
        DataType[] types = new DataType[schema.size()];
        for (int c = 0; c < types.length; c++) {
            types[c] = schema.type(c);
        }
        return types;
    }
}
