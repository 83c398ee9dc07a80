package io.troupe.operators.udf;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.table.Table;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A Troupe with functions of its own and DuckDB, over the same tables, for the UDF tests that compare the two. */
record UdfEngines(Troupe troupe, DuckDbOracle duck) implements AutoCloseable {

    static UdfEngines over(TroupeSettings settings, List<Table> tables, Consumer<UserFunctions> functions)
            throws Exception {
        Troupe troupe = Troupe.start(settings);
        tables.forEach(troupe::register);
        functions.accept(troupe.functions());
        DuckDbOracle duck = new DuckDbOracle();
        duck.load(tables);
        return new UdfEngines(troupe, duck);
    }

    static QueryOptions options(int workers) {
        return QueryOptions.defaults().withWorkers(workers).withTimeout(Duration.ofSeconds(60));
    }

    /** Asserts that {@code actual} holds DuckDB's rows of {@code duckSql}, in order, and some. */
    void assertAgrees(String duckSql, List<List<Object>> actual) throws Exception {
        List<List<Object>> expected = duck.query(duckSql).rows();
        assertFalse(expected.isEmpty(), duckSql);
        assertNull(ResultComparator.compare(expected, DuckDbOracle.normalise(actual), true), duckSql);
    }

    /** Every query ended and its memory went back. */
    void assertReleased() {
        assertEquals(0, troupe.status().runningQueries(), troupe.status().toString());
        assertEquals(0, troupe.status().memoryInUseBytes(), troupe.status().toString());
    }

    @Override
    public void close() throws Exception {
        troupe.close();
        duck.close();
    }
}
