package io.troupe.operators.sql;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.Field;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The result's columns that a statement does not name are named as PostgreSQL names them (its FigureColname rules,
 * which DuckDB does not follow: it names them after their text); the names a statement gives stay.
 */
class ColumnNamesTest {

    private static final Catalog CATALOG = new Catalog();

    @BeforeAll
    static void tables() {
        SqlTables.generate(5).forEach(CATALOG::register);
    }

    private static List<String> names(String sql) {
        return new SqlPlanner(CATALOG, TroupeSettings.load().sql().joinOrderLimit(), java.time.ZoneOffset.UTC).plan(sql).validate(CATALOG)
                .fields().stream().map(Field::name).toList();
    }

    @Test
    void shouldNameFunctionsAfterTheFunctionAndOtherExpressionsQuestionColumn() {
        assertEquals(List.of("count", "sum", "upper", "coalesce", "?column?", "?column?", "n"),
                names("SELECT count(*), sum(qty), upper(status), coalesce(qty, 0), qty + 1, 7, max(id) AS n "
                        + "FROM orders GROUP BY status, qty"));
        assertEquals(List.of("count", "row_number", "extract", "substring"),
                names("SELECT count(*) FILTER (WHERE qty > 1), row_number() OVER (ORDER BY status), "
                        + "EXTRACT(YEAR FROM odate), substring(status FROM 1 FOR 2) FROM orders GROUP BY status, odate"));
        assertEquals(List.of("lag", "last_value"), names("SELECT lag(qty) IGNORE NULLS OVER (ORDER BY id), "
                + "last_value(qty) RESPECT NULLS OVER (ORDER BY id) FROM orders"));
    }

    @Test
    void shouldNameCastsCasesAndSubqueriesAsPostgreSqlDoes() {
        assertEquals(List.of("qty", "int4", "status", "case", "max", "exists"),
                names("SELECT CAST(qty AS BIGINT), CAST(1 AS INTEGER), CASE WHEN qty > 1 THEN 'a' ELSE status END, "
                        + "CASE WHEN qty > 1 THEN 'a' ELSE 'b' END, (SELECT max(id) FROM orders), "
                        + "EXISTS (SELECT 1 FROM regions) FROM orders"));
    }

    @Test
    void shouldNameColumnReferencesAfterTheirColumnsEvenTwiceAndValuesColumnN() {
        assertEquals(List.of("id", "id", "qty"), names("SELECT o.id, id, qty FROM orders o ORDER BY 3"));
        assertEquals(List.of("column1", "column2"), names("VALUES (1, 'a'), (2, 'b')"));
        assertEquals(List.of("count"), names("SELECT count(*) FROM orders UNION ALL SELECT sum(qty) FROM orders "
                + "ORDER BY 1"));
        assertEquals(List.of("name", "code"), names("SELECT * FROM regions"));
    }
}
