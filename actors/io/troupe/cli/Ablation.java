package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.table.Table;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code troupe ablation} (and {@code troupe bench --ablation}): each lesson's switch on and off,
 * side by side in one run (docs/overview.md, "Three lessons"). Settings are per Troupe, so a
 * workload gets one Troupe per setting of its lesson, all holding the same tables, made once (tables
 * are immutable). Then the bench's rounds ({@link Rounds}): each round runs every setting with every
 * worker count once, so that both sides of a ratio see the same moment of a noisy machine; untimed
 * warm-up rounds come first. The Troupes close before
 * the next workload. Every run, warm-ups included, must repeat the workload's first answer (rows
 * and checksum); a disagreement stops the ablation with exit status 1 naming both runs.
 *
 * <p>After a workload's timed rounds, its baseline runs {@code runs} more times (and for at least
 * three seconds) with the most workers under a JFR recording ({@link BaselineProfile}):
 * DIR/profile-LESSON-WORKLOAD.jfr, and a summary of where the time went in .txt beside it. These
 * runs are neither timed (the profiler's cost stays out of the ratios) nor checked, nor preceded by
 * a full GC: the timed rounds checked every answer, and a checksum or a collection per run would put
 * the harness in the profile.
 *
 * <p>Prints the table of {@link AblationReport#table} and writes DIR/ablation.csv and the chart
 * DIR/ablation.png ({@link AblationChart}); progress goes to stderr.
 *
 * <p>Not threadsafe: {@link AblationCommand} runs it once, on its thread.
 */
final class Ablation {

    /**
     * The least time a baseline's profile records, however short its runs: a few hundred samples at
     * JFR's 10 ms period, so that a 20 ms query still shows where its time goes.
     */
    private static final long PROFILE_NANOS = 3_000_000_000L;

    private final List<AblationLesson> lessons;
    private final List<Integer> workers;
    private final BenchSize size;
    private final int runs;
    private final int warmups;
    private final Path out;
    private final BenchCommand.OutcomeSeam seam;
    /** How the output names the command: "ablation", "bench --ablation". */
    private final String invocation;
    /** The prefix of progress lines and failures: "ablation", "bench". */
    private final String command;
    /** What every setting starts from: reference.conf, application.conf and -Dtroupe.* properties. */
    private final TroupeSettings defaults = TroupeSettings.load();
    private final AnswerCheck answers = new AnswerCheck();
    /** Lines printed under the table: what the settings were and what the arenas did. */
    private final List<String> notes = new ArrayList<>();

    /**
     * @param lessons    the lessons to run, in order
     * @param workers    worker counts, ascending, each at least 1
     * @param rounds     the checked options: size, rounds, where the results go (its workers are {@code workers})
     * @param seam       alters each outcome before it is checked (the identity but in tests)
     * @param invocation how the output names the command: "ablation", "bench --ablation"
     */
    Ablation(List<AblationLesson> lessons, List<Integer> workers, RoundOptions rounds, BenchCommand.OutcomeSeam seam,
             String invocation) {
        this.lessons = List.copyOf(lessons);
        this.workers = List.copyOf(workers);
        this.size = rounds.size();
        this.runs = rounds.runs;
        this.warmups = rounds.warmups;
        this.out = rounds.out;
        this.seam = seam;
        this.invocation = invocation;
        this.command = invocation.split(" ", 2)[0];
    }

    /** Runs every lesson, prints the table and writes ablation.csv; 0 on success, 1 on a disagreement. */
    int run(PrintWriter stdout, PrintWriter err) throws Exception {
        long t0 = System.nanoTime();
        AblationReport report = new AblationReport(lessons);
        try {
            for (AblationLesson lesson : lessons) {
                for (AblationWorkload workload : lesson.workloads()) {
                    runWorkload(lesson, workload, report, err);
                }
            }
        } catch (BenchMismatchException e) {
            err.println("troupe " + command + ": FAILED: " + e.getMessage());
            err.flush();
            return 1;
        }
        List<AblationSummary> summaries = report.summaries();
        Path csv = out.resolve("ablation.csv");
        report.writeCsv(csv);
        Path png = out.resolve("ablation.png");
        Map<String, String> titles = new HashMap<>();
        for (AblationLesson lesson : lessons) {
            titles.put(lesson.id(), lesson.title());
        }
        new AblationChart(summaries, titles).write(png);
        stdout.printf(Locale.ROOT, "troupe %s: %,d rows, W3 at %s, %d timed rounds after %d warm-up(s), settings "
                        + "and worker counts alternating, %d processors; wall seconds of the whole query; ratio = "
                        + "setting / baseline (*) of the same round, median and min-max; above 1: slower than the "
                        + "baseline%n",
                invocation, size.rows(), BenchWorkload.W3.size(size), runs, warmups,
                Runtime.getRuntime().availableProcessors());
        stdout.print(AblationReport.table(summaries));
        for (AblationLesson lesson : lessons) {
            stdout.printf("%s: %s%n", lesson.id(), lesson.what());
        }
        for (String note : notes) {
            stdout.println(note);
        }
        stdout.printf(Locale.ROOT, "wrote %s, %s and the baselines' profiles (%s) in %.1f s%n", csv, png,
                out.resolve("profile-*.txt"), Rounds.seconds(t0));
        stdout.flush();
        return 0;
    }

    private void runWorkload(AblationLesson lesson, AblationWorkload workload, AblationReport report,
                             PrintWriter err) throws Exception {
        String title = lesson.id() + " " + workload.id();
        long t0 = System.nanoTime();
        List<Table> tables = workload.tables().make(size, err);
        Rounds.progress(err, command, "%s: tables generated in %.2f s", title, Rounds.seconds(t0));
        List<AblationSetting> settings = lesson.settings();
        List<Troupe> troupes = new ArrayList<>();
        try {
            for (AblationSetting setting : settings) {
                Troupe troupe = Troupe.start(setting.apply().apply(workload.settings().apply(defaults)));
                troupes.add(troupe);
                for (Table table : tables) {
                    troupe.register(table);
                }
            }
            List<Rounds.Slot> slots = new ArrayList<>();
            for (int k : workers) {
                for (int s = 0; s < settings.size(); s++) {
                    slots.add(slot(lesson, workload, settings.get(s), troupes.get(s), k, report));
                }
            }
            Rounds.run(slots, warmups, runs, command, title, err);
            noteArenas(title, settings, troupes);
            int most = workers.get(workers.size() - 1);
            int[] profiled = {0};
            String profileName = "profile-" + lesson.id() + "-" + workload.id();
            BaselineProfile.Summary profile = BaselineProfile.record(out, profileName, () -> {
                long start = System.nanoTime();
                while (profiled[0] < runs || System.nanoTime() - start < PROFILE_NANOS) {
                    troupes.get(0).execute(workload.query().get(), QueryOptions.defaults().withWorkers(most));
                    profiled[0]++;
                }
            });
            Rounds.progress(err, command, "%s: profiled %d runs of %s with %d workers: %,d samples", title, profiled[0],
                    lesson.baseline().name(), most, profile.executionSamples());
        } finally {
            for (Troupe troupe : troupes) {
                troupe.close();
            }
        }
    }

    /**
     * The slot of {@code workload} under {@code setting} (whose Troupe is {@code troupe}) with {@code k}
     * workers: each run checked against the workload's first answer, each timed one kept in {@code report}.
     */
    private Rounds.Slot slot(AblationLesson lesson, AblationWorkload workload, AblationSetting setting, Troupe troupe,
                             int k, AblationReport report) {
        String engine = lesson.id() + " " + setting.name();
        return new Rounds.Slot() {
            @Override
            public String name() {
                return setting.name() + "/" + k;
            }

            @Override
            public BenchOutcome run() {
                BenchOutcome outcome = seam.apply(engine, k, TroupeBenchEngine.time(troupe, workload.query().get(), k));
                answers.check(workload.id(), engine, k, outcome);
                return outcome;
            }

            @Override
            public void record(int round, BenchOutcome outcome) {
                report.add(new AblationRun(lesson.id(), workload.id(), setting.name(), k, round, outcome.seconds()));
            }
        };
    }

    /**
     * Notes the memory of each setting that changed it (lesson 2's), and every chunk an arena had to
     * allocate on demand beyond its preallocation: a preallocated setting that did so did not run
     * as its lesson means.
     */
    private void noteArenas(String title, List<AblationSetting> settings, List<Troupe> troupes) {
        for (int s = 0; s < settings.size(); s++) {
            TroupeSettings.Memory memory = troupes.get(s).settings().memory();
            long preallocated = memory.preallocateBytes() / memory.chunkBytes();
            String name = title + " " + settings.get(s).name();
            if (!memory.equals(defaults.memory())) {
                notes.add(String.format(Locale.ROOT, "%s: %d KiB chunks, %s", name, memory.chunkBytes() / 1024,
                        preallocated == 0 ? "allocated on demand" : String.format(Locale.ROOT,
                                "%.1f MiB preallocated (%d chunks)", memory.preallocateBytes() / (1024.0 * 1024),
                                preallocated)));
            }
            long beyond = troupes.get(s).memoryArena().allocatedChunks() - preallocated;
            if (preallocated > 0 && beyond > 0) {
                notes.add(String.format(Locale.ROOT, "%s: NOT ENOUGH: %d chunks allocated on demand beyond the %d "
                        + "preallocated", name, beyond, preallocated));
            }
        }
    }

}
