package io.troupe.operators.sql;

import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.table.Table;
import io.troupe.oracle.DuckDbOracle;

import java.util.List;

/** A Troupe and DuckDB holding the same tables, for the SQL tests that compare the two. */
public record SqlEngines(Troupe troupe, DuckDbOracle duck) implements AutoCloseable {

    /** Over the {@link SqlTables} of {@code seed}. */
    public static SqlEngines start(long seed) throws Exception {
        return over(SqlTables.generate(seed));
    }

    public static SqlEngines over(List<Table> tables) throws Exception {
        Troupe troupe = Troupe.start(TroupeSettings.load());
        tables.forEach(troupe::register);
        DuckDbOracle duck = new DuckDbOracle();
        duck.load(tables);
        return new SqlEngines(troupe, duck);
    }

    @Override
    public void close() throws Exception {
        troupe.close();
        duck.close();
    }
}
