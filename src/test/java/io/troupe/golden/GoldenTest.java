package io.troupe.golden;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.config.TroupeSettings.GatherTransport;
import io.troupe.config.TroupeSettings.MatchFlags;
import io.troupe.operators.TroupeException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.PlanParser;
import io.troupe.operators.plan.PlanParser.ParsedPlan;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
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
 * <h2>Settings, and how the parallel ones cover every file</h2>
 * Every case runs on the leader alone at batch sizes 1, 3 and the default ({@link #localSettings}).
 * In the actor executor there are twelve {@link Combination}s: workers 1, 2 and 4 (more than this
 * machine's cores) x transport aeron and locked-queue x match flags check-before-write and
 * always-write. Running each case under all twelve would cost more than it tells, so they rotate
 * ({@link #parallelSettings}): the cases of a file take consecutive combinations, starting at an
 * offset its index in the sorted file list gives (5 x index mod 12, so neighbouring files start
 * apart), each case at least {@value #MIN_COMBINATIONS} and the file's cases together at least all
 * twelve. So every combination runs (some cases of) every golden file, and which case meets which
 * combination is fixed by the file's and the case's index. A case whose plan has a right or full
 * join (the only joins whose match flags matter) runs under all twelve. Along the rotation the
 * batch size alternates between 1 and 3 (the tables are cut into chunks of it, so every worker gets
 * morsels).
 *
 * <p>{@code -Dtroupe.golden.write=true} first rewrites the expected rows of every query case
 * from DuckDB's answer, so nobody computes expected rows by hand; review the diff, then run
 * again without it.
 *
 * <p>A leader-alone test starts its own {@link Troupe}. The parallel tests share one Troupe per
 * transport, match flags and batch size (workers are a per-query option), started on first use
 * with a small preallocated arena and closed after all tests; a case loads its file's tables into
 * it (dropping the previous file's) while holding it. DuckDB answers are computed once per file
 * (see {@link DuckDbOracle}), so the tests may run in any order.
 */
class GoldenTest {

    /** The golden files, read from the source tree so that write mode can update them. */
    static final Path ROOT = Path.of("src", "test", "resources", "golden");

    private static final boolean WRITE = Boolean.getBoolean("troupe.golden.write");

    /** Combinations each case runs under at least (a file's cases together run all twelve). */
    static final int MIN_COMBINATIONS = 2;
    private static final int[] PARALLEL_BATCH_SIZES = {3, 1};
    /** A parallel query that runs this long has hung: it fails instead of stopping the build. */
    private static final Duration PARALLEL_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern RIGHT_OR_FULL_JOIN = Pattern.compile("\\bjoin\\s+(right|full)\\b");

    /** One way of running a case; each must give the same rows. Workers 0: the leader alone. */
    record Setting(String name, int batchSize, int workers, GatherTransport transport, MatchFlags matchFlags) {
    }

    /** One of the twelve ways of running a case in the actor executor. */
    record Combination(int workers, GatherTransport transport, MatchFlags matchFlags) {
    }

    /** Workers 1, 2, 4 x both transports x both match-flag settings, in a fixed order. */
    static final List<Combination> COMBINATIONS = combinations();

    private static List<Combination> combinations() {
        List<Combination> all = new ArrayList<>();
        for (int workers : new int[] {1, 2, 4}) {
            for (GatherTransport transport : GatherTransport.values()) {
                for (MatchFlags flags : MatchFlags.values()) {
                    all.add(new Combination(workers, transport, flags));
                }
            }
        }
        return List.copyOf(all);
    }

    /**
     * Batch size 1 puts every row in its own batch and chunk; 3 makes batches that do not divide
     * the tables evenly; the default is what users get. Tables are cut into chunks of the batch
     * size, so a scan yields batches of that size too. All on the leader alone.
     */
    static List<Setting> localSettings() {
        TroupeSettings defaults = TroupeSettings.load();
        GatherTransport transport = defaults.transport().gatherTransport();
        return List.of(
                new Setting("batch-size 1", 1, 0, transport, defaults.matchFlags()),
                new Setting("batch-size 3", 3, 0, transport, defaults.matchFlags()),
                new Setting("batch-size default", defaults.batchSize(), 0, transport, defaults.matchFlags()));
    }

    /**
     * The parallel settings of case {@code caseIndex} of {@code caseCount} in the file at
     * {@code fileIndex}: the rotation the class comment describes, or all twelve combinations.
     */
    static List<Setting> parallelSettings(int fileIndex, int caseIndex, int caseCount, boolean allCombinations) {
        int n = COMBINATIONS.size();
        int per = allCombinations ? n : Math.max(MIN_COMBINATIONS, (n + caseCount - 1) / caseCount);
        int first = allCombinations ? 0 : fileIndex * 5 + caseIndex * per;
        List<Setting> settings = new ArrayList<>();
        for (int t = 0; t < per; t++) {
            Combination c = COMBINATIONS.get(Math.floorMod(first + t, n));
            int batchSize = PARALLEL_BATCH_SIZES[Math.floorMod(fileIndex + caseIndex + t, PARALLEL_BATCH_SIZES.length)];
            settings.add(new Setting("workers " + c.workers() + ", " + text(c.transport()) + ", " + text(c.matchFlags())
                    + ", batch-size " + batchSize, batchSize, c.workers(), c.transport(), c.matchFlags()));
        }
        return settings;
    }

    @Test
    void everyFileRunsUnderEveryCombination() {
        for (int fileIndex = 0; fileIndex < 24; fileIndex++) {
            for (int caseCount = 1; caseCount <= 30; caseCount++) {
                Set<String> covered = new HashSet<>();
                for (int j = 0; j < caseCount; j++) {
                    List<Setting> settings = parallelSettings(fileIndex, j, caseCount, false);
                    assertTrue(settings.size() >= MIN_COMBINATIONS, "combinations of one case");
                    for (Setting s : settings) {
                        covered.add(s.workers() + "/" + s.transport() + "/" + s.matchFlags());
                    }
                }
                assertEquals(COMBINATIONS.size(), covered.size(),
                        "file " + fileIndex + " with " + caseCount + " cases runs under " + covered);
            }
        }
        assertEquals(COMBINATIONS.size(), parallelSettings(3, 1, 5, true).size(), "right or full join: all of them");
    }

    private static String text(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    // ------------------------------------------------------------------ shared Troupes of the parallel settings

    /** A Troupe of the parallel settings and the file whose tables it holds. */
    private static final class SharedTroupe {
        final Troupe troupe;
        /** Guarded by troupe's monitor. */
        GoldenFile loaded;

        SharedTroupe(Troupe troupe) {
            this.troupe = troupe;
        }
    }

    /** Guarded by itself. */
    private static final Map<String, SharedTroupe> SHARED = new HashMap<>();

    private static SharedTroupe shared(Setting setting) {
        String key = setting.transport() + "/" + setting.matchFlags() + "/" + setting.batchSize();
        synchronized (SHARED) {
            return SHARED.computeIfAbsent(key, k -> {
                TroupeSettings s = TroupeSettings.load().withBatchSize(setting.batchSize()).withMatchFlags(setting.matchFlags());
                TroupeSettings.Transport t = s.transport();
                TroupeSettings.Memory m = s.memory();
                s = new TroupeSettings(s.batchSize(), s.matchFlags(), new TroupeSettings.Transport(setting.transport(),
                        t.wakeups(), t.queueCapacity(), t.termLengthBytes(), t.mtuBytes(), t.idleStrategy(),
                        t.driverThreading(), t.directoryParent()), s.workers(), s.memory())
                        // Eight Troupes live at once: a few preallocated chunks each, not the default 64m.
                        .withMemory(new TroupeSettings.Memory(m.chunkBytes(), 4L * m.chunkBytes(), m.budgetBytes()));
                return new SharedTroupe(Troupe.start(s));
            });
        }
    }

    @AfterAll
    static void closeSharedTroupes() {
        synchronized (SHARED) {
            for (SharedTroupe s : SHARED.values()) {
                s.troupe.close();
            }
            SHARED.clear();
        }
    }

    @TestFactory
    Stream<DynamicNode> goldenFiles() throws IOException {
        List<Path> files = files();
        return IntStream.range(0, files.size()).mapToObj(i -> fileNode(i, files.get(i)));
    }

    /** Every golden file under {@link #ROOT}, sorted: what this class runs, and GoldenClusterTest samples. */
    static List<Path> files() throws IOException {
        assertTrue(Files.isDirectory(ROOT), "golden files not found at " + ROOT.toAbsolutePath()
                + "; run the tests from the project root");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(ROOT)) {
            files = walk.filter(p -> p.toString().endsWith(".test")).sorted().collect(Collectors.toList());
        }
        assertFalse(files.isEmpty(), "no .test files under " + ROOT.toAbsolutePath());
        return files;
    }

    private static DynamicNode fileNode(int fileIndex, Path path) {
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
        List<GoldenCase> cases = file.cases();
        return DynamicContainer.dynamicContainer(display, IntStream.range(0, cases.size()).mapToObj(j -> caseNode(duckDb, f,
                cases.get(j), parallelSettings(fileIndex, j, cases.size(),
                        RIGHT_OR_FULL_JOIN.matcher(cases.get(j).planText()).find()))));
    }

    /*
     * No test source URIs on these nodes: Surefire 3.5 drops dynamic tests whose container has a
     * file URI from its report (they run, but count as 0), so the line goes into the names instead.
     */
    private static DynamicNode caseNode(DuckDbAnswers duckDb, GoldenFile file, GoldenCase c, List<Setting> parallel) {
        List<DynamicNode> tests = new ArrayList<>();
        tests.add(DynamicTest.dynamicTest("duckdb", () -> checkDuckDb(duckDb, file, c)));
        List<Setting> settings = new ArrayList<>(localSettings());
        settings.addAll(parallel);
        for (Setting s : settings) {
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
        assertOrderDefined(c, parsed, where);
        if (setting.workers() > 0) {
            SharedTroupe shared = shared(setting);
            synchronized (shared.troupe) {
                if (shared.loaded != file) {
                    if (shared.loaded != null) {
                        for (TableDef t : shared.loaded.tables()) {
                            shared.troupe.catalog().drop(t.name());
                        }
                    }
                    shared.loaded = null;
                    for (TableDef t : file.tables()) {
                        shared.troupe.register(t.build(setting.batchSize()));
                    }
                    shared.loaded = file;
                }
                check(shared.troupe, parsed, c, where, setting);
            }
            return;
        }
        // The leader alone: no actor system or driver to start for a case that never uses them.
        TroupeSettings settings = TroupeSettings.load().withBatchSize(setting.batchSize()).withDefaultWorkers(0);
        try (Troupe troupe = Troupe.start(settings)) {
            for (TableDef t : file.tables()) {
                troupe.register(t.build(setting.batchSize()));
            }
            check(troupe, parsed, c, where, setting);
        }
    }

    private static void check(Troupe troupe, ParsedPlan parsed, GoldenCase c, String where, Setting setting) {
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
        assertRows(c, parsed, result, setting.workers() > 0, where, () -> troupe.explain(parsed.plan()));
    }

    // ------------------------------------------------------------------ the checks, shared with GoldenClusterTest

    /** Fails a query case compared in order whose plan does not define the order of its rows. */
    static void assertOrderDefined(GoldenCase c, ParsedPlan parsed, String where) {
        if (c.kind() == GoldenCase.Kind.QUERY && !c.rowSort() && !parsed.ordered()) {
            fail(where + ": exact row order needs a plan whose last row-reordering step is a sort "
                    + "(only as, filter, project, having or limit may follow it); otherwise use 'rowsort'");
        }
    }

    /**
     * Checks a query case's result: its column types against the header, its rows against the expected
     * ones (in order unless rowsort). {@code parallel}: rows came from workers (or nodes) in no fixed
     * order, so a LIMIT over an unordered input is checked by its row count alone.
     *
     * @param explain the plan as it ran, for the message of a mismatch
     */
    static void assertRows(GoldenCase c, ParsedPlan parsed, QueryResult result, boolean parallel, String where,
                           Supplier<String> explain) {
        assertEquals(c.types(), typeCodes(result.schema()), where + ": result column types "
                + result.schema() + " do not match the query header");
        List<String> rows = new ArrayList<>();
        for (List<Object> row : result.rows()) {
            rows.add(GoldenValues.formatRow(row));
        }
        if (parallel && limitOverUnorderedInput(c.planText(), parsed.ordered())) {
            // A LIMIT over an unordered input may keep any rows (SQL's rule): workers take morsels
            // in no fixed order, while the expected rows are DuckDB's, which keeps insertion order.
            assertEquals(c.expected().size(), rows.size(), () -> where + ": row count of an unordered limit");
            return;
        }
        assertEquals(block(c.expected(), c.rowSort()), block(rows, c.rowSort()),
                () -> where + ": Troupe's rows differ from the expected rows\n" + explain.get());
    }

    /** Checks the failure message of an error case, which must contain {@code expected} (see {@link #matchesError}). */
    static void assertErrorMessage(String expected, String message, int workers, String where, Throwable failure) {
        if (!matchesError(message, expected, workers)) {
            throw new AssertionError(where + ": expected an error containing\n  " + expected
                    + "\nbut the message was\n  " + message, failure);
        }
    }

    /** The failure of an error case whose plan ran. */
    static AssertionError ranInsteadOfFailing(String expected, String where, long rows) {
        return new AssertionError(where + ": expected an error containing '" + expected
                + "' but the plan ran and returned " + rows + " rows");
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
     * Whether {@code message} contains {@code expected}. With workers, the row that fails first is
     * whichever a worker reaches first (as in DuckDB with threads; one worker runs beside the Gather's
     * leader participation), so a quoted value in the expected text ({@code cannot cast 'hello' to
     * INT32}) matches any quoted value.
     */
    static boolean matchesError(String message, String expected, int workers) {
        if (message.contains(expected)) {
            return true;
        }
        if (workers == 0) {
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
        QueryOptions options = QueryOptions.defaults().withWorkers(setting.workers());
        return setting.workers() > 0 ? options.withTimeout(PARALLEL_TIMEOUT) : options;
    }

    private static void expectError(Troupe troupe, ParsedPlan parsed, GoldenCase c, String where, Setting setting) {
        QueryResult result;
        try {
            result = troupe.execute(parsed.plan(), options(setting));
        } catch (TroupeException e) {
            assertErrorMessage(c.errorText(), String.valueOf(e.getMessage()), setting.workers(), where, e);
            return;
        }
        throw ranInsteadOfFailing(c.errorText(), where, result.rowCount());
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
