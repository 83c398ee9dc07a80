package io.troupe;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Keeps the arrows of docs/layout.md pointing one way: actors -> transport, operators, config;
 * transport -> config (+ the batch format); operators -> config; the file formats (io.troupe.formats) ->
 * operators, which neither operators nor transport import, and no reader's library in operators; and the command
 * line (io.troupe.cli) on top, which no library package imports, so that a service embedding the library needs none of
 * the command line's optional dependencies (picocli, XChart, the TPC generators, HdrHistogram).
 * The JDBC driver (io.troupe.jdbc) is a client of the facade that the facade never imports.
 * Micrometer, optional too, is used by one package, io.troupe.actors.metrics, that nothing else
 * imports, so that a service without Micrometer never loads it. Reads the import lines of every source
 * file (and, for Micrometer, every line), so a forbidden dependency fails here before anyone builds on it.
 */
class ArchitectureTest {

    /** What the command line alone may use: optional dependencies of the jar. */
    private static final List<String> COMMAND_LINE_ONLY = List.of("io.troupe.cli", "picocli", "org.knowm.xchart",
            "io.trino", "org.HdrHistogram");

    private static final Map<String, List<String>> FORBIDDEN = Map.of(
            "operators", with(COMMAND_LINE_ONLY, "io.troupe.actors", "io.troupe.transport", "io.troupe.formats",
                    "org.apache.parquet", "io.airlift.compress"),
            "transport", with(COMMAND_LINE_ONLY, "io.troupe.actors", "io.troupe.formats", "io.troupe.operators.plan",
                    "io.troupe.operators.exec", "io.troupe.operators.join", "io.troupe.operators.agg",
                    "io.troupe.operators.sort"),
            "config", with(COMMAND_LINE_ONLY, "io.troupe.actors", "io.troupe.transport", "io.troupe.operators",
                    "io.troupe.formats"),
            "formats", with(COMMAND_LINE_ONLY, "io.troupe.actors", "io.troupe.transport", "io.troupe.jdbc"),
            "actors/io/troupe/actors", with(COMMAND_LINE_ONLY, "io.troupe.jdbc"),
            "actors/io/troupe/jdbc", COMMAND_LINE_ONLY);

    private static final List<String> SOURCE_ROOTS = List.of("config", "operators", "transport", "actors", "formats");
    /** The one package that may use Micrometer. */
    private static final Path METRICS = Path.of("actors/io/troupe/actors/metrics");

    private static List<String> with(List<String> base, String... more) {
        List<String> all = new ArrayList<>(base);
        all.addAll(List.of(more));
        return all;
    }

    @Test
    void shouldKeepDependenciesPointingOneWay() throws IOException {
        List<String> violations = new ArrayList<>();
        for (Map.Entry<String, List<String>> rule : FORBIDDEN.entrySet()) {
            for (Path file : javaFiles(rule.getKey())) {
                for (String trimmed : imports(file)) {
                    for (String forbidden : rule.getValue()) {
                        if (trimmed.startsWith("import " + forbidden + ".")) {
                            violations.add(file + ": " + trimmed);
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), violations, "imports that point the wrong way");
    }

    @Test
    void shouldLeaveMicrometerToTheMetricsPackageThatNothingImports() throws IOException {
        List<String> violations = new ArrayList<>();
        for (String root : SOURCE_ROOTS) {
            for (Path file : javaFiles(root)) {
                if (file.startsWith(METRICS)) {
                    continue;
                }
                for (String line : Files.readAllLines(file)) {
                    if (line.contains("io.micrometer")) {
                        violations.add(file + ": " + line.trim());
                    }
                }
                for (String trimmed : imports(file)) {
                    if (trimmed.startsWith("import io.troupe.actors.metrics.")) {
                        violations.add(file + ": " + trimmed);
                    }
                }
            }
        }
        assertEquals(List.of(), violations, "Micrometer outside io.troupe.actors.metrics, or that package imported");
    }

    private static List<Path> javaFiles(String root) throws IOException {
        try (Stream<Path> files = Files.walk(Path.of(root))) {
            return files.filter(p -> p.toString().endsWith(".java")).toList();
        }
    }

    /** The file's import lines, trimmed, static imports written as plain ones. */
    private static List<String> imports(Path file) throws IOException {
        return Files.readAllLines(file).stream().map(String::trim).filter(l -> l.startsWith("import "))
                .map(l -> l.replace("import static ", "import ")).toList();
    }
}
