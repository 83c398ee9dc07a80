package io.troupe.operators.sql;

import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.JarURLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * SQLite's sqllogictest corpus over Troupe ({@link SqlLogicTestRun}): a fixed sample of its files, whose counts of
 * passed, failed and skipped records must equal the golden file {@code slt/sample-counts.txt}, so that a regression
 * and an improvement both show (update the file with the printed counts when Troupe learns something).
 * docs/testing.md's "sqllogictest" paragraph gives the counts and the main reasons.
 */
class SqlLogicTest {

    /** The small files of the corpus's evidence part (a SQL feature each), and select1 and select2 (queries over a
     * table of 30 rows: CASE, subqueries correlated on inequalities, ORDER BY); about 80 s on 2 busy cores. */
    private static final List<String> SAMPLE = List.of(
            "test/evidence/in1.test",
            "test/evidence/in2.test",
            "test/evidence/slt_lang_aggfunc.test",
            "test/evidence/slt_lang_createtrigger.test",
            "test/evidence/slt_lang_createview.test",
            "test/evidence/slt_lang_dropindex.test",
            "test/evidence/slt_lang_droptable.test",
            "test/evidence/slt_lang_droptrigger.test",
            "test/evidence/slt_lang_dropview.test",
            "test/evidence/slt_lang_reindex.test",
            "test/evidence/slt_lang_replace.test",
            "test/evidence/slt_lang_update.test",
            "test/select1.test",
            "test/select2.test");

    /**
     * The sample's counts equal the golden file's. With {@code -Dtroupe.slt.all=true} (and
     * {@code -Djunit.jupiter.execution.timeout.mode=disabled}: it runs for hours) every file of the corpus runs, its
     * counts go to {@code target/slt-all-counts.txt}, and the sample's lines among them must still be the golden ones.
     */
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void shouldPassFailAndSkipAsTheGoldenCountsSay() throws Exception {
        boolean all = Boolean.getBoolean("troupe.slt.all");
        String counts = counts(all ? corpus() : SAMPLE);
        if (all) {
            Files.writeString(Path.of("target/slt-all-counts.txt"), counts);
        }
        String expected = Files.readString(Path.of("src/test/resources/slt/sample-counts.txt"));
        assertEquals(all ? sampleLines(expected) : expected, all ? sampleLines(counts) : counts,
                "update src/test/resources/slt/sample-counts.txt when this changes");
    }

    /** The lines of the sample's files. */
    private static String sampleLines(String counts) {
        return counts.lines().filter(line -> SAMPLE.contains(line.split(" ")[0])).collect(Collectors.joining("\n"));
    }

    /** One line per file, "file passed failed skipped", then the totals and the reasons, most frequent first. */
    private static String counts(List<String> files) throws Exception {
        StringBuilder out = new StringBuilder("# file passed failed skipped\n");
        SqlLogicTestRun.Counts total = new SqlLogicTestRun.Counts(0, 0, 0);
        try (Troupe troupe = Troupe.start(TroupeSettings.load()); SqlLogicTestRun run = new SqlLogicTestRun(troupe)) {
            for (String file : files) {
                SqlLogicTestRun.Counts c = run.run(file);
                total = total.plus(c);
                out.append(file).append(' ').append(c.passed()).append(' ').append(c.failed()).append(' ')
                        .append(c.skipped()).append('\n');
            }
            out.append("total ").append(total.passed()).append(' ').append(total.failed()).append(' ')
                    .append(total.skipped()).append('\n');
            reasons(out, "skipped", run.skipReasons());
            reasons(out, "failed", run.failReasons());
        }
        return out.toString();
    }

    private static void reasons(StringBuilder out, String what, Map<String, Integer> reasons) {
        List<Map.Entry<String, Integer>> sorted = new ArrayList<>(reasons.entrySet());
        sorted.sort(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        for (Map.Entry<String, Integer> e : sorted) {
            out.append("# ").append(what).append(' ').append(e.getValue()).append(": ").append(e.getKey()).append('\n');
        }
    }

    /** Every .test file of the corpus jar, in name order. */
    private static List<String> corpus() throws IOException {
        JarURLConnection jar = (JarURLConnection) Objects.requireNonNull(
                SqlLogicTest.class.getClassLoader().getResource("test/select1.test")).openConnection();
        jar.setUseCaches(false); // a JarFile of its own, to close
        List<String> files = new ArrayList<>();
        try (JarFile file = jar.getJarFile()) {
            for (JarEntry e : Collections.list(file.entries())) {
                if (e.getName().startsWith("test/") && e.getName().endsWith(".test")) {
                    files.add(e.getName());
                }
            }
        }
        files.sort(null);
        return files;
    }
}
