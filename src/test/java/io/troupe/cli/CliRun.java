package io.troupe.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * A picocli command run in-process, as the CLI tests drive them (those of io.troupe.cli's
 * subpackages too): its exit status and what it printed to stdout and stderr.
 */
public record CliRun(int exitCode, String out, String err) {

    /** Runs {@code command} (a {@link TroupeCli} or one of its subcommands) with {@code args}. */
    public static CliRun of(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = TroupeCli.commandLine(command);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }
}
