package io.troupe.operators.sql;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.table.Catalog;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a user reads when a statement cannot be planned: PostgreSQL's words and SQLSTATE, the line and column, the
 * token or name at fault with the statement's line and a caret under it, the nearest known table or column, and
 * "unsupported in SQL" for what Troupe does not run yet rather than an exception from inside Calcite.
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
        assertEquals("syntax error at or near \"orders\" at line 3, column 6\n"
                + "  FORM orders\n"
                + "       ^", e.getMessage());
        assertEquals(3, e.line());
        assertEquals(6, e.column());
        assertEquals("42601", e.sqlState());
    }

    @Test
    void shouldWordSyntaxErrorsAsPostgreSql() {
        assertEquals("syntax error at or near \"SELEC\" at line 1, column 1\n  SELEC 1\n  ^", error("SELEC 1").getMessage());
        assertTrue(error("SELECT id FROM orders WHERE qty = )").getMessage()
                .startsWith("syntax error at or near \")\" at line 1, column 35"));
        assertTrue(error("SELECT id FROM orders WHERE").getMessage().startsWith("syntax error at end of input"));
        assertTrue(error("SELECT (1").getMessage().startsWith("syntax error at end of input"));
        assertTrue(error("SELECT 'abc FROM orders").getMessage()
                .startsWith("unterminated quoted string at or near \"'abc FROM orders\" at line 1, column 8"));
        assertEquals(SqlException.Kind.SYNTAX, error("SELECT \"abc").kind());
    }

    @Test
    void shouldSuggestTheNearestTable() {
        SqlException e = error("SELECT * FROM ordrs");
        assertEquals("relation \"ordrs\" does not exist (did you mean \"orders\"?) at line 1, column 15\n"
                + "  SELECT * FROM ordrs\n"
                + "                ^", e.getMessage());
        assertEquals("42P01", e.sqlState());
        assertEquals("missing FROM-clause entry for table \"x\" at line 1, column 8\n  SELECT x.id FROM orders\n"
                + "         ^", error("SELECT x.id FROM orders").getMessage());
    }

    @Test
    void shouldListTheTablesWhenNoneIsClose() {
        assertEquals("relation \"lineitem\" does not exist; known tables: customers, orders, regions at line 1, "
                + "column 15\n"
                + "  SELECT * FROM lineitem\n"
                + "                ^", error("SELECT * FROM lineitem").getMessage());
    }

    @Test
    void shouldSuggestTheNearestColumnOfTheTablesNamed() {
        SqlException qualified = error("SELECT o.amout FROM orders o");
        assertEquals("column \"o.amout\" does not exist (did you mean \"amount\"?) at line 1, column 10\n"
                + "  SELECT o.amout FROM orders o\n"
                + "           ^", qualified.getMessage());
        assertEquals("42703", qualified.sqlState());
        assertTrue(error("SELECT nme FROM customers").getMessage().startsWith(
                "column \"nme\" does not exist (did you mean \"name\"?) at line 1, column 8"));
        assertTrue(error("SELECT id FROM orders ORDER BY nope").getMessage().startsWith(
                "column \"nope\" does not exist"));
    }

    @Test
    void shouldNameAnUnknownFunctionWhereItIs() {
        SqlException e = error("SELECT nosuch(qty) FROM orders");
        assertTrue(e.getMessage().startsWith("function nosuch(numeric) does not exist at line 1, column 8"),
                e.getMessage());
        assertEquals(1, e.line());
        assertEquals(8, e.column());
        assertEquals("42883", e.sqlState());
    }

    @Test
    void shouldNameAnOperatorOrFunctionOfTheWrongTypesAndTheFormsItTakes() {
        SqlException operator = error("SELECT odate * qty FROM orders");
        assertTrue(operator.getMessage().startsWith("operator does not exist: date * integer (it takes "
                + "numeric * numeric, "), operator.getMessage());
        assertEquals("42883", operator.sqlState());
        SqlException arguments = error("SELECT round(qty, 1, 2) FROM orders");
        assertTrue(arguments.getMessage().startsWith("no function round(INTEGER, INTEGER, INTEGER); round takes "
                + "(DOUBLE), (DOUBLE, INTEGER),"), arguments.getMessage());
        assertEquals("42883", arguments.sqlState());
    }

    @Test
    void shouldWordTypeGroupingAndAmbiguityErrorsAsPostgreSql() {
        SqlException where = error("SELECT id FROM orders WHERE qty");
        assertTrue(where.getMessage().startsWith("argument of WHERE must be type boolean at line 1, column 29"),
                where.getMessage());
        assertEquals("42804", where.sqlState());
        SqlException grouped = error("SELECT id, qty FROM orders GROUP BY id");
        assertTrue(grouped.getMessage().startsWith("column \"qty\" must appear in the GROUP BY clause or be used in "
                + "an aggregate function at line 1, column 12"), grouped.getMessage());
        assertEquals("42803", grouped.sqlState());
        SqlException aggregate = error("SELECT id FROM orders WHERE count(*) > 1");
        assertTrue(aggregate.getMessage().startsWith("aggregate functions are not allowed in WHERE"),
                aggregate.getMessage());
        assertEquals("42803", aggregate.sqlState());
        SqlException ambiguous = error("SELECT id FROM orders a, orders b");
        assertTrue(ambiguous.getMessage().startsWith("column reference \"id\" is ambiguous at line 1, column 8"),
                ambiguous.getMessage());
        assertEquals("42702", ambiguous.sqlState());
        SqlException literal = error("SELECT 999999999999999999999999999999999999999");
        assertTrue(literal.getMessage().startsWith("numeric literal 999999999999999999999999999999999999999 is out of range"),
                literal.getMessage());
        assertEquals("22003", literal.sqlState());
    }

    @Test
    void shouldSayWhichWindowFrameIsUnsupported() {
        SqlException e = error("SELECT id,\n  SUM(qty) OVER (ORDER BY id RANGE BETWEEN 2.5 PRECEDING AND CURRENT ROW)"
                + " AS n\nFROM orders");
        assertTrue(e.getMessage().startsWith("unsupported in SQL: RANGE BETWEEN 2.5 PRECEDING AND CURRENT ROW: an "
                + "ORDER BY key of type "), e.getMessage());
    }

    @Test
    void shouldSayWhatElseIsUnsupported() {
        assertTrue(error("INSERT INTO regions SELECT * FROM regions").getMessage()
                .startsWith("unsupported in SQL: INSERT statements"));
        assertTrue(error("SELECT region, GROUP_ID() FROM customers GROUP BY ROLLUP(region)").getMessage()
                .startsWith("unsupported in SQL: GROUP_ID() at line 1, column 16"));
        assertTrue(error("SELECT CAST(amount AS DECIMAL(39, 2)) FROM orders").getMessage()
                .startsWith("unsupported in SQL: type DECIMAL(39, 2) (decimals hold at most 38 digits) "
                        + "at line 1, column 23"));
        assertTrue(error("SELECT id FROM orders WHERE odate < DATE '2024-01-01' + INTERVAL '1' HOUR").getMessage()
                .startsWith("unsupported in SQL: an interval of hours, minutes or seconds added to a DATE"));
        assertEquals("cannot plan SQL: not a literal: /(37, null)",
                error("SELECT 37 / - CAST(NULL AS INTEGER) * - 33").getMessage());
        assertTrue(error("SELECT name, NULL FROM regions").getMessage()
                .startsWith("unsupported in SQL: a NULL of no type (write CAST(NULL AS INTEGER) or another type)"));
    }
}
