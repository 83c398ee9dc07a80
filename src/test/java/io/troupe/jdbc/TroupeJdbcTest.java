package io.troupe.jdbc;

import io.troupe.actors.api.Troupe;
import io.troupe.operators.sql.SqlEngines;
import io.troupe.operators.sql.SqlTables;
import io.troupe.operators.types.Interval;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.Timeout;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLDataException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JDBC driver through plain JDBC code ({@link DriverManager}): rows against DuckDB's JDBC driver on the
 * same {@link SqlTables}, prepared statements with each setter, getters and their conversions, metadata,
 * errors and their SQLStates, and what closing and cancelling release.
 */
@Timeout(120)
class TroupeJdbcTest {

    private static final String NAME = "jdbc-test";
    private static final String URL = "jdbc:troupe:" + NAME;

    private static SqlEngines engines;
    private static Troupe troupe;
    private static DuckDbOracle duck;

    @BeforeAll
    static void load() throws Exception {
        engines = SqlEngines.start(17);
        troupe = engines.troupe();
        duck = engines.duck();
        TroupeDriver.register(NAME, troupe);
    }

    @AfterAll
    static void close() throws Exception {
        TroupeDriver.unregister(NAME);
        if (engines != null) {
            engines.close();
        }
    }

    /** Every row of {@code rs} through getObject, normalised as DuckDbOracle normalises its own. */
    private static List<List<Object>> rows(ResultSet rs) throws SQLException {
        int n = rs.getMetaData().getColumnCount();
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            Object[] row = new Object[n];
            for (int c = 1; c <= n; c++) {
                row[c - 1] = rs.getObject(c);
            }
            rows.add(Arrays.asList(row));
        }
        return DuckDbOracle.normalise(rows);
    }

    private static void assertSameRows(String sql, List<List<Object>> expected, List<List<Object>> actual) {
        assertNull(ResultComparator.compare(expected, actual, sql.contains("ORDER BY")), sql);
    }

    @Test
    void shouldMatchDuckDbThroughDriverManager() throws Exception {
        List<String> queries = List.of(
                "SELECT id, cust, amount, odate, status, qty FROM orders",
                "SELECT c.name, c.region, c.since, c.credit, c.score, c.active, o.id FROM customers c "
                        + "LEFT JOIN orders o ON o.cust = c.id WHERE c.id < 40",
                "SELECT status, COUNT(*) AS n, SUM(amount) AS total, AVG(qty) AS q FROM orders GROUP BY status "
                        + "ORDER BY status",
                "SELECT r.name, r.code, COUNT(c.id) FROM regions r JOIN customers c ON c.region = r.name "
                        + "GROUP BY r.name, r.code ORDER BY r.code");
        // The registered Troupe (the settings' workers), and a Troupe of the driver's own with the leader alone.
        try (Connection named = DriverManager.getConnection(URL);
             Connection own = DriverManager.getConnection("jdbc:troupe:?workers.default=0")) {
            SqlTables.generate(17).forEach(own.unwrap(Troupe.class)::register);
            for (String sql : queries) {
                List<List<Object>> expected = duck.query(sql).rows();
                for (Connection c : List.of(named, own)) {
                    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                        assertSameRows(sql, expected, rows(rs));
                    }
                }
            }
        }
    }

    @Test
    void shouldRunPreparedStatementsWithEachSetter() throws Exception {
        String sql = "SELECT id, amount, odate FROM orders WHERE qty > ? AND status = ? AND amount < ? "
                + "AND odate < ? AND id <= ?";
        String customers = "SELECT id, credit FROM customers WHERE active = ? AND score > ?";
        try (Connection c = DriverManager.getConnection(URL);
             PreparedStatement byOrder = c.prepareStatement(sql);
             PreparedStatement byCustomer = c.prepareStatement(customers)) {
            byOrder.setInt(1, 3);
            byOrder.setString(2, "open");
            byOrder.setBigDecimal(3, new BigDecimal("700.50"));
            byOrder.setDate(4, Date.valueOf("2024-09-01"));
            byOrder.setLong(5, 2500L);
            Object[] values = {3, "open", new BigDecimal("700.50"), LocalDate.of(2024, 9, 1), 2500L};
            List<List<Object>> expected = duck.query(sql, values).rows();
            assertFalse(expected.isEmpty(), "the values select no rows: the test would prove little");
            try (ResultSet rs = byOrder.executeQuery()) {
                assertSameRows(sql, expected, rows(rs));
            }
            // Values stay set across executions; setObject and setNull replace two of them.
            byOrder.setObject(4, LocalDate.of(2025, 1, 1));
            byOrder.setObject(1, 5);
            values[3] = LocalDate.of(2025, 1, 1);
            values[0] = 5;
            try (ResultSet rs = byOrder.executeQuery()) {
                assertSameRows(sql, duck.query(sql, values).rows(), rows(rs));
            }
            byOrder.setNull(2, Types.VARCHAR);
            try (ResultSet rs = byOrder.executeQuery()) {
                assertFalse(rs.next(), "status = NULL selects nothing");
            }
            byCustomer.setBoolean(1, true);
            byCustomer.setDouble(2, 0.25);
            try (ResultSet rs = byCustomer.executeQuery()) {
                assertSameRows(customers, duck.query(customers, true, 0.25).rows(), rows(rs));
            }
            // A whole number of another class fits an integer parameter; a string holding one does too.
            byOrder.setShort(1, (short) 3);
            byOrder.setString(5, "2500");
            byOrder.setString(2, "open");
            byOrder.setObject(4, Date.valueOf("2024-09-01"));
            try (ResultSet rs = byOrder.executeQuery()) {
                assertSameRows(sql, expected, rows(rs));
            }
            ParameterMetaData parameters = byOrder.getParameterMetaData();
            assertEquals(5, parameters.getParameterCount());
            assertEquals(List.of(Types.INTEGER, Types.VARCHAR, Types.DECIMAL, Types.DATE, Types.BIGINT),
                    List.of(parameters.getParameterType(1), parameters.getParameterType(2),
                            parameters.getParameterType(3), parameters.getParameterType(4),
                            parameters.getParameterType(5)));
            assertEquals(12, parameters.getPrecision(3));
            assertEquals(2, parameters.getScale(3));
            ResultSetMetaData columns = byOrder.getMetaData();
            assertEquals(List.of("id", "amount", "odate"), List.of(columns.getColumnName(1),
                    columns.getColumnName(2), columns.getColumnName(3)));
        }
    }

    @Test
    void shouldReturnEachTypesJavaClassAndConvertInGetters() throws Exception {
        String sql = "SELECT c.id, o.id AS oid, c.name, c.since, c.credit, c.score, c.active, o.amount "
                + "FROM customers c JOIN orders o ON o.cust = c.id "
                + "WHERE c.since IS NOT NULL AND c.credit IS NOT NULL AND c.score IS NOT NULL AND c.active IS NOT NULL "
                + "AND o.amount IS NOT NULL ORDER BY o.id LIMIT 1";
        List<Object> expected = duck.query(sql).rows().get(0);
        try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            assertEquals(1, rs.getRow());
            assertInstanceOf(Integer.class, rs.getObject(1));
            assertInstanceOf(Long.class, rs.getObject("OID"));
            assertInstanceOf(String.class, rs.getObject("name"));
            assertInstanceOf(Date.class, rs.getObject(4));
            assertInstanceOf(BigDecimal.class, rs.getObject(5));
            assertInstanceOf(Double.class, rs.getObject(6));
            assertInstanceOf(Boolean.class, rs.getObject(7));
            assertEquals(((Number) expected.get(0)).intValue(), rs.getInt(1));
            assertEquals(expected.get(1), rs.getLong("oid"));
            assertEquals(expected.get(2), rs.getString(3));
            assertEquals(Date.valueOf((LocalDate) expected.get(3)), rs.getDate(4));
            assertEquals(expected.get(3), rs.getObject(4, LocalDate.class));
            assertEquals(Timestamp.valueOf(((LocalDate) expected.get(3)).atStartOfDay()), rs.getTimestamp(4));
            assertEquals(0, ((BigDecimal) expected.get(4)).compareTo(rs.getBigDecimal(5)));
            assertEquals(rs.getBigDecimal(5).toPlainString(), rs.getString(5));
            assertEquals(3, rs.getBigDecimal(5).scale(), "a DECIMAL(9,3) keeps its scale");
            assertEquals((Double) expected.get(5), rs.getDouble(6), 0.0);
            assertEquals(expected.get(6), rs.getBoolean(7));
            // JDBC's conversions: a number read as another number or as text, a fraction dropped by getInt.
            assertEquals(((BigDecimal) expected.get(7)).longValue(), rs.getInt(8));
            assertEquals(((BigDecimal) expected.get(7)).doubleValue(), rs.getDouble(8), 1e-9);
            assertEquals(BigDecimal.valueOf(rs.getInt(1)), rs.getBigDecimal(1));
            assertEquals(String.valueOf(rs.getInt(1)), rs.getString(1));
            assertFalse(rs.wasNull());
            SQLException notADate = assertThrows(SQLException.class, () -> rs.getDate(1));
            assertEquals("07006", notADate.getSQLState());
            assertTrue(notADate.getMessage().contains("column 1 (id INT32)"), notADate.getMessage());
            assertEquals("42703", assertThrows(SQLException.class, () -> rs.getInt("nope")).getSQLState());
            assertEquals("07009", assertThrows(SQLException.class, () -> rs.getInt(9)).getSQLState());
            assertFalse(rs.next());
            assertTrue(rs.isAfterLast());
        }
        // An INTERVAL: the Interval record, its text, a Duration of a fixed length; set from a Duration or a Period.
        try (Connection c = DriverManager.getConnection(URL);
             PreparedStatement ps = c.prepareStatement("SELECT INTERVAL '1 month 2 days 03:00:00', "
                     + "TIMESTAMP '2024-01-31 10:00:00' + CAST(? AS INTERVAL), CAST(? AS INTERVAL) FROM regions LIMIT 1")) {
            ps.setObject(1, java.time.Period.ofMonths(1));
            ps.setObject(2, java.time.Duration.ofMinutes(90));
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(new Interval(1, 2, 3 * 3_600_000_000L), rs.getObject(1));
                assertEquals("1 month 2 days 03:00:00", rs.getString(1));
                assertEquals(Types.OTHER, rs.getMetaData().getColumnType(1));
                assertEquals("INTERVAL", rs.getMetaData().getColumnTypeName(1));
                assertEquals(LocalDateTime.of(2024, 2, 29, 10, 0), rs.getObject(2, LocalDateTime.class));
                assertEquals(java.time.Duration.ofMinutes(90), rs.getObject(3, java.time.Duration.class));
            }
        }
        // NULLs: getObject null, getInt 0, wasNull true after each.
        try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT CAST(NULL AS INTEGER), CAST(NULL AS DECIMAL(12,2)), "
                     + "CAST(NULL AS DATE), CAST(NULL AS VARCHAR) FROM regions")) {
            assertTrue(rs.next());
            assertEquals(0, rs.getInt(1));
            assertTrue(rs.wasNull());
            assertNull(rs.getBigDecimal(2));
            assertTrue(rs.wasNull());
            assertNull(rs.getDate(3));
            assertTrue(rs.wasNull());
            assertNull(rs.getString(4));
            assertTrue(rs.wasNull());
            assertFalse(rs.getBoolean(4));
        }
    }

    @Test
    void shouldDescribeResultsAndCatalogInMetaData() throws Exception {
        try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, amount, odate, status, qty * 2.5 AS x, cust FROM orders")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(6, md.getColumnCount());
            assertEquals("amount", md.getColumnLabel(2));
            assertEquals(List.of(Types.BIGINT, Types.DECIMAL, Types.DATE, Types.VARCHAR, Types.DECIMAL, Types.INTEGER),
                    List.of(md.getColumnType(1), md.getColumnType(2), md.getColumnType(3), md.getColumnType(4),
                            md.getColumnType(5), md.getColumnType(6)));
            assertEquals("DECIMAL", md.getColumnTypeName(2));
            assertEquals(12, md.getPrecision(2));
            assertEquals(2, md.getScale(2));
            assertEquals(ResultSetMetaData.columnNullable, md.isNullable(2));
            assertEquals(BigDecimal.class.getName(), md.getColumnClassName(2));
            assertEquals(Date.class.getName(), md.getColumnClassName(3));
        }
        try (Connection c = DriverManager.getConnection(URL)) {
            DatabaseMetaData md = c.getMetaData();
            assertEquals("Troupe", md.getDatabaseProductName());
            assertEquals(URL, md.getURL());
            assertFalse(md.isReadOnly());
            assertFalse(md.supportsTransactions());
            try (ResultSet tables = md.getTables(null, null, "%", new String[] {"TABLE"})) {
                List<String> names = new ArrayList<>();
                while (tables.next()) {
                    names.add(tables.getString("TABLE_NAME"));
                    assertEquals("troupe", tables.getString("TABLE_SCHEM"));
                    assertEquals("TABLE", tables.getString("TABLE_TYPE"));
                }
                assertEquals(List.of("customers", "orders", "regions"), names);
            }
            try (ResultSet tables = md.getTables(null, "troupe", "ORD%", null)) {
                assertTrue(tables.next());
                assertEquals("orders", tables.getString(3));
                assertFalse(tables.next());
            }
            try (ResultSet columns = md.getColumns(null, null, "orders", "%")) {
                List<String> described = new ArrayList<>();
                while (columns.next()) {
                    described.add(columns.getInt("ORDINAL_POSITION") + " " + columns.getString("COLUMN_NAME") + " "
                            + columns.getString("TYPE_NAME") + " " + columns.getInt("DATA_TYPE") + " "
                            + columns.getInt("COLUMN_SIZE") + "," + columns.getInt("DECIMAL_DIGITS") + " "
                            + columns.getString("IS_NULLABLE"));
                }
                assertEquals(List.of("1 id BIGINT -5 19,0 NO", "2 cust INTEGER 4 10,0 YES",
                        "3 amount DECIMAL 3 12,2 YES", "4 odate DATE 91 10,0 YES",
                        "5 status VARCHAR 12 2147483647,0 YES", "6 qty INTEGER 4 10,0 NO"), described);
            }
            try (ResultSet keys = md.getPrimaryKeys(null, null, "orders")) {
                assertEquals("PK_NAME", keys.getMetaData().getColumnName(6));
                assertFalse(keys.next());
            }
            // The schema getTables reports names its tables in SQL too.
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM troupe.regions")) {
                assertTrue(rs.next());
                assertEquals(5, rs.getInt(1));
            }
        }
    }

    @Test
    void shouldRunUpdatesToTheirCounts() throws Exception {
        try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
            assertEquals(0, s.executeUpdate("CREATE TABLE jdbc_made (id INTEGER NOT NULL, name VARCHAR)"));
            assertEquals(3, s.executeUpdate("INSERT INTO jdbc_made VALUES (1, 'a'), (2, 'b'), (3, NULL)"));
            assertFalse(s.execute("INSERT INTO jdbc_made (id) SELECT id + 10 FROM jdbc_made"));
            assertEquals(3, s.getUpdateCount());
            assertNull(s.getResultSet());
            assertFalse(s.getMoreResults());
            assertEquals(-1, s.getUpdateCount());
            assertEquals(6L, s.executeLargeUpdate("CREATE TABLE jdbc_copy AS SELECT * FROM jdbc_made"));
            assertTrue(s.execute("SELECT count(*), count(name) FROM jdbc_copy"));
            assertEquals(-1, s.getUpdateCount());
            assertEquals(List.of(List.of(6L, 2L)), rows(s.getResultSet()));
            assertEquals(0, s.executeUpdate("DROP TABLE jdbc_copy"));
            assertEquals(0, s.executeUpdate("DROP TABLE jdbc_made"));
            assertFalse(troupe.catalog().contains("jdbc_made"));
        }
    }

    @Test
    void shouldWriteUnlessMadeReadOnlyAndSaySo() throws Exception {
        try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
            assertFalse(c.isReadOnly());
            assertFalse(c.getMetaData().isReadOnly());
            assertEquals(0, s.executeUpdate("CREATE TABLE jdbc_written (id INTEGER)"));
            c.setReadOnly(true);
            assertTrue(c.isReadOnly());
            assertTrue(c.getMetaData().isReadOnly());
            SQLException refused = assertThrows(SQLException.class,
                    () -> s.executeUpdate("insert INTO jdbc_written VALUES (1)"));
            assertEquals("25006", refused.getSQLState());
            assertTrue(refused.getMessage().startsWith("cannot execute INSERT in a read-only connection"),
                    refused.getMessage());
            assertEquals(List.of(List.of(0L)), rows(s.executeQuery("SELECT count(*) FROM jdbc_written")));
            c.setReadOnly(false);
            assertEquals(1, s.executeUpdate("INSERT INTO jdbc_written VALUES (1)"));
            assertEquals(0, s.executeUpdate("DROP TABLE jdbc_written"));
        }
    }

    @Test
    void shouldSupportWhatItsMetadataSaysItSupports() throws Exception {
        try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
            DatabaseMetaData md = c.getMetaData();
            // Each answer against a statement that needs it: it runs where the answer is yes, fails where no.
            assertAnswer(s, md.supportsOuterJoins() && md.supportsLimitedOuterJoins(),
                    "SELECT c.id, o.id FROM customers c LEFT JOIN orders o ON o.cust = c.id");
            assertAnswer(s, md.supportsFullOuterJoins(),
                    "SELECT c.id, o.id FROM customers c FULL JOIN orders o ON o.cust = c.id");
            assertAnswer(s, md.supportsSubqueriesInComparisons(),
                    "SELECT id FROM orders WHERE qty > (SELECT min(qty) FROM orders)");
            assertAnswer(s, md.supportsSubqueriesInExists(),
                    "SELECT id FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.cust = c.id)");
            assertAnswer(s, md.supportsSubqueriesInIns(), "SELECT id FROM customers WHERE id IN (SELECT cust FROM orders)");
            assertAnswer(s, md.supportsSubqueriesInQuantifieds(),
                    "SELECT id FROM orders WHERE qty >= ALL (SELECT qty FROM orders)");
            assertAnswer(s, md.supportsCorrelatedSubqueries(),
                    "SELECT id FROM orders o WHERE qty > (SELECT avg(qty) FROM orders p WHERE p.cust = o.cust)");
            assertAnswer(s, md.supportsUnion() && md.supportsUnionAll(),
                    "SELECT id FROM orders UNION SELECT id FROM customers UNION ALL SELECT code FROM regions");
            assertAnswer(s, md.supportsGroupBy() && md.supportsGroupByUnrelated(),
                    "SELECT count(*) FROM orders GROUP BY status");
            assertAnswer(s, md.supportsOrderByUnrelated() && md.supportsExpressionsInOrderBy(),
                    "SELECT id FROM orders ORDER BY qty * 2");
            assertAnswer(s, md.supportsColumnAliasing() && md.supportsTableCorrelationNames(),
                    "SELECT o.id AS n FROM orders o");
            assertAnswer(s, md.supportsSchemasInDataManipulation(), "SELECT id FROM troupe.orders");
            assertAnswer(s, md.supportsLikeEscapeClause(), "SELECT id FROM orders WHERE status LIKE 'a!%' ESCAPE '!'");
            assertAnswer(s, md.supportsConvert(), "SELECT CONVERT(qty, VARCHAR) FROM orders");
            assertAnswer(s, md.supportsSelectForUpdate(), "SELECT id FROM orders FOR UPDATE");
            assertAnswer(s, md.supportsCoreSQLGrammar(), "UPDATE orders SET qty = 1");
            assertAnswer(s, md.supportsAlterTableWithAddColumn(), "ALTER TABLE orders ADD COLUMN x INTEGER");
            assertAnswer(s, md.supportsTransactions(), "BEGIN");
            assertFalse(md.supportsBatchUpdates());
            assertThrows(SQLException.class, () -> s.addBatch("SELECT 1"));
        }
    }

    /** Runs {@code sql} (a query, or a statement with an update count), which must succeed exactly when {@code said}. */
    private static void assertAnswer(Statement s, boolean said, String sql) {
        Executable run = () -> {
            if (s.execute(sql)) {
                rows(s.getResultSet());
            }
        };
        if (said) {
            assertDoesNotThrow(run, sql);
        } else {
            assertThrows(SQLException.class, run, sql);
        }
    }

    @Test
    void shouldMapErrorsToSqlStates() throws Exception {
        try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
            SQLException syntax = assertThrows(SQLException.class, () -> s.executeQuery("SELECT id FROM orders WHERE"));
            assertEquals("42601", syntax.getSQLState());
            assertTrue(syntax instanceof SQLSyntaxErrorException, syntax.toString());
            assertTrue(syntax.getMessage().contains("^"), syntax.getMessage());
            SQLException table = assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM ordrs"));
            assertEquals("42P01", table.getSQLState());
            assertTrue(table.getMessage().startsWith("relation \"ordrs\" does not exist (did you mean \"orders\"?) at "
                    + "line 1, column 15"), table.getMessage());
            assertEquals("42703", assertThrows(SQLException.class,
                    () -> s.executeQuery("SELECT amout FROM orders")).getSQLState());
            SQLException insert = assertThrows(SQLException.class, () -> s.executeQuery("INSERT INTO regions VALUES "
                    + "('x', 1)"));
            assertEquals("HY000", insert.getSQLState());
            assertEquals("HY000", assertThrows(SQLException.class,
                    () -> s.executeUpdate("SELECT 1 FROM regions")).getSQLState());
            assertEquals("42P07", assertThrows(SQLException.class,
                    () -> s.executeUpdate("CREATE TABLE regions (x INTEGER)")).getSQLState());
            SQLException value = assertThrows(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO regions VALUES ('x', 'abc')"));
            assertEquals("22P02", value.getSQLState());
            assertTrue(value instanceof SQLDataException, value.toString());
            SQLException notNull = assertThrows(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO regions (name) VALUES ('x')"));
            assertEquals("23502", notNull.getSQLState(), notNull.getMessage());
            assertTrue(notNull instanceof SQLIntegrityConstraintViolationException, notNull.toString());
            assertEquals("42883", assertThrows(SQLException.class,
                    () -> s.executeQuery("SELECT nosuch(qty) FROM orders")).getSQLState());
            assertEquals("42804", assertThrows(SQLException.class,
                    () -> s.executeQuery("SELECT id FROM orders WHERE qty")).getSQLState());
            assertEquals("42803", assertThrows(SQLException.class,
                    () -> s.executeQuery("SELECT id, qty FROM orders GROUP BY id")).getSQLState());
            try (ResultSet rs = s.executeQuery("SELECT qty * 2147483647 * 2147483647 FROM orders")) {
                SQLException overflow = assertThrows(SQLException.class, () -> rows(rs));
                assertEquals("22003", overflow.getSQLState(), overflow.getMessage());
            }
            try (ResultSet rs = s.executeQuery("SELECT CAST(status AS INTEGER) FROM orders")) {
                SQLException cast = assertThrows(SQLException.class, () -> rows(rs));
                assertEquals("22P02", cast.getSQLState(), cast.getMessage());
            }
            try (ResultSet rs = s.executeQuery("SELECT qty / (qty - qty) FROM orders")) {
                SQLException zero = assertThrows(SQLException.class, () -> rows(rs));
                assertEquals("22012", zero.getSQLState(), zero.getMessage());
            }
            try (ResultSet rs = s.executeQuery("SELECT (SELECT id FROM orders) FROM regions")) {
                SQLException many = assertThrows(SQLException.class, () -> rows(rs));
                assertEquals("21000", many.getSQLState(), many.getMessage());
            }
            try (PreparedStatement p = c.prepareStatement("SELECT id FROM orders WHERE qty > ? AND status = ?")) {
                p.setInt(1, 2);
                SQLException unset = assertThrows(SQLException.class, p::executeQuery);
                assertEquals("07001", unset.getSQLState());
                assertEquals("parameter 2 of 2 has no value: set it (setNull for NULL)", unset.getMessage());
                assertEquals("22023", assertThrows(SQLException.class, () -> p.setDouble(1, 2.5)).getSQLState());
                assertEquals("22003", assertThrows(SQLException.class, () -> p.setLong(1, 1L << 40)).getSQLState());
                SQLException notANumber = assertThrows(SQLException.class, () -> p.setString(1, "many"));
                assertEquals("07006", notANumber.getSQLState());
                assertTrue(notANumber.getMessage().startsWith("parameter 1 (INT32): String many"),
                        notANumber.getMessage());
                assertEquals("07009", assertThrows(SQLException.class, () -> p.setInt(3, 1)).getSQLState());
                assertThrows(SQLException.class, () -> p.executeQuery("SELECT 1 FROM regions"));
            }
            SQLException feature = assertThrows(SQLFeatureNotSupportedException.class, () -> s.addBatch("x"));
            assertTrue(feature.getMessage().startsWith("addBatch"), feature.getMessage());
        }
        SQLException unknown = assertThrows(SQLException.class,
                () -> DriverManager.getConnection("jdbc:troupe:nobody"));
        assertEquals("08001", unknown.getSQLState());
        assertTrue(unknown.getMessage().contains(NAME), unknown.getMessage());
        SQLException setting = assertThrows(SQLException.class,
                () -> DriverManager.getConnection("jdbc:troupe:?workers.defualt=2"));
        assertEquals("08001", setting.getSQLState());
        assertTrue(setting.getMessage().contains("troupe.workers.defualt"), setting.getMessage());
    }

    @Test
    void shouldReleaseQueriesOnCloseMaxRowsAndCancel() throws Exception {
        String sql = "SELECT id, amount FROM orders";
        try (Connection c = DriverManager.getConnection(URL)) {
            Statement s = c.createStatement();
            ResultSet first = s.executeQuery(sql);
            assertTrue(first.next());
            assertEquals(1, troupe.status().runningQueries(), "the query streams, its rest unread");
            first.close();
            assertEquals(0, troupe.status().runningQueries(), "closing the result set mid-stream ends the query");
            assertEquals("08003", assertThrows(SQLException.class, first::next).getSQLState());

            ResultSet second = s.executeQuery(sql);
            assertTrue(second.next());
            ResultSet third = s.executeQuery(sql);
            assertTrue(second.isClosed(), "the next execution closes the statement's open result set");
            assertTrue(third.next());
            s.close();
            assertTrue(third.isClosed(), "closing the statement closes its result set");
            assertEquals(0, troupe.status().runningQueries());

            Statement limited = c.createStatement();
            limited.setMaxRows(10);
            try (ResultSet rs = limited.executeQuery(sql)) {
                assertEquals(10, rows(rs).size());
                assertEquals(0, troupe.status().runningQueries(), "past maxRows the rest of the query is cancelled");
            }
            ResultSet open = limited.executeQuery(sql);
            assertTrue(open.next());
            c.close();
            assertTrue(limited.isClosed() && open.isClosed(), "closing the connection closes what it opened");
            assertEquals(0, troupe.status().runningQueries());
        }
        // The leader alone runs the query on the reader's thread, a batch (512 rows of orders) at a time: a
        // cancel before the next batch is pulled fails that pull.
        try (Connection c = DriverManager.getConnection("jdbc:troupe:?workers.default=0");
             Statement s = c.createStatement()) {
            Troupe own = c.unwrap(Troupe.class);
            SqlTables.generate(17).forEach(own::register);
            ResultSet rs = s.executeQuery(sql);
            assertTrue(rs.next());
            s.cancel();
            SQLException cancelled = assertThrows(SQLException.class, () -> rows(rs));
            assertEquals("57014", cancelled.getSQLState(), cancelled.getMessage());
            assertEquals(0, own.status().runningQueries());
        }
    }

    @Test
    void shouldShareTheDriversTroupeAmongItsConnectionsAndCloseItWithTheLast() throws Exception {
        assertTrue(ServiceLoader.load(Driver.class).stream().anyMatch(p -> p.type() == TroupeDriver.class),
                "META-INF/services/java.sql.Driver names the driver");
        String url = "jdbc:troupe:?workers.default=0&batch-size=64";
        Troupe first;
        try (Connection a = DriverManager.getConnection(url); Connection b = DriverManager.getConnection(url)) {
            first = a.unwrap(Troupe.class);
            assertSame(first, b.unwrap(Troupe.class));
            assertEquals(64, first.settings().batchSize());
            try (Connection other = DriverManager.getConnection("jdbc:troupe:?workers.default=0")) {
                assertNotSame(first, other.unwrap(Troupe.class), "other settings, another Troupe");
            }
        }
        assertThrows(IllegalStateException.class, () -> first.sql("SELECT 1 FROM regions"), "closed with the last");
        try (Connection again = DriverManager.getConnection(url)) {
            assertNotSame(first, again.unwrap(Troupe.class));
        }
        try (Connection named = DriverManager.getConnection(URL)) {
            assertSame(troupe, named.unwrap(Troupe.class));
        }
        try (Connection named = DriverManager.getConnection(URL); Statement s = named.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM regions")) {
            assertTrue(rs.next(), "a registered Troupe runs on after its connections closed");
        }
    }
}
