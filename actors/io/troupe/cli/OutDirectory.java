package io.troupe.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A command's output directory ({@code --out}, a cluster's {@code --run-dir}), made and proved writable
 * before any work is spent on the command.
 */
public final class OutDirectory {

    private OutDirectory() {
    }

    /**
     * Creates {@code out} and writes (and deletes) a file there.
     *
     * @throws ParameterException naming the directory when it cannot be made or written: one line, exit 2
     */
    public static void prepare(CommandSpec spec, Path out) {
        prepare(spec, "--out", out);
    }

    /** As {@link #prepare(CommandSpec, Path)} for the directory of {@code option}, which the error names. */
    public static void prepare(CommandSpec spec, String option, Path dir) {
        try {
            Files.createDirectories(dir);
            Path probe = Files.createTempFile(dir, ".troupe-out", ".probe");
            Files.delete(probe);
        } catch (IOException | SecurityException e) {
            throw new ParameterException(spec.commandLine(), option + " " + dir + " is not a writable directory: " + e);
        }
    }
}
