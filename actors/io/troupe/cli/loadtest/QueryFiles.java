package io.troupe.cli.loadtest;

import io.troupe.operators.plan.PlanParser;
import io.troupe.operators.plan.PlanSyntaxException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads loadtest's {@code --queries FILE|DIR}: a {@code .plan} file, or every {@code .plan} file
 * under DIR (sorted by path), holds one query in the plan text of docs/plan-format.md. A file
 * beside it with the same name ending in {@code .sql} holds the same query in SQL, which a peer
 * runs. A query's name is its path under DIR without {@code .plan} (its file name for FILE).
 * Stateless.
 */
final class QueryFiles {

    static final String PLAN = ".plan";
    static final String SQL = ".sql";

    private QueryFiles() {
    }

    /**
     * The queries of {@code path}.
     *
     * @throws IllegalArgumentException with a one-line message naming the file (and line and column
     *                                  of a syntax error) when a file is missing, unreadable or bad
     */
    static List<LoadQuery> read(Path path) {
        if (!Files.exists(path)) {
            throw new IllegalArgumentException("--queries " + path + ": no such file or directory");
        }
        List<Path> files;
        Path root;
        if (Files.isDirectory(path)) {
            root = path;
            try (Stream<Path> walk = Files.walk(path)) {
                files = walk.filter(p -> p.getFileName().toString().endsWith(PLAN) && Files.isRegularFile(p))
                        .sorted().toList();
            } catch (IOException | UncheckedIOException e) {
                throw new IllegalArgumentException("--queries " + path + ": cannot list the directory: " + e);
            }
            if (files.isEmpty()) {
                throw new IllegalArgumentException("--queries " + path + ": no " + PLAN + " files in the directory");
            }
        } else {
            if (!path.getFileName().toString().endsWith(PLAN)) {
                throw new IllegalArgumentException("--queries " + path + ": expected a " + PLAN
                        + " file (one plan, see docs/plan-format.md) or a directory of them");
            }
            root = path.toAbsolutePath().getParent();
            files = List.of(path);
        }
        List<LoadQuery> queries = new ArrayList<>();
        for (Path file : files) {
            queries.add(readOne(root, file));
        }
        return queries;
    }

    private static LoadQuery readOne(Path root, Path file) {
        String relative = root.toAbsolutePath().normalize().relativize(file.toAbsolutePath().normalize()).toString();
        String name = relative.substring(0, relative.length() - PLAN.length()).replace('\\', '/');
        String text = readText(file);
        if (text.isBlank()) {
            throw new IllegalArgumentException(file + ": the file holds no plan");
        }
        try {
            PlanParser.ParsedPlan parsed = PlanParser.parse(text, 1, file.toString());
            Path sqlFile = file.resolveSibling(file.getFileName().toString().replaceFirst("\\.plan$", SQL));
            String sql = Files.isRegularFile(sqlFile) ? readText(sqlFile).strip() : null;
            if (sql != null && sql.endsWith(";")) {
                sql = sql.substring(0, sql.length() - 1);
            }
            return new LoadQuery(name, parsed.plan(), sql == null || sql.isEmpty() ? null : sql, file.toString());
        } catch (PlanSyntaxException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    private static String readText(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read: " + e);
        }
    }
}
