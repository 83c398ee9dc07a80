package io.troupe.cli;

import io.troupe.cli.loadtest.LoadTestCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * The {@code bin/troupe} command line: one subcommand per job. Exit status 0 on success, 1 when
 * a query failed, 2 on bad arguments (picocli's convention). A bad argument gets one line on stderr,
 * "troupe bench: --runs must be at least 1, got 0 (see --help)", before any work starts: every
 * command checks all its arguments first and reports one as a {@link ParameterException}.
 */
@Command(name = "troupe", mixinStandardHelpOptions = true, version = "Troupe 0.1.0",
        description = "An embedded, actor-based parallel query executor for the JVM.",
        subcommands = {DemoCommand.class, BenchCommand.class, AblationCommand.class, GenerateCommand.class,
                LoadTestCommand.class, NodeCommand.class, ClusterCommand.class, ExchangeCommand.class, SqlCommand.class})
public final class TroupeCli implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine(new TroupeCli()).execute(args));
    }

    /** The command line over {@code command} (this or one of its subcommands), bad arguments in one line. */
    static CommandLine commandLine(Object command) {
        CommandLine cli = new CommandLine(command);
        cli.setParameterExceptionHandler(TroupeCli::badArgument);
        return cli;
    }

    /** No subcommand: a bad argument too. */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "a command is missing, one of: "
                + String.join(", ", spec.subcommands().keySet()));
    }

    /** One line, the command's name and what was wrong, instead of picocli's message and usage. */
    private static int badArgument(ParameterException e, String[] args) {
        CommandLine cli = e.getCommandLine();
        PrintWriter err = cli.getErr();
        String name = cli.getCommandSpec().qualifiedName();
        err.println((name.startsWith("troupe") ? name : "troupe " + name) + ": " + e.getMessage() + " (see --help)");
        err.flush();
        return cli.getCommandSpec().exitCodeOnInvalidInput();
    }
}
