package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.cli.data.Benchmark;
import io.troupe.cli.data.BenchmarkDataGenerator;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.sql.PlannerWarmUp;
import io.troupe.operators.table.Table;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.terminal.impl.DumbTerminal;
import org.jline.utils.WriterOutputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code troupe sql}: SQL over an embedded Troupe. With {@code -c SQL} or {@code -f FILE} it runs those
 * statements and exits, stopping at the first that fails (exit status 1); without, an interactive shell
 * ({@link SqlShell}) over the terminal, which goes on after an error, or over stdin when that is no terminal (a
 * script piped in), which stops at the first error with exit status 1 as {@code -f} does. The tables come from
 * {@code --generate BENCHMARK:SF [--tables a,b]} (the generators of {@code troupe generate}) and
 * {@code --load DIR} ({@link TableDirectory}). Calcite warms on a thread of its own from the start
 * ({@link PlannerWarmUp}). Every argument is checked before anything starts; a bad one exits with 2.
 */
@Command(name = "sql", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run SQL over generated or loaded tables: an interactive shell, or the statements of -c or -f.",
        footer = {"", "Rows print as they come, in bounded memory. Errors print as ERROR: SQLSTATE: message (PostgreSQL's "
                + "codes). Exit status: 0 when every statement ran; 1 at the first failed statement of -c, -f or a "
                + "script piped into stdin (the statements after it do not run); 2 for a bad argument. At a prompt, "
                + "an error prints and the shell goes on. docs/sql-shell.md has the details."})
final class SqlCommand implements Callable<Integer> {

    @Option(names = {"-c", "--command"}, paramLabel = "SQL", description = "run these statements (';' between them) and exit")
    String command;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "run the statements of FILE and exit")
    Path file;

    @Option(names = "--format", paramLabel = "F", description = "table, csv or json (default: ${DEFAULT-VALUE})")
    String format = "table";

    @Option(names = "--workers", paramLabel = "N", description = "workers per query (default: troupe.workers.default)")
    Integer workers;

    @Option(names = "--generate", paramLabel = "BENCHMARK:SF",
            description = "make a benchmark's tables first: tpch:SF or tpcds:SF")
    String generate;

    @Option(names = "--tables", split = ",", paramLabel = "T",
            description = "with --generate, only these tables (default: all of the benchmark's)")
    List<String> tables = List.of();

    @Option(names = "--load", paramLabel = "DIR",
            description = "register every .csv, .tbl (TPC-H), .dat (TPC-DS) and .parquet file of DIR as a table")
    Path load;

    @Option(names = "--timing", description = "print planning and execution times from the start (\\timing)")
    boolean timing;

    @Spec
    CommandSpec spec;

    // visible for testing: where the shell reads its lines when neither -c nor -f is given
    InputStream stdin = System.in;

    @Override
    public Integer call() throws Exception {
        ResultFormat chosenFormat = checkArguments();
        GenerateSpec generating = generate == null ? null : parseGenerate();
        PlannerWarmUp.inBackground();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Troupe troupe = Troupe.start(TroupeSettings.load())) {
            if (generating != null) {
                for (Table t : GenerateCommand.generateWithProgress(generating.benchmark(), generating.scale(), tables,
                        Runtime.getRuntime().availableProcessors(), err).tables()) {
                    troupe.register(t);
                }
            }
            if (load != null) {
                try {
                    TableDirectory.load(load).forEach(troupe::register);
                } catch (IllegalArgumentException e) {
                    err.println("troupe sql: " + e.getMessage());
                    return 1;
                }
            }
            QueryOptions options = workers == null ? QueryOptions.defaults()
                    : QueryOptions.defaults().withWorkers(workers);
            boolean console = System.console() != null;
            SqlSession.Timing startTiming = timing ? SqlSession.Timing.ON : SqlSession.Timing.OFF;
            if (command != null || file != null) {
                SqlSession session = new SqlSession(troupe, options, chosenFormat, startTiming, out, err, console);
                List<String> lines = command != null ? command.lines().toList() : Files.readAllLines(file);
                return script(session, lines);
            }
            SqlShell.Prompts prompts = console && stdin == System.in ? SqlShell.Prompts.SHOWN : SqlShell.Prompts.HIDDEN;
            try (Terminal terminal = terminal(prompts)) {
                PrintWriter screen = terminal.writer();
                SqlSession session = new SqlSession(troupe, options, chosenFormat, startTiming, screen, err,
                        prompts == SqlShell.Prompts.SHOWN);
                SqlSession.Outcome outcome = SqlShell.run(terminal, session,
                        Path.of(System.getProperty("user.home"), ".troupe_sql_history"), prompts);
                screen.flush();
                return outcome == SqlSession.Outcome.FAILED ? 1 : 0;
            }
        }
    }

    /** Runs {@code lines} as a script: 0 when every statement ran, 1 at the first that failed. */
    private static int script(SqlSession session, List<String> lines) {
        for (String line : lines) {
            SqlSession.Outcome outcome = session.feed(line);
            if (outcome != SqlSession.Outcome.DONE) {
                return outcome == SqlSession.Outcome.QUIT ? 0 : 1;
            }
        }
        return session.finish() == SqlSession.Outcome.FAILED ? 1 : 0;
    }

    /** The system's terminal when stdin is one; else a dumb terminal over stdin and stdout that echoes nothing. */
    private Terminal terminal(SqlShell.Prompts prompts) throws IOException {
        if (prompts == SqlShell.Prompts.SHOWN) {
            return TerminalBuilder.builder().system(true).build();
        }
        Terminal dumb = new DumbTerminal("troupe", Terminal.TYPE_DUMB, stdin,
                new WriterOutputStream(spec.commandLine().getOut(), StandardCharsets.UTF_8), StandardCharsets.UTF_8);
        dumb.echo(false);
        return dumb;
    }

    private ResultFormat checkArguments() {
        if (command != null && file != null) {
            throw bad("-c and -f do not go together: give one");
        }
        if (file != null && !Files.isReadable(file)) {
            throw bad("-f " + file + ": no such file, or not readable");
        }
        if (workers != null && workers < 0) {
            throw bad("--workers must be at least 0, got " + workers);
        }
        if (!tables.isEmpty() && generate == null) {
            throw bad("--tables names the tables of --generate, which is missing");
        }
        if (load != null && !Files.isDirectory(load)) {
            throw bad("--load " + load + ": not a directory");
        }
        try {
            return ResultFormat.parse(format);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
    }

    private GenerateSpec parseGenerate() {
        GenerateSpec parsed;
        try {
            parsed = GenerateSpec.parse(generate);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        List<String> known = BenchmarkDataGenerator.tableNames(parsed.benchmark());
        for (String t : tables) {
            if (!known.contains(t.trim().toLowerCase(Locale.ROOT))) {
                throw bad("no " + parsed.benchmark().title() + " table '" + t + "'; its tables: "
                        + String.join(", ", known));
            }
        }
        return parsed;
    }

    private ParameterException bad(String message) {
        return RoundOptions.bad(spec, message);
    }
}
