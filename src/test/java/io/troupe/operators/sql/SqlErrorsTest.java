package io.troupe.operators.sql;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.table.Catalog;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a user reads when a statement cannot be planned: the line and column, the token or name at fault
 * with the statement's line and a caret under it, the nearest known table or column, and "unsupported in
 * SQL" for what Troupe does not run yet rather than an exception from inside Calcite.
 */
class SqlErrorsTest {

    private static final Catalog CATALOG = new Catalog();

    @BeforeAll
    static void tables() {
        SqlTables.generate(3).forEach(CATALOG::register);
    }

    private static SqlException error(String sql) {
        return assertThrows(SqlException.class,
                () -> new SqlPlanner(CATALOG, TroupeSettings.load().sql().joinOrderLimit(), java.time.ZoneOffset.UTC).plan(sql));
    }

    @Test
    void shouldPointAtTheUnexpectedTokenOfASyntaxError() {
        SqlException e = error("SELECT id,\n       qty\nFORM orders");
        assertEquals("syntax error: unexpected \"orders\" at line 3, column 6\n"
                + "  FORM orders\n"
                + "       ^", e.getMessage());
        assertEquals(3, e.line());
        assertEquals(6, e.column());
    }

    @Test
    void shouldSuggestTheNearestTable() {
        assertEquals("unknown table 'ordrs' (did you mean 'orders'?) at line 1, column 15\n"
                + "  SELECT * FROM ordrs\n"
                + "                ^", error("SELECT * FROM ordrs").getMessage());
    }

    @Test
    void shouldListTheTablesWhenNoneIsClose() {
        assertEquals("unknown table 'lineitem'; known tables: customers, orders, regions at line 1, column 15\n"
                + "  SELECT * FROM lineitem\n"
                + "                ^", error("SELECT * FROM lineitem").getMessage());
    }

    @Test
    void shouldSuggestTheNearestColumnOfTheTablesNamed() {
        assertEquals("unknown column 'amout' (did you mean 'amount'?) at line 1, column 10\n"
                + "  SELECT o.amout FROM orders o\n"
                + "           ^", error("SELECT o.amout FROM orders o").getMessage());
        assertTrue(error("SELECT nme FROM customers").getMessage().startsWith(
                "unknown column 'nme' (did you mean 'name'?) at line 1, column 8"));
    }

    @Test
    void shouldNameAnUnknownFunctionWhereItIs() {
        SqlException e = error("SELECT nosuch(qty) FROM orders");
        assertTrue(e.getMessage().startsWith(
                "No match found for function signature nosuch(<NUMERIC>) at line 1, column 8"),
                e.getMessage());
        assertEquals(1, e.line());
        assertEquals(8, e.column());
    }

    @Test
    void shouldSayWhichWindowFrameIsUnsupported() {
        SqlException e = error("SELECT id,\n  SUM(qty) OVER (ORDER BY id RANGE BETWEEN 2 PRECEDING AND CURRENT ROW)"
                + " AS n\nFROM orders");
        assertTrue(e.getMessage().startsWith("unsupported in SQL: RANGE frames with an offset (2 PRECEDING)"),
                e.getMessage());
    }

    @Test
    void shouldSayWhatElseIsUnsupported() {
        assertTrue(error("INSERT INTO regions SELECT * FROM regions").getMessage()
                .startsWith("unsupported in SQL: INSERT statements"));
        assertTrue(error("SELECT region, GROUP_ID() FROM customers GROUP BY ROLLUP(region)").getMessage()
                .startsWith("unsupported in SQL: GROUP_ID() at line 1, column 16"));
        assertTrue(error("SELECT CAST(amount AS DECIMAL(30, 2)) FROM orders").getMessage()
                .startsWith("unsupported in SQL: type DECIMAL(30, 2) (decimals hold at most 18 digits) "
                        + "at line 1, column 23"));
        assertTrue(error("SELECT odate + qty * INTERVAL '1' DAY FROM orders").getMessage()
                .startsWith("unsupported in SQL: date arithmetic with an interval that is not a literal"));
        assertTrue(error("SELECT id FROM orders WHERE odate < DATE '2024-01-01' + INTERVAL '1' HOUR").getMessage()
                .startsWith("unsupported in SQL: an interval of hours, minutes or seconds added to a DATE"));
        assertEquals("cannot plan SQL: not a literal: /(37, null)",
                error("SELECT 37 / - CAST(NULL AS INTEGER) * - 33").getMessage());
        assertTrue(error("SELECT name, NULL FROM regions").getMessage()
                .startsWith("unsupported in SQL: a NULL of no type (write CAST(NULL AS INTEGER) or another type)"));
    }
}
