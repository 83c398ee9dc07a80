package io.troupe.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A command's {@code --out} directory, made and proved writable before any work is spent on the command. */
public final class OutDirectory {

    private OutDirectory() {
    }

    /**
     * Creates {@code out} and writes (and deletes) a file there.
     *
     * @throws ParameterException naming the directory when it cannot be made or written: one line, exit 2
     */
    public static void prepare(CommandSpec spec, Path out) {
        try {
            Files.createDirectories(out);
            Path probe = Files.createTempFile(out, ".troupe-out", ".probe");
            Files.delete(probe);
        } catch (IOException | SecurityException e) {
            throw new ParameterException(spec.commandLine(), "--out " + out + " is not a writable directory: " + e);
        }
    }
}
