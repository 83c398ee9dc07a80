package io.troupe.cli;

import io.troupe.cli.loadtest.LoadTestCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code bin/troupe} command line: one subcommand per job. Exit status 0 on success, 1 when
 * a query failed, 2 on bad arguments (picocli's convention).
 */
@Command(name = "troupe", mixinStandardHelpOptions = true, version = "Troupe 0.1.0",
        description = "An embedded, actor-based parallel query executor for the JVM.",
        subcommands = {DemoCommand.class, BenchCommand.class, GenerateCommand.class, LoadTestCommand.class})
public final class TroupeCli {

    public static void main(String[] args) {
        System.exit(new CommandLine(new TroupeCli()).execute(args));
    }
}
