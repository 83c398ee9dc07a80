package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.docs.MarkdownLinks;
import io.troupe.operators.TroupeException;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.Field;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs the SQL reference, docs/sql.md and every page under docs/sql/, so that it cannot go stale: each example
 * ({@link ReferencePage}) is a dynamic test named by its page and line. A table row runs {@code SELECT <Example>}
 * and compares its one value, printed as {@code bin/troupe sql} prints a cell ({@link ResultFormat#cell}), with
 * the Result; a sql block's statements run in order and the last one's columns and rows (or its error) are
 * compared with the result block. The statements of a page run on one Troupe, in page order, with 2 workers; its
 * tables are dropped before the next page starts, so that every page is a fresh session. A malformed example
 * fails, and so does a page under docs/sql/ that docs/sql.md does not link to.
 *
 * <p>An EXPLAIN's result is one column, {@code QUERY PLAN}, a row per line of the plan, as the shell prints it.
 * No Surefire source URIs on the dynamic tests: Surefire 3.5 drops from its report the dynamic tests of a
 * container that has a file URI, so the page and line go into the names.
 */
class SqlReferenceTest {

    private static final Path INDEX = Path.of("docs", "sql.md");
    private static final Path PAGES = Path.of("docs", "sql");
    /** The pages' examples run, and show times with a zone, in UTC. */
    private static final QueryOptions OPTIONS = QueryOptions.defaults().withWorkers(2)
            .withTimeout(Duration.ofSeconds(60)).withTimeZone(ZoneOffset.UTC);
    /** As the shell takes it: {@code EXPLAIN [ANALYZE] query}. */
    private static final Pattern EXPLAIN = Pattern.compile("(?is)EXPLAIN\\s+(ANALYZE\\s+)?(.+)");

    private static Troupe troupe;
    /** The page whose tables the Troupe's catalog holds; only the test thread touches it. */
    private static Path session;

    @BeforeAll
    static void start() {
        troupe = Troupe.start(TroupeSettings.load());
    }

    @AfterAll
    static void close() {
        if (troupe != null) {
            troupe.close();
        }
    }

    @TestFactory
    Stream<DynamicNode> everyExampleOfTheReferenceRuns() throws IOException {
        return pages().stream().map(SqlReferenceTest::page);
    }

    @Test
    void shouldLinkEveryPageFromTheIndex() throws IOException {
        Set<Path> linked = new TreeSet<>();
        for (MarkdownLinks.Link link : MarkdownLinks.read(INDEX).links()) {
            String path = link.target().replaceFirst("#.*", "");
            if (!path.isEmpty() && !path.contains(":")) {
                linked.add(INDEX.toAbsolutePath().getParent().resolve(path).normalize());
            }
        }
        List<String> unlinked = new ArrayList<>();
        for (Path page : pages().subList(1, pages().size())) {
            if (!linked.contains(page.toAbsolutePath().normalize())) {
                unlinked.add(page.toString());
            }
        }
        assertTrue(unlinked.isEmpty(), INDEX + " does not link to " + unlinked);
    }

    /** docs/sql.md first, then the pages under docs/sql/, sorted. */
    private static List<Path> pages() throws IOException {
        assertTrue(Files.isRegularFile(INDEX), INDEX.toAbsolutePath() + " not found; run the tests from the "
                + "project root");
        List<Path> pages = new ArrayList<>(List.of(INDEX));
        try (Stream<Path> files = Files.list(PAGES)) {
            pages.addAll(files.filter(p -> p.toString().endsWith(".md")).sorted().toList());
        }
        return pages;
    }

    private static DynamicNode page(Path page) {
        String name = page.toString().replace('\\', '/');
        List<ReferencePage.Example> examples;
        try {
            examples = ReferencePage.examples(Files.readAllLines(page));
        } catch (IOException e) {
            return DynamicTest.dynamicTest(name, () -> {
                throw e;
            });
        }
        if (examples.isEmpty()) {
            return DynamicTest.dynamicTest(name, () -> fail(name + " has no examples"));
        }
        return DynamicContainer.dynamicContainer(name, examples.stream().map(e -> {
            String where = name + ":" + e.line();
            return DynamicTest.dynamicTest(where + " " + title(e), () -> check(page, where, e));
        }));
    }

    private static String title(ReferencePage.Example example) {
        if (example instanceof ReferencePage.Value v) {
            return v.expression();
        }
        if (example instanceof ReferencePage.Statements s) {
            return abbreviate(s.statements().get(s.statements().size() - 1));
        }
        return "malformed";
    }

    private static void check(Path page, String where, ReferencePage.Example example) {
        if (!page.equals(session)) {
            for (Table t : troupe.catalog().tables()) {
                troupe.catalog().drop(t.name());
            }
            session = page;
        }
        if (example instanceof ReferencePage.Value v) {
            checkValue(where, v);
        } else if (example instanceof ReferencePage.Statements s) {
            checkStatements(where, s);
        } else {
            fail(where + ": " + ((ReferencePage.Malformed) example).problem());
        }
    }

    private static void checkValue(String where, ReferencePage.Value v) {
        String gave;
        try {
            List<String> lines = run("SELECT " + v.expression());
            assertEquals(2, lines.size(), () -> where + ": SELECT " + v.expression() + " gave " + (lines.size() - 1)
                    + " rows, not one: " + lines);
            assertFalse(lines.get(0).contains(" | "), () -> where + ": SELECT " + v.expression()
                    + " gave several columns: " + lines.get(0));
            gave = lines.get(1);
        } catch (TroupeException | IllegalArgumentException e) {
            gave = ReferencePage.ERROR + e.getMessage();
            if (v.expected().startsWith(ReferencePage.ERROR)) {
                String part = v.expected().substring(ReferencePage.ERROR.length());
                String message = e.getMessage();
                assertTrue(message.contains(part), () -> where + ": " + v.expression() + " failed with " + message
                        + ", the page says it fails with " + part);
                return;
            }
        }
        String actual = gave;
        assertEquals(v.expected(), actual, () -> where + ": " + v.expression() + " gave " + actual + ", the page says "
                + v.expected());
    }

    private static void checkStatements(String where, ReferencePage.Statements s) {
        List<String> statements = s.statements();
        for (int i = 0; i < statements.size() - 1; i++) {
            String sql = statements.get(i);
            try {
                run(sql);
            } catch (TroupeException | IllegalArgumentException e) {
                throw new AssertionError(where + ": " + abbreviate(sql) + " failed: " + e.getMessage(), e);
            }
        }
        String last = statements.get(statements.size() - 1);
        List<String> expected = s.expected();
        boolean error = expected.size() == 1 && expected.get(0).startsWith(ReferencePage.ERROR);
        List<String> actual;
        try {
            actual = run(last);
        } catch (TroupeException | IllegalArgumentException e) {
            String message = e.getMessage();
            if (!error) {
                throw new AssertionError(where + ": " + abbreviate(last) + " failed: " + message, e);
            }
            String part = expected.get(0).substring(ReferencePage.ERROR.length());
            assertTrue(message.contains(part), () -> where + ": " + abbreviate(last) + " failed with " + message
                    + ", the page says it fails with " + part);
            return;
        }
        if (error) {
            fail(where + ": " + abbreviate(last) + " gave " + actual + ", the page says " + expected.get(0));
        }
        if (!expected.isEmpty()) {
            assertEquals(String.join("\n", expected), String.join("\n", actual), () -> where + ": "
                    + abbreviate(last) + " gave other rows than the page's result block");
        }
    }

    /** A statement's output as the reference writes it: the column names, then a line per row. */
    private static List<String> run(String sql) {
        Matcher explain = EXPLAIN.matcher(sql);
        if (explain.matches()) {
            String plan = explain.group(1) == null ? troupe.explainSql(explain.group(2), OPTIONS)
                    : troupe.explainAnalyze(troupe.planSql(explain.group(2), OPTIONS), OPTIONS).render();
            List<String> lines = new ArrayList<>(List.of("QUERY PLAN"));
            plan.lines().map(String::stripTrailing).forEach(lines::add);
            return lines;
        }
        QueryResult result = troupe.sql(sql, OPTIONS);
        List<String> lines = new ArrayList<>();
        lines.add(result.schema().fields().stream().map(Field::name).collect(Collectors.joining(" | ")));
        for (Batch b : result.batches()) {
            for (int i = 0; i < b.size(); i++) {
                Object[] row = b.rowObjects(i);
                List<String> cells = new ArrayList<>();
                for (Object value : row) {
                    cells.add(ResultFormat.cell(value, ZoneOffset.UTC));
                }
                lines.add(String.join(" | ", cells));
            }
        }
        return lines;
    }

    private static String abbreviate(String sql) {
        String line = sql.replaceAll("\\s+", " ");
        return line.length() <= 80 ? line : line.substring(0, 77) + "...";
    }
}
