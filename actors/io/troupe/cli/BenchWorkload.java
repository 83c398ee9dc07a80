package io.troupe.cli;

import io.troupe.cli.data.Benchmark;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.Tables;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;

/**
 * The workloads of {@code troupe bench} (docs/benchmarks.md): the tables each one
 * generates, how a SQL peer makes them, and the query it times, as a Troupe plan and as SQL. W1 and
 * W2 read one INT32 series of {@link BenchSize#rows()} rows, which a peer generates itself; W3
 * and STAR read TPC-DS tables at {@link BenchSize#scale()}, which a peer loads from the bench's
 * generated values. Used by {@code troupe bench} and {@code troupe loadtest}. Immutable (an enum), so threadsafe.
 */
public enum BenchWorkload {

    /** A self join on a unique key: {@code select count(*) from t t1 join t t2 using (i)}; returns N. */
    W1("t", "i", "select count(*) from t t1 join t t2 using (i)") {
        @Override
        public Plan query() {
            return Plan.scan("t").as("t1")
                    .join(Plan.scan("t").as("t2"), JoinType.INNER, col("t1.i").eq(col("t2.i")))
                    .aggregate(List.of(), count().as("count"))
                    .pin();
        }
    },

    /** Duplicates of a key that has none: a grouping of N groups whose HAVING keeps no row. */
    W2("pgbench_accounts", "aid", "select aid, count(*) from pgbench_accounts group by 1 having count(*) > 1") {
        @Override
        public Plan query() {
            return Plan.scan("pgbench_accounts")
                    .aggregate(List.of(col("aid")), count().as("count"))
                    .having(col("count").gt(lit(1L)))
                    .pin();
        }
    },

    /** TPC-DS query 2 over date_dim, web_sales and catalog_sales ({@link TpcdsQuery2}). */
    W3(TpcdsQuery2.TABLES, TpcdsQuery2.SQL) {
        @Override
        public Plan query() {
            return TpcdsQuery2.plan().pin();
        }
    },

    /** TPC-DS query 52 over store_sales, date_dim and item, a star join ({@link TpcdsStarQuery}). */
    STAR(TpcdsStarQuery.TABLES, TpcdsStarQuery.SQL) {
        @Override
        public Plan query() {
            return TpcdsStarQuery.plan().pin();
        }

        @Override
        public Plan literal() {
            return TpcdsStarQuery.literal();
        }
    };

    private final List<String> tableNames;
    /** The series column of W1 and W2; null for a workload over benchmark tables. */
    private final String column;
    private final String sql;

    /** A workload over one table {@code table}, a series 1..rows in column {@code column}. */
    BenchWorkload(String table, String column, String sql) {
        this.tableNames = List.of(table);
        this.column = column;
        this.sql = sql;
    }

    /** A workload over TPC-DS tables {@code tables}, generated at the bench's scale factor. */
    BenchWorkload(List<String> tables, String sql) {
        this.tableNames = tables;
        this.column = null;
        this.sql = sql;
    }

    /** The workload named {@code name} (w1, W2, ...), or null. */
    public static BenchWorkload parse(String name) {
        for (BenchWorkload w : values()) {
            if (w.name().equalsIgnoreCase(name.trim())) {
                return w;
            }
        }
        return null;
    }

    /** The lower-case name used on the command line and in results.csv. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The names of the tables the query reads. */
    public List<String> tableNames() {
        return tableNames;
    }

    /**
     * The tables the query reads, in Troupe's columnar form, made once per bench and registered
     * into every Troupe that runs the workload: one INT32 column = 1..rows for W1 and W2; W3 and STAR
     * generate their TPC-DS tables, with a progress bar on {@code progress}.
     */
    public List<Table> tables(BenchSize size, PrintWriter progress) throws InterruptedException {
        if (column == null) {
            return GenerateCommand.generateWithProgress(Benchmark.TPCDS, size.scale(), tableNames,
                    Runtime.getRuntime().availableProcessors(), progress).tables();
        }
        int[] values = new int[Math.toIntExact(size.rows())];
        for (int i = 0; i < values.length; i++) {
            values[i] = i + 1;
        }
        Schema schema = Schema.of(Field.of(column, DataType.INT32));
        return List.of(Tables.fromColumns(tableNames.get(0), schema, (Object) values));
    }

    /**
     * The SQL statement that creates the same table in a peer, when the peer can make it itself;
     * empty when the peer must load the values of {@link #tables} instead.
     */
    public Optional<String> createTableSql(BenchSize size) {
        if (column == null) {
            return Optional.empty();
        }
        return Optional.of("create or replace table " + tableNames.get(0) + " as select generate_series::int " + column
                + " from generate_series(1, " + size.rows() + ")");
    }

    /** How big its data is, for the chart's titles and the printed header: "1,000,000 rows", "SF 1". */
    public String size(BenchSize size) {
        if (column == null) {
            return "SF " + BigDecimal.valueOf(size.scale()).stripTrailingZeros().toPlainString();
        }
        return String.format(Locale.ROOT, "%,d rows", size.rows());
    }

    /** The query timed, as SQL for a peer. */
    public String sql() {
        return sql;
    }

    /**
     * The query timed, as a Troupe plan ordered by hand and {@link Plan#pin pinned}: the lessons' benchmarks measure
     * the executor on that plan, and engine {@code troupe-optimized} times the optimizer's plan beside it.
     */
    public abstract Plan query();

    /**
     * The query as a user may first write it with the Java API, unordered, for the optimizer to order
     * ({@code bench --optimize}); the plan of {@link #query} where that is how it is written already.
     */
    public Plan literal() {
        return query();
    }
}
