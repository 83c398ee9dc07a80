package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.cli.data.Benchmark;
import io.troupe.cli.data.BenchmarkDataGenerator;
import io.troupe.cli.data.BenchmarkDataGenerator.GeneratedData;
import io.troupe.cli.data.GenerationProgress;
import io.troupe.config.TroupeSettings;
import io.troupe.oracle.DuckDbOracle;

import org.jline.terminal.Terminal;
import org.jline.terminal.impl.DumbTerminal;
import org.jline.utils.WriterOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code troupe sql} driven without a keyboard, in-process: {@code -c} and {@code -f} over TPC-H tables it
 * generates, and a session piped into stdin through its dumb terminal, their CSV, JSON and table output checked
 * against DuckDB's answers over the same generated rows (exact decimals printed with their scale, dates ISO);
 * {@code --load} of a folder of generated '|' files and a CSV file; an error's message with its caret, and its
 * exit status (1 with -c, the session going on in the shell). No timing is asserted.
 */
class SqlCommandTest {

    private static final String GENERATE = "tpch:0.01";
    private static final String TABLES = "nation,region,supplier,orders";
    /** Ordered statements whose every decimal column has scale 2 (TPC-H's money). */
    private static final List<String> STATEMENTS = List.of(
            "SELECT o_orderkey, o_orderdate, o_totalprice, o_orderstatus FROM orders WHERE o_orderkey < 200 "
                    + "ORDER BY o_orderkey",
            "SELECT n_name, r_name FROM nation JOIN region ON n_regionkey = r_regionkey ORDER BY n_name",
            "SELECT s_nationkey, COUNT(*) AS n, SUM(s_acctbal) AS total FROM supplier GROUP BY s_nationkey "
                    + "ORDER BY s_nationkey");

    private static GeneratedData data;
    private static DuckDbOracle duck;

    @BeforeAll
    static void generate() throws Exception {
        data = BenchmarkDataGenerator.generate(Benchmark.TPCH, 0.01, List.of(TABLES.split(",")), 2,
                new GenerationProgress());
        duck = new DuckDbOracle();
        duck.load(data.tables());
    }

    @AfterAll
    static void close() throws Exception {
        if (duck != null) {
            duck.close();
        }
    }

    @Test
    void shouldPrintCsvAsDuckDbAnswersWithC() throws Exception {
        CliRun r = CliRun.of(new TroupeCli(), "sql", "--generate", GENERATE, "--tables", TABLES, "--format", "csv",
                "--workers", "2", "-c", String.join(";\n", STATEMENTS));
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(expectedCsv(STATEMENTS), r.out());
        assertTrue(r.out().contains("1,1996-01-02,"), r.out()); // dbgen's first order's date, ISO
    }

    @Test
    void shouldPrintJsonAndTablesWithF(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("script.sql");
        Files.writeString(script, "-- region by key\nSELECT r_regionkey, r_name\n  FROM region\n ORDER BY r_regionkey;\n");
        CliRun json = CliRun.of(new TroupeCli(), "sql", "--generate", GENERATE, "--tables", "region", "--format",
                "json", "-f", script.toString());
        assertEquals(0, json.exitCode(), json.err());
        List<String> lines = new ArrayList<>(List.of("["));
        List<List<Object>> rows = duck.query("SELECT r_regionkey, r_name FROM region ORDER BY r_regionkey").rows();
        for (int i = 0; i < rows.size(); i++) {
            lines.add("{\"r_regionkey\":" + rows.get(i).get(0) + ",\"r_name\":\"" + rows.get(i).get(1) + "\"}"
                    + (i + 1 < rows.size() ? "," : ""));
        }
        lines.add("]");
        assertEquals(String.join("\n", lines) + "\n", json.out());
    }

    @Test
    void shouldRunAScriptPipedIntoTheShellAndStopAtItsFirstErrorWithOne() throws Exception {
        String session = STATEMENTS.get(1) + "\n;\n\\d region\n"
                + STATEMENTS.get(2).replace(" FROM ", "\n  FROM ") + ";\nSELECT nope FROM region;\n"
                + "SELECT 1 FROM region;\n";
        SqlCommand command = new SqlCommand();
        command.stdin = new ByteArrayInputStream(session.getBytes(StandardCharsets.UTF_8));
        CliRun r = CliRun.of(command, "--generate", GENERATE, "--tables", TABLES, "--format", "csv");
        assertEquals(1, r.exitCode(), r.err());
        String describe = "column,type,nullable\nr_regionkey,BIGINT,no\nr_name,VARCHAR,no\nr_comment,VARCHAR,no\n";
        assertEquals(expectedCsv(List.of(STATEMENTS.get(1))) + describe + expectedCsv(List.of(STATEMENTS.get(2))),
                r.out(), "the statement after the error must not run");
        assertTrue(r.err().contains("column \"nope\" does not exist"), r.err());
        assertTrue(r.err().contains("  SELECT nope FROM region\n         ^"), r.err());
    }

    @Test
    void shouldEndAPipedScriptWithZeroWhenEveryStatementRanAndRunItsLastWithoutASemicolon() throws Exception {
        SqlCommand command = new SqlCommand();
        command.stdin = new ByteArrayInputStream((STATEMENTS.get(1) + ";\n\\q\nSELECT nope FROM region;\n")
                .getBytes(StandardCharsets.UTF_8));
        CliRun quit = CliRun.of(command, "--generate", GENERATE, "--tables", TABLES, "--format", "csv");
        assertEquals(0, quit.exitCode(), quit.err());
        assertEquals(expectedCsv(List.of(STATEMENTS.get(1))), quit.out(), "nothing after \\q runs");
        command = new SqlCommand();
        command.stdin = new ByteArrayInputStream((STATEMENTS.get(1) + "\n").getBytes(StandardCharsets.UTF_8));
        CliRun last = CliRun.of(command, "--generate", GENERATE, "--tables", TABLES, "--format", "csv");
        assertEquals(0, last.exitCode(), last.err());
        assertEquals(expectedCsv(List.of(STATEMENTS.get(1))), last.out());
    }

    @Test
    void shouldGoOnAfterAnErrorWhenInteractive(@TempDir Path dir) throws Exception {
        StringWriter screen = new StringWriter();
        StringWriter err = new StringWriter();
        PrintWriter out = new PrintWriter(screen, true);
        String typed = "SELECT nope FROM region;\nSELECT r_name FROM region WHERE r_regionkey = 1;\n\\q\n";
        try (Troupe troupe = Troupe.start(TroupeSettings.load());
             Terminal terminal = new DumbTerminal("test", Terminal.TYPE_DUMB,
                     new ByteArrayInputStream(typed.getBytes(StandardCharsets.UTF_8)),
                     new WriterOutputStream(out, StandardCharsets.UTF_8), StandardCharsets.UTF_8)) {
            terminal.echo(false);
            data.tables().stream().filter(t -> t.name().equals("region")).forEach(troupe::register);
            SqlSession session = new SqlSession(troupe, QueryOptions.defaults(), ResultFormat.CSV,
                    SqlSession.Timing.OFF, terminal.writer(), new PrintWriter(err, true), false);
            SqlSession.Outcome outcome = SqlShell.run(terminal, session, dir.resolve("history"), SqlShell.Prompts.SHOWN);
            terminal.writer().flush();
            assertEquals(SqlSession.Outcome.QUIT, outcome);
        }
        assertTrue(err.toString().contains("column \"nope\" does not exist"), err.toString());
        assertTrue(screen.toString().contains("r_name\nAMERICA"), screen.toString());
    }

    @Test
    void shouldExplainAndExplainAnalyze() {
        CliRun r = CliRun.of(new TroupeCli(), "sql", "--generate", GENERATE, "--tables", "region,nation", "-c",
                "EXPLAIN SELECT n_name FROM nation JOIN region ON n_regionkey = r_regionkey WHERE r_name = 'ASIA';"
                        + "explain analyze SELECT COUNT(*) FROM nation");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("Hash Join INNER") && r.out().contains("Scan region"), r.out());
        assertTrue(r.out().contains("Scan nation") && r.out().contains("rows=25"), r.out());
    }

    @Test
    void shouldCreateInsertAndDropTablesPrintingTheRowsStored() {
        CliRun r = CliRun.of(new TroupeCli(), "sql", "--generate", GENERATE, "--tables", "region", "--format", "csv",
                "-c", "CREATE TABLE names (n VARCHAR, k INTEGER NOT NULL); INSERT INTO names VALUES ('x', 1), ('y', 2);"
                        + "INSERT INTO names SELECT r_name, r_regionkey FROM region; SELECT count(*) FROM names;"
                        + "DROP TABLE names");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("OK, 0 rows\nOK, 2 rows\nOK, 5 rows\ncount\n7\nOK, 0 rows\n", r.out());
    }

    @Test
    void shouldExitWithOneAtAnErrorInC() {
        CliRun r = CliRun.of(new TroupeCli(), "sql", "--generate", GENERATE, "--tables", "region", "-c",
                "SELECT r_name FROM region; SELECT r_nmae FROM region; SELECT 1 FROM region");
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().startsWith("ERROR: 42703: column \"r_nmae\" does not exist (did you mean \"r_name\"?) at "
                + "line 1, column 8\n"
                + "  SELECT r_nmae FROM region\n         ^"), r.err());
        assertTrue(r.out().endsWith("(5 rows)\n"), "the statement after the error must not run: " + r.out());
    }

    @Test
    void shouldLoadAFolderOfBenchmarkAndCsvFilesAndNameAMalformedLine(@TempDir Path dir) throws Exception {
        BenchmarkDataGenerator.writeDelimited(data, dir, 2);
        Files.writeString(dir.resolve("extra.csv"), "id INT32 NOT NULL,price DECIMAL(7,2),sold DATE\n1,2.50,2024-01-31\n");
        CliRun r = CliRun.of(new TroupeCli(), "sql", "--load", dir.toString(), "--format", "csv",
                "-c", STATEMENTS.get(2) + "; SELECT price, sold FROM extra");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(expectedCsv(List.of(STATEMENTS.get(2))) + "price,sold\n2.50,2024-01-31\n", r.out());
        Files.writeString(dir.resolve("extra.csv"), "id INT32 NOT NULL,price DECIMAL(7,2)\n1,2.50\n2,x\n");
        CliRun bad = CliRun.of(new TroupeCli(), "sql", "--load", dir.toString(), "-c", "SELECT 1 FROM region");
        assertEquals(1, bad.exitCode());
        assertTrue(bad.err().contains(dir.resolve("extra.csv") + ":3:"), bad.err());
    }

    @Test
    void shouldRefuseBadArgumentsWithTwo() {
        assertEquals(2, CliRun.of(new TroupeCli(), "sql", "--format", "xml", "-c", "SELECT 1").exitCode());
        assertEquals(2, CliRun.of(new TroupeCli(), "sql", "--generate", "tpch", "-c", "SELECT 1").exitCode());
        assertEquals(2, CliRun.of(new TroupeCli(), "sql", "-c", "SELECT 1", "-f", "x.sql").exitCode());
        assertEquals(2, CliRun.of(new TroupeCli(), "sql", "--tables", "nation", "-c", "SELECT 1").exitCode());
    }

    /** DuckDB's answers to {@code statements} as the CSV format prints them: decimals at scale 2, dates ISO. */
    private static String expectedCsv(List<String> statements) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (String sql : statements) {
            String select = sql.substring("SELECT ".length(), sql.indexOf(" FROM "));
            sb.append(Arrays.stream(select.split(",")).map(String::trim)
                    .map(c -> c.contains(" AS ") ? c.substring(c.indexOf(" AS ") + 4) : c)
                    .collect(Collectors.joining(","))).append('\n');
            for (List<Object> row : duck.query(sql).rows()) {
                sb.append(row.stream().map(v -> v == null ? "" : v instanceof BigDecimal d
                        ? d.setScale(2).toPlainString() : v.toString()).collect(Collectors.joining(","))).append('\n');
            }
        }
        return sb.toString();
    }
}
