package io.troupe.operators.sql;

import io.troupe.actors.api.Troupe;
import io.troupe.jdbc.TroupeDriver;

import net.hydromatic.sqllogictest.ISqlTestOperation;
import net.hydromatic.sqllogictest.OptionsParser;
import net.hydromatic.sqllogictest.SltSqlStatement;
import net.hydromatic.sqllogictest.SltTestFile;
import net.hydromatic.sqllogictest.SqlTestQuery;
import net.hydromatic.sqllogictest.TestStatistics;
import net.hydromatic.sqllogictest.executors.JdbcExecutor;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs sqllogictest files of SQLite's corpus (net.hydromatic:sql-logic-test) over a Troupe, through Troupe's JDBC
 * driver: the library parses each file ({@link SltTestFile}, which keeps the records for PostgreSQL's dialect and
 * drops those its {@code skipif}/{@code onlyif} mark for other engines) and checks each query's rows as its JDBC
 * executor does ({@link JdbcExecutor#validate}: values formatted by the I/R/T column types, sorted as the record
 * says, compared or hashed). Statements go through {@code Statement.execute}, that is {@code Troupe.sql}.
 *
 * <p>A query passes when its rows match, fails when they differ or it fails to run; a statement passes when it
 * runs, or fails where its record says it should. Either is skipped when Troupe refuses it as unsupported (SQLState
 * 0A000), or when it does not pass and names a table, view or index that a skipped statement would have made or
 * filled (which it then taints in turn: {@code INSERT INTO t6 SELECT * FROM t4} after t4's CREATE was skipped).
 * Skips and failures are counted by reason, the message's first clause. Between files every table is dropped.
 * Not threadsafe.
 */
final class SqlLogicTestRun implements AutoCloseable {

    /** One file's counts, statements and queries together. */
    record Counts(int passed, int failed, int skipped) {
        Counts plus(Counts other) {
            return new Counts(passed + other.passed, failed + other.failed, skipped + other.skipped);
        }
    }

    private static final String NAME = "slt";
    private static final Pattern TARGET = Pattern.compile(
            "(?i)\\b(?:TABLE|VIEW|INDEX|TRIGGER|INTO)\\s+(?:IF\\s+(?:NOT\\s+)?EXISTS\\s+)?(\\w+)");

    private final Troupe troupe;
    private final Connection connection;
    private final JdbcExecutor executor;
    private final OptionsParser.SuppliedOptions options;
    /** Skips by reason, over every file run. */
    private final Map<String, Integer> skipReasons = new TreeMap<>();
    /** Failures by reason, over every file run. */
    private final Map<String, Integer> failReasons = new TreeMap<>();

    SqlLogicTestRun(Troupe troupe) throws SQLException {
        this.troupe = troupe;
        TroupeDriver.register(NAME, troupe);
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        this.options = new OptionsParser(false, quiet, quiet).getOptions();
        this.executor = new JdbcExecutor(options, "jdbc:troupe:" + NAME, "", "") {
        };
        executor.establishConnection();
        this.connection = executor.getConnection();
    }

    Map<String, Integer> skipReasons() {
        return skipReasons;
    }

    Map<String, Integer> failReasons() {
        return failReasons;
    }

    /** Runs the corpus file {@code resource} (e.g. {@code test/select1.test}) over no tables. */
    Counts run(String resource) throws Exception {
        for (String table : troupe.catalog().names()) {
            troupe.catalog().drop(table);
        }
        SltTestFile file = new SltTestFile(resource);
        file.parse(options);
        int passed = 0;
        int failed = 0;
        int skipped = 0;
        // The tables, views and indexes that a skipped statement would have made or filled: what reads them is
        // skipped too, unless it passes anyway.
        Set<String> tainted = new HashSet<>();
        TestStatistics statistics = new TestStatistics(false, 0);
        for (ISqlTestOperation operation : file.fileContents) {
            String sql = operation instanceof SltSqlStatement statement ? statement.statement
                    : ((SqlTestQuery) operation).getQuery();
            String failure;
            try {
                failure = operation instanceof SltSqlStatement statement ? statement(statement)
                        : query((SqlTestQuery) operation, statistics);
            } catch (SQLFeatureNotSupportedException e) {
                skipped++;
                skipReasons.merge(reason(e), 1, Integer::sum);
                tainted.addAll(targets(sql));
                continue;
            }
            if (failure == null) {
                passed++;
            } else if (!Collections.disjoint(tainted, words(sql))) {
                skipped++;
                skipReasons.merge("reads a table that a skipped statement makes or fills", 1, Integer::sum);
                tainted.addAll(targets(sql));
            } else {
                failed++;
                failReasons.merge(failure, 1, Integer::sum);
            }
        }
        return new Counts(passed, failed, skipped);
    }

    /** Null when the query's rows are right; else why not. */
    private String query(SqlTestQuery query, TestStatistics statistics) throws SQLFeatureNotSupportedException {
        int before = statistics.getPassedTestCount();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(query.getQuery())) {
            executor.validate(query, rs, query.outputDescription, statistics);
            return statistics.getPassedTestCount() > before ? null : "wrong rows";
        } catch (SQLFeatureNotSupportedException e) {
            throw e;
        } catch (SQLException | NoSuchAlgorithmException e) {
            return e instanceof SQLException sql ? reason(sql) : e.toString();
        }
    }

    /** The names a statement makes or fills: after TABLE, VIEW, INDEX, TRIGGER or INTO. */
    private static Set<String> targets(String sql) {
        Set<String> names = new HashSet<>();
        Matcher m = TARGET.matcher(sql);
        while (m.find()) {
            names.add(m.group(1).toLowerCase(Locale.ROOT));
        }
        return names;
    }

    private static Set<String> words(String sql) {
        Set<String> words = new HashSet<>();
        for (String word : sql.toLowerCase(Locale.ROOT).split("[^a-z0-9_]+")) {
            words.add(word);
        }
        return words;
    }

    /** Null when the statement did as its record expects; else why not. */
    private String statement(SltSqlStatement statement) throws SQLFeatureNotSupportedException {
        try (Statement s = connection.createStatement()) {
            s.execute(statement.statement);
            return statement.shouldPass ? null : "a statement that should fail ran";
        } catch (SQLFeatureNotSupportedException e) {
            throw e;
        } catch (SQLException e) {
            return statement.shouldPass ? reason(e) : null;
        }
    }

    /** The first clause of an error's message: what, without where. */
    private static String reason(SQLException e) {
        String message = String.valueOf(e.getMessage()).strip().lines().findFirst().orElse("");
        message = message.replaceAll(" at line \\d+, column \\d+.*", "").replaceAll("'[^']*'", "'...'")
                .replaceAll("\\d+", "N");
        int cut = message.indexOf(" (");
        message = cut > 0 ? message.substring(0, cut) : message;
        return message.length() > 90 ? message.substring(0, 90) : message;
    }

    @Override
    public void close() throws SQLException {
        executor.closeConnection();
        TroupeDriver.unregister(NAME);
    }
}
