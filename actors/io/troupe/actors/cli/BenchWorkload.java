package io.troupe.actors.cli;

import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.Tables;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;

/**
 * The workloads of {@code troupe bench} (shared/design.md, "Benchmarks"): the table each one
 * generates, in Troupe as a plan and in a SQL peer as a statement, and the query it times, as a
 * Troupe plan and as SQL. Immutable (an enum), so threadsafe.
 */
enum BenchWorkload {

    /** A self join on a unique key: {@code select count(*) from t t1 join t t2 using (i)}; returns N. */
    W1("t", "i", "select count(*) from t t1 join t t2 using (i)") {
        @Override
        Plan query() {
            return Plan.scan("t").as("t1")
                    .join(Plan.scan("t").as("t2"), JoinType.INNER, col("t1.i").eq(col("t2.i")))
                    .aggregate(List.of(), count().as("count"));
        }
    },

    /** Duplicates of a key that has none: a grouping of N groups whose HAVING keeps no row. */
    W2("pgbench_accounts", "aid", "select aid, count(*) from pgbench_accounts group by 1 having count(*) > 1") {
        @Override
        Plan query() {
            return Plan.scan("pgbench_accounts")
                    .aggregate(List.of(col("aid")), count().as("count"))
                    .having(col("count").gt(lit(1L)));
        }
    };

    private final String table;
    private final String column;
    private final String sql;

    BenchWorkload(String table, String column, String sql) {
        this.table = table;
        this.column = column;
        this.sql = sql;
    }

    /** The workload named {@code name} (w1, W2, ...), or null. */
    static BenchWorkload parse(String name) {
        for (BenchWorkload w : values()) {
            if (w.name().equalsIgnoreCase(name.trim())) {
                return w;
            }
        }
        return null;
    }

    /** The lower-case name used on the command line and in results.csv. */
    String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    String table() {
        return table;
    }

    /**
     * The tables the query reads, in Troupe's columnar form, made once per bench and registered
     * into every Troupe that runs the workload: one INT32 column = 1..rows.
     */
    List<Table> tables(BenchSize size, PrintWriter progress) {
        int[] values = new int[Math.toIntExact(size.rows())];
        for (int i = 0; i < values.length; i++) {
            values[i] = i + 1;
        }
        return List.of(Tables.fromColumns(table, Schema.of(Field.of(column, DataType.INT32)), (Object) values));
    }

    /** The SQL statement that creates the same table in a peer. */
    String createTableSql(BenchSize size) {
        return "create or replace table " + table + " as select generate_series::int " + column
                + " from generate_series(1, " + size.rows() + ")";
    }

    /** The query timed, as SQL for a peer. */
    String sql() {
        return sql;
    }

    /** The query timed, as a Troupe plan. */
    abstract Plan query();
}
