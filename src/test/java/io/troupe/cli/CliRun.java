package io.troupe.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;

/**
 * A picocli command run in-process, as the CLI tests drive them (those of io.troupe.cli's
 * subpackages too): its exit status and what it printed to stdout and stderr.
 */
public record CliRun(int exitCode, String out, String err) {

    /** Runs {@code command} (a {@link TroupeCli} or one of its subcommands) with {@code args}. */
    public static CliRun of(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = execute(command, out, err, args);
        return new CliRun(code, out.toString(), err.toString());
    }

    /**
     * Runs {@code command} with {@code args}, printing to {@code out} and {@code err} as it goes (for a test
     * that watches a run from another thread: a {@link StringWriter} is threadsafe); returns its exit status.
     */
    public static int execute(Object command, Writer out, Writer err, String... args) {
        CommandLine cli = TroupeCli.commandLine(command);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }
}
