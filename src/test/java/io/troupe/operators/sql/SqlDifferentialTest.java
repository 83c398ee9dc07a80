package io.troupe.operators.sql;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * SQL through {@code troupe.sql} against DuckDB running the same text over the same generated tables
 * ({@link SqlTables}): one case per statement, covering what the SQL front end lowers (filters,
 * projections, every join kind, aggregates, sort with limit/offset, union, subqueries that decorrelate
 * into joins). Rows compare as multisets, in order where the statement orders them totally. Each
 * statement runs with 0 workers and with 2.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SqlDifferentialTest {

    /** A statement, and whether its ORDER BY fixes the order of every row. */
    private record Case(String sql, boolean ordered) {
    }

    private static final List<Case> CASES = new ArrayList<>();

    private static void multiset(String sql) {
        CASES.add(new Case(sql, false));
    }

    private static void ordered(String sql) {
        CASES.add(new Case(sql, true));
    }

    static {
        // filters
        multiset("SELECT id, amount FROM orders WHERE qty > 5");
        multiset("SELECT id FROM orders WHERE qty > 5 AND status = 'open'");
        multiset("SELECT id, status, amount FROM orders WHERE status = 'open' OR amount > 900");
        multiset("SELECT id FROM orders WHERE NOT (qty < 3)");
        multiset("SELECT id, cust FROM orders WHERE status IS NULL");
        multiset("SELECT id FROM orders WHERE amount IS NOT NULL AND cust IS NULL");
        multiset("SELECT id, qty FROM orders WHERE qty BETWEEN 3 AND 7");
        multiset("SELECT id FROM orders WHERE qty NOT BETWEEN 3 AND 7");
        multiset("SELECT id, cust FROM orders WHERE cust IN (1, 2, 3, 50, 199, 240)");
        multiset("SELECT id, status FROM orders WHERE status NOT IN ('open', 'closed')");
        multiset("SELECT id, cust FROM orders WHERE cust IN (0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, "
                + "45, 48, 51, 54, 57, 60, 63, 66, 69, 72, 75, 78, 81, 84, 87, 90)");
        multiset("SELECT id FROM orders WHERE status LIKE 'o%'");
        multiset("SELECT id, name FROM customers WHERE name LIKE '_a%' OR name NOT LIKE '%1%'");
        multiset("SELECT id, odate FROM orders WHERE odate >= DATE '2024-03-01' AND odate < DATE '2024-06-01'");
        multiset("SELECT id, amount FROM orders WHERE amount > 100.50 AND amount <= 250");
        multiset("SELECT id FROM orders WHERE id % 7 = 3");
        multiset("SELECT id, score FROM customers WHERE score > 0.5");
        multiset("SELECT id, status FROM orders WHERE status <> 'open'");
        multiset("SELECT id, credit FROM customers WHERE credit < 0 OR since < DATE '2016-01-01'");
        multiset("SELECT id, active FROM customers WHERE active");
        multiset("SELECT id FROM customers WHERE NOT active OR active IS NULL");
        multiset("SELECT id FROM customers WHERE active IS NOT TRUE AND (score > 0.3) IS TRUE");
        multiset("SELECT id, active = (score > 0.5), active IS FALSE, active IS NOT FALSE FROM customers");
        multiset("SELECT id, odate FROM orders WHERE odate > '2024-05-01'");
        multiset("SELECT id FROM orders WHERE cust IS NOT DISTINCT FROM qty OR status IS NOT DISTINCT FROM NULL");
        multiset("SELECT id, status IS DISTINCT FROM 'open', cust IS DISTINCT FROM id FROM orders");
        // correlated on an inequality: decorrelated into a join on the correlation value, NULL matching NULL
        multiset("SELECT id, (SELECT count(*) FROM orders x WHERE x.qty <= o.qty) FROM orders o");
        multiset("SELECT id FROM orders o WHERE amount > (SELECT avg(amount) FROM orders x WHERE x.cust <= o.cust)");
        multiset("SELECT id, CASE WHEN qty > (SELECT avg(qty) FROM orders x WHERE x.cust < o.cust) THEN 1 ELSE 0 END "
                + "FROM orders o");
        // projections
        multiset("SELECT id, abs(qty - 5), abs(amount - 500), abs(cust - 100) FROM orders");
        multiset("SELECT id, abs(score - 0.5), abs(credit) FROM customers");
        multiset("SELECT id, qty * 2 + 1 AS q, amount * 2, -qty FROM orders");
        multiset("SELECT id, amount - 10.25, amount * qty, cust + id FROM orders");
        multiset("SELECT id, CASE WHEN qty > 5 THEN 'big' WHEN qty > 2 THEN 'mid' ELSE 'small' END FROM orders");
        multiset("SELECT id, CASE status WHEN 'open' THEN 1 WHEN 'closed' THEN 2 END FROM orders");
        multiset("SELECT id, COALESCE(status, 'none'), COALESCE(cust, -1) FROM orders");
        multiset("SELECT id, UPPER(name), LOWER(region), CHAR_LENGTH(name) FROM customers");
        multiset("SELECT id, SUBSTRING(name FROM 2 FOR 3) FROM customers");
        multiset("SELECT id, EXTRACT(YEAR FROM odate), EXTRACT(MONTH FROM odate), EXTRACT(DAY FROM odate) FROM orders");
        multiset("SELECT id, ROUND(score, 2), CAST(id AS BIGINT), CAST(credit AS DOUBLE) FROM customers");
        multiset("SELECT id, 1, 2.50, 'x', DATE '2024-01-01', TRUE, CAST(NULL AS INTEGER) FROM customers WHERE id < 3");
        multiset("SELECT id, CAST(odate AS VARCHAR), CAST(qty AS VARCHAR), CAST('42' AS INTEGER) FROM orders");
        multiset("SELECT id, qty > 5 AS big, status IS NULL AS missing FROM orders");
        // joins
        multiset("SELECT o.id, c.name FROM orders o JOIN customers c ON o.cust = c.id");
        multiset("SELECT o.id, c.name FROM orders o, customers c WHERE o.cust = c.id AND c.region = 'north'");
        multiset("SELECT c.id, o.id FROM customers c LEFT JOIN orders o ON o.cust = c.id");
        multiset("SELECT o.id, c.id FROM orders o RIGHT JOIN customers c ON o.cust = c.id");
        multiset("SELECT o.id, c.id, c.region FROM orders o FULL JOIN customers c ON o.cust = c.id");
        multiset("SELECT c.id, o.id FROM customers c LEFT JOIN orders o ON o.cust = c.id AND o.qty > 5");
        // two aggregates of one table joined on a key unique in one: not a self-join of the table's rows (TPC-DS q75)
        multiset("WITH s AS (SELECT qty, cust, COUNT(*) AS c FROM orders GROUP BY qty, cust) "
                + "SELECT p.qty, c.qty, c.cust, c.c FROM s c, s p WHERE c.cust = p.cust AND c.qty = 3");
        multiset("SELECT o.id, c.name, r.code FROM orders o JOIN customers c ON o.cust = c.id "
                + "JOIN regions r ON c.region = r.name WHERE o.qty < 4");
        multiset("SELECT o.id, c.id FROM orders o JOIN customers c ON o.cust = c.id AND o.qty > c.id % 10");
        multiset("SELECT a.id, b.id FROM orders a JOIN orders b ON a.id = b.id + 1 WHERE a.qty = b.qty");
        multiset("SELECT o.id, c.name FROM orders o JOIN customers c ON o.id = c.id");
        multiset("SELECT c.name, r.code FROM customers c LEFT JOIN regions r ON c.region = r.name");
        multiset("SELECT * FROM orders o JOIN customers c ON o.cust = c.id WHERE c.id < 20");
        multiset("SELECT x.id, c.name FROM (SELECT id, qty FROM orders UNION ALL SELECT id, qty FROM orders) x "
                + "JOIN customers c ON x.id = c.id");
        multiset("SELECT c.id, o.id FROM customers c LEFT JOIN orders o ON o.cust = c.id "
                + "WHERE o.qty > 5 OR o.qty IS NULL");
        multiset("SELECT o.id, c.id FROM orders o FULL JOIN customers c ON o.cust = c.id WHERE c.region = 'north'");
        // aggregates
        multiset("SELECT a.status, b.status, COUNT(*) FROM orders a JOIN orders b ON a.id = b.id + 1 "
                + "GROUP BY a.status, b.status");
        multiset("SELECT status, COUNT(*), SUM(amount), MIN(odate), MAX(qty), AVG(qty) FROM orders GROUP BY status");
        multiset("SELECT COUNT(*), COUNT(status), SUM(qty), AVG(amount), MIN(amount), MAX(odate) FROM orders");
        multiset("SELECT cust, COUNT(DISTINCT status) FROM orders GROUP BY cust");
        multiset("SELECT c.region, COUNT(*), SUM(o.amount) FROM orders o JOIN customers c ON o.cust = c.id "
                + "GROUP BY c.region HAVING COUNT(*) > 10");
        multiset("SELECT EXTRACT(YEAR FROM odate) AS y, status, COUNT(*) FROM orders "
                + "GROUP BY EXTRACT(YEAR FROM odate), status");
        multiset("SELECT SUM(amount * qty), SUM(score) FROM orders o JOIN customers c ON o.cust = c.id WHERE qty > 2");
        multiset("SELECT region, MIN(name), MAX(name), AVG(score), SUM(credit) FROM customers GROUP BY region");
        multiset("SELECT qty, status, COUNT(*) FROM orders WHERE cust IS NOT NULL GROUP BY qty, status");
        multiset("SELECT * FROM regions");
        multiset("SELECT status, COUNT(*) FROM orders GROUP BY 1 HAVING SUM(qty) > 100");
        multiset("SELECT qty AS q, COUNT(*) FROM orders GROUP BY q");
        multiset("SELECT COUNT(*), SUM(amount), MIN(status) FROM orders WHERE qty > 100");
        multiset("SELECT status, COUNT(*) FROM orders WHERE qty > 100 GROUP BY status");
        multiset("SELECT DISTINCT status, qty FROM orders");
        multiset("SELECT id FROM orders WHERE id != 5 AND qty <> 3");
        // sort, limit, offset
        ordered("SELECT cust, SUM(qty) AS s FROM orders GROUP BY cust ORDER BY 2 DESC, 1 NULLS FIRST LIMIT 7");
        ordered("SELECT id, amount FROM orders ORDER BY amount DESC NULLS LAST, id LIMIT 10");
        ordered("SELECT id, qty FROM orders ORDER BY id LIMIT 5 OFFSET 10");
        ordered("SELECT id, name FROM customers ORDER BY name, id");
        ordered("SELECT status, COUNT(*) AS c FROM orders GROUP BY status ORDER BY c DESC, status NULLS FIRST");
        ordered("SELECT id, odate FROM orders ORDER BY odate NULLS FIRST, id OFFSET 2990");
        ordered("SELECT id FROM orders ORDER BY qty * 2, id DESC LIMIT 20");
        ordered("SELECT id, status FROM orders ORDER BY odate NULLS LAST, amount DESC NULLS FIRST, id");
        ordered("SELECT c.name, o.id FROM orders o JOIN customers c ON o.cust = c.id "
                + "ORDER BY c.name DESC, o.id LIMIT 15");
        // union
        multiset("SELECT id FROM customers UNION ALL SELECT cust FROM orders WHERE cust IS NOT NULL");
        multiset("SELECT status FROM orders UNION SELECT region FROM customers");
        multiset("SELECT id FROM customers UNION ALL SELECT id FROM orders WHERE qty = 1");
        // subqueries and WITH
        multiset("SELECT id FROM orders WHERE cust IN (SELECT id FROM customers WHERE region = 'north')");
        multiset("SELECT c.id FROM customers c "
                + "WHERE EXISTS (SELECT 1 FROM orders o WHERE o.cust = c.id AND o.qty > 8)");
        multiset("SELECT c.id FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.cust = c.id)");
        multiset("SELECT o.id FROM orders o "
                + "WHERE o.qty > (SELECT AVG(o2.qty) FROM orders o2 WHERE o2.cust = o.cust)");
        multiset("SELECT s.status, s.n FROM (SELECT status, COUNT(*) AS n FROM orders GROUP BY status) s "
                + "WHERE s.n > 5");
        multiset("WITH big AS (SELECT cust, SUM(amount) AS total FROM orders GROUP BY cust) "
                + "SELECT c.name, b.total FROM big b JOIN customers c ON b.cust = c.id WHERE b.total > 3000");
        // joins without an equality: cross and non-equi joins, uncorrelated scalar subqueries, NOT IN with NULLs
        multiset("SELECT r.name, c.id FROM regions r CROSS JOIN customers c WHERE c.id < 6");
        multiset("SELECT r.code, c.id FROM customers c, regions r WHERE c.id < 4");
        multiset("SELECT o.id, c.id FROM orders o JOIN customers c ON o.qty > c.id WHERE c.id < 3");
        multiset("SELECT id, amount FROM orders WHERE amount > (SELECT AVG(amount) FROM orders)");
        multiset("SELECT id, (SELECT MAX(qty) FROM orders) AS m, (SELECT COUNT(*) FROM regions) FROM customers");
        multiset("SELECT c.id FROM customers c LEFT JOIN regions r ON TRUE WHERE c.id < 5");
        multiset("SELECT region, COUNT(*) FROM customers GROUP BY region "
                + "HAVING COUNT(*) > (SELECT COUNT(*) FROM customers) / 10");
        multiset("SELECT id FROM orders WHERE cust NOT IN (SELECT id FROM customers WHERE region = 'north')");
        multiset("SELECT id FROM customers WHERE id NOT IN (SELECT cust FROM orders WHERE qty > 8)");
        multiset("SELECT id FROM customers WHERE id NOT IN (SELECT cust FROM orders WHERE qty > 8 "
                + "AND cust IS NOT NULL)");
        multiset("SELECT id, cust FROM orders WHERE cust NOT IN (SELECT id FROM customers WHERE id > 1000)");
        multiset("SELECT id, cust IN (SELECT id FROM customers WHERE region = 'north') FROM orders");
        // WHERE's EXISTS, NOT EXISTS and IN as semi and anti joins: residuals, both build sides, nesting, NULLs
        multiset("SELECT o.id FROM orders o WHERE EXISTS (SELECT 1 FROM orders o2 WHERE o2.cust = o.cust "
                + "AND o2.id <> o.id AND o2.qty > o.qty)");
        multiset("SELECT o.id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM orders o2 WHERE o2.cust = o.cust "
                + "AND o2.id <> o.id AND o2.status = 'open')");
        multiset("SELECT c.id, c.name FROM customers c WHERE EXISTS (SELECT * FROM orders o WHERE o.cust = c.id "
                + "AND o.amount > c.credit) AND c.region <> 'west'");
        multiset("SELECT c.id FROM customers c WHERE NOT EXISTS (SELECT * FROM orders o WHERE o.cust = c.id "
                + "AND o.odate < DATE '2024-02-01') AND EXISTS (SELECT 1 FROM orders o WHERE o.cust = c.id)");
        multiset("SELECT o.id FROM orders o WHERE o.cust IN (SELECT c.id FROM customers c WHERE c.credit > o.amount)");
        multiset("SELECT id FROM orders WHERE (cust, qty) IN (SELECT cust, qty + 1 FROM orders WHERE status = 'open')");
        multiset("SELECT c.id FROM customers c WHERE c.id IN (SELECT o.cust FROM orders o "
                + "WHERE o.qty > 5 AND o.cust IN (SELECT id FROM customers WHERE region = 'north'))");
        multiset("SELECT r.code FROM regions r WHERE EXISTS (SELECT 1 FROM customers c WHERE c.region = r.name "
                + "AND EXISTS (SELECT 1 FROM orders o WHERE o.cust = c.id AND o.qty > 9))");
        // aggregates a join matches by key, reduced to the keys the other side has (GroupReduction)
        multiset("SELECT c.id, s.total, s.n FROM customers c JOIN (SELECT cust, SUM(amount) AS total, COUNT(*) AS n "
                + "FROM orders GROUP BY cust) s ON s.cust = c.id WHERE c.region = 'north' AND c.id < 40");
        multiset("SELECT o.id FROM orders o JOIN customers c ON o.cust = c.id WHERE c.region = 'north' "
                + "AND o.qty < (SELECT AVG(o2.qty) FROM orders o2 WHERE o2.cust = c.id)");
        // joins whose ON has more than equalities, or no equality at all: the residual decides with the keys
        multiset("SELECT c.id, o.id FROM customers c LEFT JOIN orders o ON o.cust = c.id AND o.qty > 8");
        multiset("SELECT c.id, o.id FROM orders o RIGHT JOIN customers c ON o.cust = c.id AND o.amount < c.credit");
        multiset("SELECT c.id, o.id FROM customers c FULL JOIN orders o ON o.cust = c.id AND o.status = 'open'");
        multiset("SELECT r.code, c.id FROM regions r LEFT JOIN customers c ON c.id < 4 AND c.region <> r.name");
        multiset("SELECT c.id, r.code FROM regions r RIGHT JOIN customers c ON c.credit < 100 * CHAR_LENGTH(r.name) "
                + "WHERE c.id < 30");
        // grouping sets, FILTER, INTERSECT and EXCEPT
        multiset("SELECT region, active, COUNT(*), SUM(credit) FROM customers GROUP BY ROLLUP(region, active)");
        multiset("SELECT status, qty > 5 AS big, COUNT(*), MAX(amount), GROUPING(status), GROUPING(status, qty > 5) "
                + "FROM orders GROUP BY CUBE(status, qty > 5)");
        multiset("SELECT status, cust % 3, SUM(qty) FROM orders GROUP BY GROUPING SETS ((status), (cust % 3), ())");
        multiset("SELECT c.region, o.status, COUNT(*) FROM orders o JOIN customers c ON o.cust = c.id "
                + "WHERE o.qty > 2 GROUP BY ROLLUP(c.region, o.status) HAVING COUNT(*) > 3");
        multiset("SELECT status, COUNT(*) FILTER (WHERE qty > 5), SUM(amount) FILTER (WHERE cust < 100), "
                + "AVG(qty) FILTER (WHERE status IS NULL) FROM orders GROUP BY status");
        multiset("SELECT cust FROM orders WHERE qty > 7 INTERSECT SELECT id FROM customers WHERE region = 'north'");
        multiset("SELECT cust, status FROM orders INTERSECT SELECT cust, status FROM orders WHERE qty = 3");
        multiset("SELECT id FROM customers EXCEPT SELECT cust FROM orders WHERE qty > 2");
        multiset("SELECT status, qty FROM orders EXCEPT SELECT status, qty FROM orders WHERE amount > 500");
        // PostgreSQL's and DuckDB's spellings: length, substr, ifnull
        multiset("SELECT id, LENGTH(name), SUBSTR(name, 2, 3), IFNULL(region, 'none') FROM customers");
        // string concatenation: || is NULL where an operand is, concat skips NULLs (DuckDB's and PostgreSQL's)
        multiset("SELECT c.id, o.id, name || '/' || region, concat(region, ', ', name), concat(region, status) "
                + "FROM customers c LEFT JOIN orders o ON o.cust = c.id");
        multiset("SELECT concat('store', region) AS r, COUNT(*) FROM customers WHERE name || 'x' LIKE '%1x' GROUP BY 1");
        // variances and standard deviations (DOUBLE; STDDEV and VARIANCE are the samples'), grouped and not
        multiset("SELECT status, STDDEV_SAMP(qty), STDDEV_POP(amount), VAR_SAMP(credit), VAR_POP(qty), STDDEV(amount), "
                + "VARIANCE(qty) FROM orders o LEFT JOIN customers c ON o.cust = c.id GROUP BY status");
        multiset("SELECT cust, VAR_SAMP(amount), STDDEV_SAMP(qty) / AVG(qty), COUNT(*) FROM orders GROUP BY cust");
        multiset("SELECT STDDEV_SAMP(score), VAR_POP(score), STDDEV_POP(credit + 1000000) FROM customers");
        // scalar subqueries not known to return one row: Calcite's SINGLE_VALUE (correlated ones decorrelate into
        // a join with it grouped by the correlation values)
        multiset("SELECT id, (SELECT name FROM customers c WHERE c.id = o.cust) FROM orders o");
        multiset("SELECT id FROM orders WHERE cust = (SELECT id FROM customers WHERE name = 'carla7' OR id = 7)");
        multiset("SELECT id, qty FROM orders WHERE qty > (SELECT DISTINCT code - 100 FROM regions WHERE name = 'east')");
        multiset("SELECT (SELECT region FROM customers WHERE id = 1000), COUNT(*) FROM orders");
        // DISTINCT inside sum, avg, min, max (and beside count(DISTINCT) and plain calls)
        multiset("SELECT status, SUM(DISTINCT qty), AVG(DISTINCT qty), COUNT(*), MAX(DISTINCT cust) FROM orders "
                + "GROUP BY status");
        multiset("SELECT SUM(DISTINCT cust), COUNT(DISTINCT status), SUM(qty) FROM orders");
        multiset("SELECT cust % 5, SUM(DISTINCT amount), AVG(DISTINCT amount) FROM orders GROUP BY cust % 5");
        // INTERSECT ALL and EXCEPT ALL keep multiplicities: the least count, the left's count less the right's
        multiset("SELECT cust, status FROM orders INTERSECT ALL SELECT cust, status FROM orders WHERE qty > 3");
        multiset("SELECT status, qty % 3 FROM orders EXCEPT ALL SELECT status, qty % 3 FROM orders WHERE qty > 6");
        multiset("SELECT cust FROM orders EXCEPT ALL SELECT id FROM customers EXCEPT ALL SELECT cust FROM orders "
                + "WHERE status = 'open'");
        multiset("SELECT region FROM customers INTERSECT ALL SELECT region FROM customers WHERE id % 2 = 0 "
                + "INTERSECT ALL SELECT region FROM customers WHERE active");
        // constant dates plus or minus intervals
        multiset("SELECT id FROM orders WHERE odate >= DATE '2024-03-01' - INTERVAL '1' MONTH "
                + "AND odate < DATE '2024-01-31' + INTERVAL '1' MONTH");
        multiset("SELECT id FROM orders WHERE odate BETWEEN DATE '2024-02-20' AND DATE '2024-02-20' + INTERVAL '10' DAY");
        // dates of a column plus or minus intervals (month ends clamp; NULL dates stay NULL)
        multiset("SELECT id, CAST(odate + INTERVAL '3' DAY AS DATE), CAST(odate - INTERVAL '1' MONTH AS DATE), "
                + "CAST(odate + INTERVAL '1' YEAR AS DATE) FROM orders");
        multiset("SELECT id FROM orders WHERE odate + INTERVAL '10' DAY > DATE '2024-03-01' "
                + "AND odate - INTERVAL '2' MONTH < DATE '2024-01-15'");
        ordered("SELECT CAST(DATE '2024-01-31' + INTERVAL '1' MONTH AS DATE), CAST(DATE '2024-03-31' - INTERVAL '1' "
                + "MONTH AS DATE), CAST(DATE '2023-12-31' + INTERVAL '14' MONTH AS DATE) FROM regions ORDER BY 1 LIMIT 1");
        // constants cast from text as the registry's functions' arguments (Calcite hands the text over uncast), and a
        // constant BOOLEAN cast to text, which Calcite's folding wrote TRUE (found by the random tests through SQL)
        multiset("SELECT id, abs(CAST('12' AS INTEGER)), trunc(CAST('-323' AS DECIMAL(3,0))), ceil(CAST('85.2' AS "
                + "DECIMAL(3,1))), greatest(CAST('-1.75' AS DECIMAL(3,2)), amount), round(CAST('1.555' AS DECIMAL(4,3)), "
                + "CAST('2' AS INTEGER)), greatest(CAST('true' AS BOOLEAN), qty > 5) FROM orders WHERE id < 20");
        multiset("SELECT id, CAST(TRUE AS VARCHAR), CAST(1 > 2 AS VARCHAR), CAST(active AS VARCHAR), "
                + "starts_with(CAST(TRUE AS VARCHAR), 't') FROM customers WHERE id < 20");
        // % of a DOUBLE is a DOUBLE, as in DuckDB (Calcite's cast the DOUBLE to DECIMAL(18,15), which failed past 999)
        multiset("SELECT id, score % 0.3, credit % CAST(4500.5 AS DOUBLE), score % 2, id % 7, credit % 7, "
                + "7000 % CAST(4500.5 AS DOUBLE) FROM customers");
        // (DuckDB's DATE + INTERVAL is a TIMESTAMP, SQL's a DATE: the CAST makes both a DATE)
        multiset("SELECT id, CAST(DATE '2023-02-28' + INTERVAL '1' YEAR AS DATE) FROM orders "
                + "WHERE odate < CAST('2024-03-01' AS DATE) - INTERVAL '14' DAY");
    }

    /** Each query's bound: a dynamic test is not under the class's {@code @Timeout}. */
    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(60);

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
    Stream<DynamicTest> shouldMatchDuckDb() {
        assertEquals(true, CASES.size() >= 40, "cases: " + CASES.size());
        return CASES.stream().flatMap(c -> Stream.of(0, 2).map(workers -> DynamicTest.dynamicTest(
                workers + " workers: " + c.sql(), () -> check(c, workers))));
    }

    /** A scalar subquery of several rows fails in both engines, with PostgreSQL's words in Troupe. */
    @Test
    void shouldFailAScalarSubqueryOfMoreThanOneRowAsDuckDbDoes() {
        String sql = "SELECT id, (SELECT id FROM customers c WHERE c.region = 'north') FROM orders";
        assertThrows(SQLException.class, () -> duck.query(sql));
        for (int workers : new int[] {0, 2}) {
            QueryFailedException e = assertThrows(QueryFailedException.class,
                    () -> troupe.sql(sql, QueryOptions.defaults().withWorkers(workers).withTimeout(QUERY_TIMEOUT)));
            assertEquals("more than one row returned by a subquery used as an expression", rootMessage(e));
        }
    }

    private static String rootMessage(Throwable e) {
        return e.getCause() == null ? e.getMessage() : rootMessage(e.getCause());
    }

    private static void check(Case c, int workers) throws Exception {
        List<List<Object>> expected = duck.query(c.sql()).rows();
        QueryResult result = troupe.sql(c.sql(), QueryOptions.defaults().withWorkers(workers)
                .withTimeout(QUERY_TIMEOUT));
        List<List<Object>> actual = DuckDbOracle.normalise(result.rows());
        assertNull(ResultComparator.compare(expected, actual, c.ordered()),
                () -> c.sql() + "\n" + troupe.explainSql(c.sql()));
    }
}
