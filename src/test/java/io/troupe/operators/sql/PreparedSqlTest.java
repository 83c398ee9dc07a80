package io.troupe.operators.sql;

import io.troupe.actors.api.PreparedSql;
import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.types.DataType;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Prepared statements ({@link Troupe#prepareSql}): each statement is prepared once and run with several sets of
 * values, with 0 and 2 workers, against DuckDB running the same statement with the same values; the types
 * Calcite gives the parameters; and the errors for a wrong count or type of values, naming the parameter.
 */
class PreparedSqlTest {

    /** A statement and the sets of values it runs with. */
    private record Case(String sql, List<Object[]> runs) {
    }

    private static final List<Case> CASES = List.of(
            new Case("SELECT id, amount FROM orders WHERE qty > ? AND status = ?",
                    List.of(new Object[] {5, "open"}, new Object[] {2, "closed"}, new Object[] {0, null})),
            new Case("SELECT id, odate FROM orders WHERE amount > ? AND odate < ?",
                    List.of(new Object[] {new BigDecimal("500.25"), LocalDate.of(2024, 6, 1)},
                            new Object[] {900L, LocalDate.of(2025, 1, 1)})),
            new Case("SELECT o.id, c.name FROM orders o JOIN customers c ON o.cust = c.id "
                    + "WHERE c.score > ? AND c.region = ?",
                    List.of(new Object[] {0.5, "north"}, new Object[] {0.1, "east"})),
            new Case("SELECT status, COUNT(*) FROM orders WHERE cust < ? GROUP BY status HAVING COUNT(*) > ?",
                    List.of(new Object[] {100, 10}, new Object[] {250, 700L})),
            new Case("SELECT id, qty * CAST(? AS INTEGER) + 1 FROM orders WHERE id < ?",
                    List.of(new Object[] {3, 100L}, new Object[] {-2, 7L})),
            new Case("SELECT id FROM orders WHERE cust IN (SELECT id FROM customers WHERE region = ?) "
                    + "AND qty BETWEEN ? AND ?",
                    List.of(new Object[] {"south", 2, 6}, new Object[] {"west", 0, 9})),
            new Case("SELECT id, credit FROM customers WHERE active = ? OR credit < ?",
                    List.of(new Object[] {true, new BigDecimal("-100.125")}, new Object[] {false, -400_000})));

    private static SqlEngines engines;
    private static Troupe troupe;
    private static DuckDbOracle duck;

    @BeforeAll
    static void load() throws Exception {
        engines = SqlEngines.start(11);
        troupe = engines.troupe();
        duck = engines.duck();
    }

    @AfterAll
    static void close() throws Exception {
        if (engines != null) {
            engines.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> shouldMatchDuckDbWithTheSameValues() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Case c : CASES) {
            tests.add(DynamicTest.dynamicTest(c.sql(), () -> {
                PreparedSql statement = troupe.prepareSql(c.sql());
                for (Object[] values : c.runs()) {
                    List<List<Object>> expected = duck.query(c.sql(), values).rows();
                    for (int workers : new int[] {0, 2}) {
                        List<List<Object>> actual = DuckDbOracle.normalise(
                                statement.execute(QueryOptions.defaults().withWorkers(workers), values).rows());
                        assertNull(ResultComparator.compare(expected, actual, false),
                                () -> c.sql() + " with " + List.of(values) + "\n" + statement.explain(values));
                    }
                }
            }));
        }
        return tests.stream();
    }

    @Test
    void shouldTypeEachParameterByWhereItStands() {
        PreparedSql statement = troupe.prepareSql(
                "SELECT id FROM orders WHERE qty > ? AND status = ? AND amount < ? AND odate = ? AND id = ?");
        PreparedPlan prepared = statement.prepared();
        assertEquals(5, prepared.parameterCount());
        assertEquals(List.of(DataType.INT32, DataType.VARCHAR, DataType.decimal(12, 2), DataType.DATE,
                DataType.INT64), List.of(prepared.parameterType(1), prepared.parameterType(2),
                prepared.parameterType(3), prepared.parameterType(4), prepared.parameterType(5)));
        String open = labels(prepared.plan());
        assertTrue(open.contains("?1") && open.contains("?5"), open);
    }

    @Test
    void shouldBindWithoutPlanningAgain() {
        PreparedSql statement = troupe.prepareSql("SELECT id FROM orders WHERE qty > ?");
        String three = statement.explain(3);
        String seven = statement.explain(7);
        assertTrue(three.contains("(qty > 3)"), three);
        assertTrue(seven.contains("(qty > 7)"), seven);
        String open = labels(statement.prepared().plan());
        assertTrue(open.contains("(qty > ?1)"), open);
        assertEquals(0, statement.execute(9).rows().size());
        assertEquals(3000, statement.execute(-1).rows().size());
    }

    /** The labels of {@code plan}'s nodes, a line each. */
    private static String labels(Plan plan) {
        StringBuilder sb = new StringBuilder(plan.label()).append('\n');
        plan.children().forEach(child -> sb.append(labels(child)));
        return sb.toString();
    }

    @Test
    void shouldRefuseAWrongCountOfValues() {
        PreparedSql statement = troupe.prepareSql("SELECT id FROM orders WHERE qty > ? AND status = ?");
        SqlException e = assertThrows(SqlException.class, () -> statement.execute(5));
        assertEquals("the statement has 2 parameters (?), got 1 value: [5]", e.getMessage());
    }

    @Test
    void shouldRefuseAValueOfTheWrongTypeNamingItsParameter() {
        PreparedSql statement = troupe.prepareSql("SELECT id FROM orders WHERE qty > ? AND amount < ?");
        SqlException text = assertThrows(SqlException.class, () -> statement.execute("5", BigDecimal.ONE));
        assertEquals("parameter 1 of 2 is INT32: got String 5; pass an Integer", text.getMessage());
        SqlException rounded = assertThrows(SqlException.class, () -> statement.execute(5, new BigDecimal("1.005")));
        assertEquals("parameter 2 of 2 is DECIMAL(12,2): got BigDecimal 1.005; pass a value with at most 2 digits "
                + "after the point", rounded.getMessage());
        SqlException wide = assertThrows(SqlException.class, () -> statement.execute(5, 12_345_678_901L));
        assertEquals("parameter 2 of 2 is DECIMAL(12,2): got Long 12345678901; pass a value with at most 10 digits "
                + "before the point", wide.getMessage());
    }

    @Test
    void shouldAskToPrepareAStatementWithParameters() {
        SqlException e = assertThrows(SqlException.class, () -> troupe.sql("SELECT id FROM orders WHERE qty > ?"));
        assertEquals("the statement has 1 parameter(s) (?): prepare it and give their values with each execution",
                e.getMessage());
    }

    @Test
    void shouldRefuseAParameterOfNoType() {
        SqlException e = assertThrows(SqlException.class, () -> troupe.prepareSql("SELECT ? FROM orders"));
        assertTrue(e.getMessage().contains("line 1, column 8"), e.getMessage());
    }
}
