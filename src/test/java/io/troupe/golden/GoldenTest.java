package io.troupe.golden;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.golden.PlanParser.ParsedPlan;
import io.troupe.operators.TroupeException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs every golden file under {@code src/test/resources/golden} (format: the README there).
 * Each case becomes a container of dynamic tests: one that runs its SQL in DuckDB and checks that
 * DuckDB agrees with the expected rows (or also rejects an error case), and one per
 * {@link Setting} that runs its plan in Troupe and checks the rows (or the error message).
 *
 * <p>{@code -Dtroupe.golden.write=true} first rewrites the expected rows of every query case
 * from DuckDB's answer, so nobody computes expected rows by hand; review the diff, then run
 * again without it.
 *
 * <p>Each Troupe test starts its own {@link Troupe}; DuckDB answers are computed once per file
 * (see {@link DuckDbOracle}), so the tests may run in any order.
 */
class GoldenTest {

    /** The golden files, read from the source tree so that write mode can update them. */
    static final Path ROOT = Path.of("src", "test", "resources", "golden");

    private static final boolean WRITE = Boolean.getBoolean("troupe.golden.write");

    /** One way of running every case; each must give the same rows. */
    record Setting(String name, int batchSize, int workers) {
    }

    /**
     * Batch size 1 puts every row in its own batch and chunk; 3 makes batches that do not divide
     * the tables evenly; the default is what users get. Tables are cut into chunks of the batch
     * size, so a scan yields batches of that size too. The last two run the plan over worker
     * actors (small batches, so that every worker gets morsels); the others on the leader alone.
     */
    static List<Setting> settings() {
        return List.of(
                new Setting("batch-size 1", 1, 0),
                new Setting("batch-size 3", 3, 0),
                new Setting("batch-size default", TroupeSettings.load().batchSize(), 0),
                new Setting("batch-size 3, workers 2", 3, 2),
                new Setting("batch-size 1, workers 4", 1, 4));
    }

    @TestFactory
    Stream<DynamicNode> goldenFiles() throws IOException {
        assertTrue(Files.isDirectory(ROOT), "golden files not found at " + ROOT.toAbsolutePath()
                + "; run the tests from the project root");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(ROOT)) {
            files = walk.filter(p -> p.toString().endsWith(".test")).sorted().collect(Collectors.toList());
        }
        assertFalse(files.isEmpty(), "no .test files under " + ROOT.toAbsolutePath());
        return files.stream().map(GoldenTest::fileNode);
    }

    private static DynamicNode fileNode(Path path) {
        String display = ROOT.relativize(path).toString().replace('\\', '/');
        GoldenFile file;
        try {
            file = GoldenFile.read(ROOT, path);
            if (WRITE) {
                file = writeExpected(path, file);
            }
        } catch (GoldenFormatException e) {
            return DynamicTest.dynamicTest(display, () -> {
                throw e;
            });
        }
        GoldenFile f = file;
        DuckDbAnswers duckDb = new DuckDbAnswers(file);
        return DynamicContainer.dynamicContainer(display,
                file.cases().stream().map(c -> caseNode(duckDb, f, c)));
    }

    /*
     * No test source URIs on these nodes: Surefire 3.5 drops dynamic tests whose container has a
     * file URI from its report (they run, but count as 0), so the line goes into the names instead.
     */
    private static DynamicNode caseNode(DuckDbAnswers duckDb, GoldenFile file, GoldenCase c) {
        List<DynamicNode> tests = new ArrayList<>();
        tests.add(DynamicTest.dynamicTest("duckdb", () -> checkDuckDb(duckDb, file, c)));
        for (Setting s : settings()) {
            tests.add(DynamicTest.dynamicTest("troupe " + s.name(), () -> checkTroupe(file, c, s)));
        }
        return DynamicContainer.dynamicContainer(c.title(), tests.stream());
    }

    // ------------------------------------------------------------------ DuckDB

    private static void checkDuckDb(DuckDbAnswers duckDb, GoldenFile file, GoldenCase c) throws SQLException {
        String where = file.name() + ".test:" + c.line();
        if (c.kind() == GoldenCase.Kind.ERROR) {
            if (c.sql() != null) {
                DuckDbOracle.Answer a = duckDb.answer(c);
                assertTrue(a.error() != null, () -> where + ": DuckDB accepted the SQL of this error case and returned "
                        + a.rows());
            }
            return;
        }
        DuckDbOracle.Answer a = duckDb.answer(c);
        if (a.error() != null) {
            throw new AssertionError(where + ": DuckDB failed on the case's SQL: " + a.error().getMessage(), a.error());
        }
        assertEquals(c.types().length(), a.columns(), where + ": DuckDB returns " + a.columns()
                + " columns, the query header declares " + c.types().length() + " (" + c.types() + ")");
        assertEquals(block(c.expected(), c.rowSort()), block(a.rows(), c.rowSort()),
                where + ": DuckDB disagrees with the expected rows; rewrite them with -Dtroupe.golden.write=true "
                        + "if the SQL is right\n" + c.sql());
    }

    /**
     * DuckDB's answers to all cases of one file, computed with one database on first use.
     * Threadsafe (synchronized), in case JUnit runs dynamic tests in parallel.
     */
    private static final class DuckDbAnswers {
        private final GoldenFile file;
        private Map<GoldenCase, DuckDbOracle.Answer> answers;

        DuckDbAnswers(GoldenFile file) {
            this.file = file;
        }

        synchronized DuckDbOracle.Answer answer(GoldenCase c) throws SQLException {
            if (answers == null) {
                answers = answerAll(file);
            }
            return answers.get(c);
        }
    }

    private static Map<GoldenCase, DuckDbOracle.Answer> answerAll(GoldenFile file) throws SQLException {
        List<GoldenCase> withSql = new ArrayList<>();
        for (GoldenCase c : file.cases()) {
            if (c.sql() != null) {
                withSql.add(c);
            }
        }
        List<DuckDbOracle.Answer> list = DuckDbOracle.run(file.tables(),
                withSql.stream().map(GoldenCase::sql).collect(Collectors.toList()));
        Map<GoldenCase, DuckDbOracle.Answer> map = new HashMap<>();
        for (int i = 0; i < withSql.size(); i++) {
            map.put(withSql.get(i), list.get(i));
        }
        return map;
    }

    // ------------------------------------------------------------------ Troupe

    private static void checkTroupe(GoldenFile file, GoldenCase c, Setting setting) {
        String where = file.name() + ".test:" + c.line() + " [" + setting.name() + "]";
        ParsedPlan parsed = PlanParser.parse(c.planText(), c.planLine(), file.name() + ".test");
        if (c.kind() == GoldenCase.Kind.QUERY && !c.rowSort() && !parsed.ordered()) {
            fail(where + ": exact row order needs a plan whose last row-reordering step is a sort "
                    + "(only as, filter, project, having or limit may follow it); otherwise use 'rowsort'");
        }
        TroupeSettings settings = TroupeSettings.load().withBatchSize(setting.batchSize());
        try (Troupe troupe = Troupe.start(settings)) {
            for (TableDef t : file.tables()) {
                troupe.register(t.build(setting.batchSize()));
            }
            if (c.kind() == GoldenCase.Kind.ERROR) {
                expectError(troupe, parsed, c, where, setting);
                return;
            }
            QueryResult result;
            try {
                result = troupe.execute(parsed.plan(), options(setting));
            } catch (TroupeException e) {
                throw new AssertionError(where + ": Troupe failed: " + e.getMessage() + "\n" + c.planText(), e);
            }
            assertEquals(c.types(), typeCodes(result.schema()), where + ": result column types "
                    + result.schema() + " do not match the query header");
            List<String> rows = new ArrayList<>();
            for (List<Object> row : result.rows()) {
                rows.add(GoldenValues.formatRow(row));
            }
            if (setting.workers() > 0 && limitOverUnorderedInput(c.planText(), parsed.ordered())) {
                // A LIMIT over an unordered input may keep any rows (SQL's rule): workers take morsels
                // in no fixed order, while the expected rows are DuckDB's, which keeps insertion order.
                assertEquals(c.expected().size(), rows.size(), () -> where + ": row count of an unordered limit");
                return;
            }
            assertEquals(block(c.expected(), c.rowSort()), block(rows, c.rowSort()),
                    () -> where + ": Troupe's rows differ from the expected rows\n" + troupe.explain(parsed.plan()));
        }
    }

    private static final Pattern LIMIT = Pattern.compile("\\blimit\\b");
    private static final Pattern SORT = Pattern.compile("\\bsort\\b");

    /** Whether a limit may keep any rows: one not below the plan's final sort. */
    static boolean limitOverUnorderedInput(String planText, boolean ordered) {
        Matcher limit = LIMIT.matcher(planText);
        if (!limit.find()) {
            return false;
        }
        if (!ordered) {
            return true;
        }
        int lastSort = -1;
        Matcher sort = SORT.matcher(planText);
        while (sort.find()) {
            lastSort = sort.start();
        }
        return limit.start() < lastSort;
    }

    /**
     * Whether {@code message} contains {@code expected}. With more than one worker, the row that fails
     * first is whichever a worker reaches first (as in DuckDB with threads), so a quoted value in the
     * expected text ({@code cannot cast 'hello' to INT32}) matches any quoted value.
     */
    static boolean matchesError(String message, String expected, int workers) {
        if (message.contains(expected)) {
            return true;
        }
        if (workers <= 1) {
            return false;
        }
        StringBuilder regex = new StringBuilder("(?s).*");
        String[] parts = expected.split("'[^']*'", -1);
        for (int i = 0; i < parts.length; i++) {
            regex.append(i == 0 ? "" : "'[^']*'").append(Pattern.quote(parts[i]));
        }
        return parts.length > 1 && message.matches(regex.append(".*").toString());
    }

    private static QueryOptions options(Setting setting) {
        return QueryOptions.defaults().withWorkers(setting.workers());
    }

    private static void expectError(Troupe troupe, ParsedPlan parsed, GoldenCase c, String where, Setting setting) {
        QueryResult result;
        try {
            result = troupe.execute(parsed.plan(), options(setting));
        } catch (TroupeException e) {
            String message = String.valueOf(e.getMessage());
            if (!matchesError(message, c.errorText(), setting.workers())) {
                throw new AssertionError(where + ": expected an error containing\n  " + c.errorText()
                        + "\nbut the message was\n  " + message, e);
            }
            return;
        }
        fail(where + ": expected an error containing '" + c.errorText() + "' but the plan ran and returned "
                + result.rowCount() + " rows");
    }

    private static String typeCodes(Schema schema) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < schema.size(); i++) {
            sb.append(GoldenValues.typeCode(schema.type(i)));
        }
        return sb.toString();
    }

    /** The rows as one text block (sorted for rowsort), so a mismatch shows as a readable diff. */
    private static String block(List<String> rows, boolean rowSort) {
        List<String> copy = new ArrayList<>(rows);
        if (rowSort) {
            copy.sort(null);
        }
        return String.join("\n", copy);
    }

    // ------------------------------------------------------------------ write mode

    private static GoldenFile writeExpected(Path path, GoldenFile file) {
        Map<GoldenCase, DuckDbOracle.Answer> answers;
        try {
            answers = answerAll(file);
        } catch (SQLException e) {
            throw new GoldenFormatException(file.name() + ".test", 1, "cannot load the tables into DuckDB: " + e);
        }
        Map<GoldenCase, List<String>> rows = new HashMap<>();
        for (GoldenCase c : file.cases()) {
            if (c.kind() != GoldenCase.Kind.QUERY) {
                continue;
            }
            DuckDbOracle.Answer a = answers.get(c);
            if (a.error() != null) {
                throw new GoldenFormatException(file.name() + ".test", c.line(),
                        "cannot write the expected rows: DuckDB failed on the SQL: " + a.error().getMessage());
            }
            List<String> answer = new ArrayList<>(a.rows());
            if (c.rowSort()) {
                answer.sort(null);
            }
            rows.put(c, answer);
        }
        try {
            Files.writeString(path, file.withExpected(rows), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new GoldenFormatException(file.name() + ".test", 1, "cannot write: " + e);
        }
        return GoldenFile.read(ROOT, path);
    }
}
