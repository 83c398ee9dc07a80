package io.troupe.oracle;

import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The oracle loads every Troupe type and NULL through DuckDB's appender and reads them back unchanged. */
class DuckDbOracleTest {

    @Test
    void shouldLoadEveryTypeAndNullThroughTheAppender() throws SQLException {
        Schema schema = Schema.of(Field.of("i", DataType.INT32), Field.of("l", DataType.INT64),
                Field.of("f", DataType.FLOAT64), Field.of("d", DataType.decimal(9, 2)), Field.of("dt", DataType.DATE),
                Field.of("b", DataType.BOOLEAN), Field.of("s", DataType.VARCHAR));
        TableBuilder builder = new TableBuilder("every_type", schema, 2);
        builder.addRow(1, 10_000_000_000L, 1.25, new BigDecimal("-3.50"), LocalDate.of(1, 1, 1), true, "日本");
        builder.addRow(null, null, null, null, null, null, null);
        builder.addRow(-7, -1L, -0.5, new BigDecimal("0.01"), LocalDate.of(9999, 12, 31), false, "");
        Table table = builder.build();
        List<List<Object>> troupeRows = new ArrayList<>();
        table.chunks().forEach(b -> {
            for (int i = 0; i < b.size(); i++) {
                troupeRows.add(Arrays.asList(b.rowObjects(i)));
            }
        });
        try (DuckDbOracle oracle = new DuckDbOracle()) {
            oracle.load(List.of(table));
            DuckDbOracle.Result r = oracle.query("SELECT * FROM every_type");
            assertEquals(List.of("INTEGER", "BIGINT", "DOUBLE", "DECIMAL(9,2)", "DATE", "BOOLEAN", "VARCHAR"),
                    r.columnTypes());
            assertNull(ResultComparator.compare(r.rows(), DuckDbOracle.normalise(troupeRows), true));
            assertEquals(3, oracle.count("SELECT * FROM every_type"));
            // Loading another world replaces this one.
            oracle.load(List.of(table.renamed("other")));
            assertEquals(3, oracle.count("SELECT * FROM other"));
        }
    }
}
