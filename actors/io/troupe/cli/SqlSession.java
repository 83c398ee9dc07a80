package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.QueryStream;
import io.troupe.actors.api.Troupe;
import io.troupe.config.Spelling;
import io.troupe.operators.TroupeException;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.sql.SqlStatements;
import io.troupe.operators.sql.SqlStates;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.Field;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code bin/troupe sql} does with one statement or one backslash command, wherever it came from (the
 * keyboard, {@code -f}, {@code -c}). CREATE TABLE, INSERT, DROP TABLE and COPY run through {@link Troupe#sql},
 * and the rows they stored print ({@code OK, 3 rows}). A query is planned ({@link Troupe#planSql}), then streamed
 * with the session's options ({@link Troupe#stream}), its rows printed in the session's {@link ResultFormat} on
 * {@code out} as they come, so that a result of any size prints in bounded memory; a {@link StatementProgress}
 * line shows how long it has run until rows come. EXPLAIN ANALYZE drops the rows as they come
 * ({@link Troupe#explainAnalyzeDiscarding}). With {@code \timing} on, the planning and execution times (the
 * rows printed included) go to {@code err}, apart. An error (a {@link io.troupe.operators.sql.SqlException} with its caret, a failed
 * query) prints its message on {@code err} and the session goes on; the caller decides whether to stop.
 *
 * <p>Commands: {@code \q} quits, {@code \timing [on|off]} switches the times, {@code \d} lists the tables,
 * {@code \d NAME} a table's columns and types, {@code \?} lists the commands.
 *
 * <p>Not threadsafe: one thread runs the statements; only {@link #cancel} may come from another (Ctrl-C).
 */
final class SqlSession {

    /** How a statement or command ended. */
    enum Outcome { DONE, FAILED, QUIT }

    /** Whether planning and execution times are printed after each statement. */
    enum Timing { ON, OFF }

    private static final Duration POLL = Duration.ofMillis(200);
    /** {@code EXPLAIN [ANALYZE] statement}: the plan, or the plan run with each node's rows and time. */
    private static final Pattern EXPLAIN = Pattern.compile("(?is)EXPLAIN\\s+(ANALYZE\\s+)?(.+)");
    private static final String HELP = """
            \\d          list the tables
            \\d NAME     a table's columns and types
            \\timing     print planning and execution times (\\timing on|off)
            \\q          quit
            SQL statements end with ';' and may run over several lines.""";

    private final Troupe troupe;
    private final QueryOptions options;
    private final ResultFormat format;
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean terminal;
    private final StatementSplitter splitter = new StatementSplitter();
    private Timing timing;
    private volatile QueryStream running;

    /**
     * @param terminal whether {@code err} is a terminal: the progress line then shows after a second, redrawn
     *                 in place; else it prints a line now and then once a statement has run a few seconds
     */
    SqlSession(Troupe troupe, QueryOptions options, ResultFormat format, Timing timing, PrintWriter out,
               PrintWriter err, boolean terminal) {
        this.troupe = troupe;
        this.options = options;
        this.format = format;
        this.timing = timing;
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    /**
     * Takes one line of input: runs the command it is (a backslash first, outside a statement) or the statements
     * it completes, stopping at the first that fails or quits, and returns how the last ended.
     */
    Outcome feed(String line) {
        if (splitter.isEmpty() && line.trim().startsWith("\\")) {
            return run(line);
        }
        for (String statement : splitter.feed(line)) {
            Outcome outcome = run(statement);
            if (outcome != Outcome.DONE) {
                return outcome;
            }
        }
        return Outcome.DONE;
    }

    /** Runs what follows the last {@code ;}, at the end of a file or of {@code -c}; DONE when nothing does. */
    Outcome finish() {
        String rest = splitter.rest();
        return rest.isEmpty() ? Outcome.DONE : run(rest);
    }

    /** True while a statement is under way: lines given since the last {@code ;}. */
    boolean midStatement() {
        return !splitter.isEmpty();
    }

    /** Drops the statement under way (Ctrl-C at the prompt). */
    void discard() {
        splitter.rest();
    }

    /** Runs a statement (without its {@code ;}) or, when it starts with a backslash, a command. */
    private Outcome run(String text) {
        String trimmed = text.trim();
        try {
            return trimmed.startsWith("\\") ? command(trimmed) : statement(trimmed);
        } catch (TroupeException e) {
            err.println("ERROR: " + SqlStates.of(e) + ": " + e.getMessage());
            return Outcome.FAILED;
        } catch (IllegalArgumentException e) {
            err.println("ERROR: " + e.getMessage());
            return Outcome.FAILED;
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** Cancels the statement running now, if any (Ctrl-C). */
    void cancel() {
        QueryStream query = running;
        if (query != null) {
            query.cancel("cancelled from the keyboard");
        }
    }

    /** The session's time zone: its options', or the Troupe's {@code troupe.sql.time-zone}. */
    private ZoneId zone() {
        return options.timeZone() != null ? options.timeZone() : troupe.settings().sql().timeZone();
    }

    private Outcome statement(String sql) {
        Matcher explain = EXPLAIN.matcher(sql);
        if (explain.matches()) {
            Plan plan = troupe.planSql(explain.group(2), options);
            out.print(explain.group(1) == null ? troupe.explain(plan, options)
                    : troupe.explainAnalyzeDiscarding(plan, options).render());
            return Outcome.DONE;
        }
        if (!SqlStatements.isQuery(sql)) {
            long rows = troupe.sql(sql, options).updateCount().orElseThrow();
            out.println("OK, " + rows + (rows == 1 ? " row" : " rows"));
            return Outcome.DONE;
        }
        long start = System.nanoTime();
        Plan plan = troupe.planSql(sql, options);
        long planned = System.nanoTime();
        try (QueryStream stream = troupe.stream(plan, options)) {
            print(stream);
        }
        long executed = System.nanoTime();
        if (timing == Timing.ON) {
            err.printf(Locale.ROOT, "Time: planning %.1f ms, execution %.1f ms%n", (planned - start) / 1e6,
                    (executed - planned) / 1e6);
        }
        return Outcome.DONE;
    }

    /**
     * Prints the query's rows as they come, batch by batch, a progress line drawn while none comes: the stream holds
     * the query back while the rows print, so that no more than a few batches and the format's first rows are held.
     */
    private void print(QueryStream stream) {
        running = stream;
        StatementProgress progress = new StatementProgress(err, terminal, troupe::status);
        try {
            List<String> header = new ArrayList<>();
            for (Field f : stream.schema().fields()) {
                header.add(f.name());
            }
            ResultWriter writer = format.writer(header, out, zone());
            for (Batch b; (b = next(stream, progress)) != null; ) {
                progress.rowsShown();
                for (int i = 0; i < b.size(); i++) {
                    writer.row(b.rowObjects(i));
                }
                out.flush();
            }
            writer.end();
            out.flush();
        } catch (InterruptedException e) {
            stream.cancel("interrupted");
            Thread.currentThread().interrupt();
            throw new IllegalArgumentException("interrupted");
        } finally {
            progress.done();
            running = null;
        }
    }

    /** The stream's next batch, the progress line updated while it does not come; null at the end. */
    private static Batch next(QueryStream stream, StatementProgress progress) throws InterruptedException {
        while (true) {
            try {
                return stream.next(POLL);
            } catch (TimeoutException e) {
                progress.update();
            }
        }
    }

    private Outcome command(String line) {
        String[] words = line.split("\\s+");
        switch (words[0]) {
            case "\\q" -> {
                return Outcome.QUIT;
            }
            case "\\timing" -> {
                timing = switch (words.length > 1 ? words[1].toLowerCase(Locale.ROOT) : "") {
                    case "on" -> Timing.ON;
                    case "off" -> Timing.OFF;
                    case "" -> timing == Timing.ON ? Timing.OFF : Timing.ON;
                    default -> throw new IllegalArgumentException("\\timing takes on or off, got '" + words[1] + "'");
                };
                out.println("Timing is " + timing.name().toLowerCase(Locale.ROOT) + ".");
            }
            case "\\d" -> {
                if (words.length == 1) {
                    listTables();
                } else {
                    describe(words[1]);
                }
            }
            case "\\?" -> out.println(HELP);
            default -> throw new IllegalArgumentException("unknown command " + words[0] + "; \\? lists them");
        }
        return Outcome.DONE;
    }

    private void listTables() {
        List<Object[]> rows = new ArrayList<>();
        List<Table> tables = new ArrayList<>(troupe.catalog().tables());
        tables.sort(Comparator.comparing(Table::name));
        for (Table t : tables) {
            rows.add(new Object[] {t.name(), t.rowCount(), t.schema().size()});
        }
        format.write(List.of("table", "rows", "columns"), rows, out);
    }

    private void describe(String name) {
        if (!troupe.catalog().contains(name)) {
            List<String> near = Spelling.closest(name, troupe.catalog().names());
            throw new IllegalArgumentException("no table '" + name + "'" + (near.isEmpty()
                    ? "; \\d lists them" : " (did you mean " + String.join(" or ", near) + "?)"));
        }
        List<Object[]> rows = new ArrayList<>();
        for (Field f : troupe.catalog().table(name).schema().fields()) {
            rows.add(new Object[] {f.name(), f.type().sqlName(), f.nullable() ? "yes" : "no"});
        }
        format.write(List.of("column", "type", "nullable"), rows, out);
    }
}
