package io.troupe.actors.api;

import io.troupe.formats.csv.CsvOptions;
import io.troupe.operators.TroupeException;
import io.troupe.operators.types.DataType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link Troupe#register(String, Path)} and its variant with CSV options: a file becomes a table that SQL
 * queries, a CSV with its layout detected and a Parquet file (DuckDB writes it) with its own columns; a file that
 * fails to load (a bad value, a missing file, an unknown suffix) registers nothing.
 */
class RegisterFileTest {

    @Test
    void shouldRegisterAFileAsATableAndNothingWhenItFails(@TempDir Path dir) throws Exception {
        Path prices = Files.writeString(dir.resolve("prices.csv"), "day;item;price\n31.01.2024;a;1.5\n"
                + "01.02.2024;b;\n02.02.2024;c;2.25\n");
        Path bad = Files.writeString(dir.resolve("bad.csv"), "a\n" + "1\n".repeat(30) + "x\n");
        try (Troupe troupe = Troupe.start()) {
            troupe.register("prices", prices);
            assertEquals(List.of(List.of("day", "price")), List.of(List.of(
                    troupe.catalog().table("prices").schema().field(0).name(),
                    troupe.catalog().table("prices").schema().field(2).name())));
            assertEquals(List.of(List.of(2L, 3.75)), troupe.sql("SELECT count(price), sum(price) FROM prices "
                    + "WHERE day >= DATE '2024-01-31'").rows());

            troupe.register("texts", prices, CsvOptions.detect().withType("price", DataType.VARCHAR));
            assertEquals(List.of(List.of("1.5")), troupe.sql("SELECT min(price) FROM texts").rows());

            assertThrows(TroupeException.class,
                    () -> troupe.register("bad", bad, CsvOptions.detect().withSampleRows(10)));
            assertThrows(TroupeException.class, () -> troupe.register("missing", dir.resolve("missing.csv")));
            assertThrows(IllegalArgumentException.class, () -> troupe.register("data", dir.resolve("data.xlsx")));
            assertThrows(TroupeException.class, () -> troupe.register("nothing", dir.resolve("nothing.parquet")));

            Path parquet = dir.resolve("flights.parquet");
            try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                 Statement s = duck.createStatement()) {
                s.execute("COPY (SELECT i AS id, 'c' || (i % 3) AS carrier FROM range(10) t(i)) TO '" + parquet
                        + "' (FORMAT parquet)");
            }
            troupe.register("flights", parquet);
            assertEquals(List.of(List.of("c1", 3L)), troupe.sql("SELECT carrier, count(*) FROM flights "
                    + "WHERE carrier = 'c1' GROUP BY carrier").rows());
            assertFalse(troupe.catalog().contains("bad"));
            assertFalse(troupe.catalog().contains("missing"));
            assertFalse(troupe.catalog().contains("nothing"));
        }
    }
}
