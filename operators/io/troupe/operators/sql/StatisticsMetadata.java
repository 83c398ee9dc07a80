package io.troupe.operators.sql;

import io.troupe.operators.table.ColumnStatistics;
import io.troupe.operators.table.TableStatistics;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/**
 * Calcite's row-count estimates from Troupe's {@link TableStatistics} where its defaults guess: the
 * selectivity of a predicate over a scan (equality 1/distinct, ranges by the column's least and greatest
 * value, IS NULL by its NULL count) and of a join's equalities (1 / the larger distinct count of the two
 * sides, so that a fact table joined with a filtered dimension shrinks as it does), and a scan's distinct
 * rows; and no column origins through an aggregate ({@link AggregateOrigins}). Everything else stays
 * Calcite's ({@link DefaultRelMetadataProvider}). {@link #PROVIDER} is made
 * once per JVM: Calcite compiles a provider's dispatch with Janino, some 100 ms each time.
 */
final class StatisticsMetadata {

    static final RelMetadataProvider PROVIDER = ChainedRelMetadataProvider.of(List.of(
            ReflectiveRelMetadataProvider.reflectiveSource(new StatisticsSelectivity(),
                    BuiltInMetadata.Selectivity.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(new StatisticsDistinctRows(),
                    BuiltInMetadata.DistinctRowCount.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(new AggregateOrigins(),
                    BuiltInMetadata.ColumnOrigin.Handler.class),
            DefaultRelMetadataProvider.INSTANCE));

    private StatisticsMetadata() {
    }

    /** The statistics of the table {@code scan} reads, or null for a table not of the catalog. */
    static TableStatistics of(TableScan scan) {
        CatalogSchema.Columns table = scan.getTable().unwrap(CatalogSchema.Columns.class);
        return table == null ? null : table.statistics();
    }

    /** The selectivity of {@code predicate} over the rows of a table with {@code stats}; null: true. */
    static double selectivity(TableStatistics stats, RexBuilder rex, RexNode predicate) {
        if (predicate == null) {
            return 1;
        }
        double product = 1;
        for (RexNode conjunct : RelOptUtil.conjunctions(RexUtil.expandSearch(rex, null, predicate))) {
            product *= conjunct(stats, rex, conjunct);
        }
        return product;
    }

    private static double conjunct(TableStatistics stats, RexBuilder rex, RexNode node) {
        if (node.getKind() == SqlKind.OR) {
            double none = 1;
            for (RexNode operand : ((RexCall) node).getOperands()) {
                none *= 1 - selectivity(stats, rex, operand);
            }
            return 1 - none;
        }
        if (node.getKind() == SqlKind.NOT) {
            return 1 - selectivity(stats, rex, ((RexCall) node).getOperands().get(0));
        }
        if (stats.rowCount() == 0 || !(node instanceof RexCall call)) {
            return RelMdUtil.guessSelectivity(node);
        }
        List<RexNode> operands = call.getOperands();
        if (operands.size() == 1 && operands.get(0) instanceof RexInputRef ref) {
            double nulls = (double) stats.column(ref.getIndex()).nulls() / stats.rowCount();
            return switch (node.getKind()) {
                case IS_NULL -> nulls;
                case IS_NOT_NULL -> 1 - nulls;
                default -> RelMdUtil.guessSelectivity(node);
            };
        }
        if (operands.size() != 2) {
            return RelMdUtil.guessSelectivity(node);
        }
        SqlKind kind = node.getKind();
        RexNode column = operands.get(0);
        RexNode value = operands.get(1);
        if (RexUtil.isConstant(column) && value instanceof RexInputRef) {
            column = operands.get(1);
            value = operands.get(0);
            kind = kind.reverse();
        }
        // A constant that is not a literal (TPC-DS q4's d_year = 2001 + 1) selects as one for an equality.
        if (!(column instanceof RexInputRef ref) || !RexUtil.isConstant(value)) {
            return RelMdUtil.guessSelectivity(node);
        }
        ColumnStatistics c = stats.column(ref.getIndex());
        double present = 1 - (double) c.nulls() / stats.rowCount();
        double equal = c.distinct() == 0 ? 0 : present / c.distinct();
        return switch (kind) {
            case EQUALS -> equal;
            case NOT_EQUALS -> present - equal;
            case LESS_THAN, LESS_THAN_OR_EQUAL -> present * below(c, value, node);
            case GREATER_THAN, GREATER_THAN_OR_EQUAL -> present * (1 - below(c, value, node));
            default -> RelMdUtil.guessSelectivity(node);
        };
    }

    /**
     * The share of a column's values below {@code value}, by where it falls between the least and the
     * greatest (values spread evenly); a guess where the column or the value is not a number or date literal.
     */
    private static double below(ColumnStatistics c, RexNode value, RexNode node) {
        if (!(value instanceof RexLiteral literal)) {
            return RelMdUtil.guessSelectivity(node);
        }
        Double lo = position(c.min());
        Double hi = position(c.max());
        Double at = literal.getValue() instanceof BigDecimal n ? n.doubleValue()
                : literal.getTypeName() == SqlTypeName.DATE ? (double) literal.getValueAs(Integer.class) : null;
        if (lo == null || hi == null || at == null) {
            return RelMdUtil.guessSelectivity(node);
        }
        if (hi <= lo) {
            return at > lo ? 1 : 0;
        }
        return Math.max(0, Math.min(1, (at - lo) / (hi - lo)));
    }

    /** A value as a point on a line: numbers as they are, dates as days since 1970 (as DATE literals are). */
    private static Double position(Object value) {
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        if (value instanceof LocalDate d) {
            return (double) d.toEpochDay();
        }
        return null;
    }
}
