package io.troupe.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.util.ArrayList;
import java.util.List;

/**
 * Which lessons an ablation measures ({@code --lessons}): a picocli mixin of {@code troupe ablation}
 * and of {@code troupe bench}, whose {@code --ablation} runs the same ablation, and the step from
 * the lesson ids to the lessons of docs/overview.md ("Three lessons"), an unknown one being a
 * bad argument (exit 2).
 *
 * <p>Not threadsafe: picocli fills it and the command reads it, on one thread.
 */
final class AblationOptions {

    @Option(names = "--lessons", split = ",", paramLabel = "L",
            description = "lessons to measure, of s1, s2, s3 (bench: with --ablation) (default: ${DEFAULT-VALUE})")
    List<String> lessons = new ArrayList<>(List.of("s1", "s2", "s3"));

    /**
     * The lessons asked for, in order, without repeats, as measured over {@code rows} rows with up to
     * {@code maxWorkers} workers.
     *
     * @throws ParameterException naming an unknown lesson
     */
    List<AblationLesson> chosen(CommandSpec spec, long rows, int maxWorkers) {
        List<AblationLesson> table = AblationLesson.table(rows, maxWorkers);
        List<AblationLesson> chosen = new ArrayList<>();
        for (String id : lessons) {
            AblationLesson lesson = AblationLesson.find(table, id);
            if (lesson == null) {
                throw RoundOptions.bad(spec, "unknown lesson '" + id + "' in --lessons (known: "
                        + String.join(", ", table.stream().map(AblationLesson::id).toList()) + ")");
            }
            if (!chosen.contains(lesson)) {
                chosen.add(lesson);
            }
        }
        return chosen;
    }
}
