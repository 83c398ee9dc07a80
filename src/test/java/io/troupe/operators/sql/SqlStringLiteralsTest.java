package io.troupe.operators.sql;

import io.troupe.actors.api.Troupe;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * String literals beyond Latin-1 in SQL (Calcite's default charset is ISO-8859-1; Troupe sets UTF-8 in
 * config/saffron.properties): they plan, compare and concatenate as in DuckDB.
 */
class SqlStringLiteralsTest {

    private static SqlEngines engines;
    private static Troupe troupe;

    @BeforeAll
    static void load() throws Exception {
        engines = SqlEngines.over(StarTables.generate(3));
        troupe = engines.troupe();
    }

    @AfterAll
    static void close() throws Exception {
        if (engines != null) {
            engines.close();
        }
    }

    @Test
    void shouldRunStringLiteralsBeyondLatin1AsDuckDb() throws Exception {
        for (String sql : List.of(
                "SELECT id, '東京' AS city, state || '・' || '日本' AS label, length('ğüş') AS n FROM stores",
                "SELECT state, COUNT(*) FROM stores WHERE state <> '東京' AND state NOT LIKE '%日%' GROUP BY state")) {
            engines.assertSameRows(sql, troupe.planSql(sql));
        }
    }
}
