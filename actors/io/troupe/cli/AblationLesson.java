package io.troupe.cli;

import io.troupe.config.TroupeSettings;
import io.troupe.config.TroupeSettings.GatherTransport;
import io.troupe.config.TroupeSettings.MatchFlags;
import io.troupe.config.TroupeSettings.Memory;
import io.troupe.config.TroupeSettings.Transport;
import io.troupe.config.TroupeSettings.Wakeups;

import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * One of the three lessons (docs/overview.md, "Three lessons") as {@code troupe bench
 * --ablation} measures it: the workloads that show it and the positions of its switch, the first of
 * which is the baseline (the lesson on, as Troupe runs by default) that the others are compared with.
 * {@link #table} is the whole ablation as data. Immutable.
 *
 * @param id        s1, s2 or s3
 * @param title     what it switches, in a few words, for the chart (match flags)
 * @param what      what the lesson says, for the printed table
 * @param workloads the workloads timed under every setting
 * @param settings  the baseline first, then the positions measured against it
 */
record AblationLesson(String id, String title, String what, List<AblationWorkload> workloads,
                      List<AblationSetting> settings) {

    static final int CHUNK_32K = 32 * 1024;
    static final int CHUNK_128K = 128 * 1024;

    AblationLesson {
        workloads = List.copyOf(workloads);
        settings = List.copyOf(settings);
        if (workloads.isEmpty() || settings.size() < 2) {
            throw new IllegalArgumentException("lesson " + id
                    + " needs a workload, a baseline and a setting to compare");
        }
    }

    AblationSetting baseline() {
        return settings.get(0);
    }

    /**
     * The lessons and their settings. Every setting, the baseline included, sets its lesson's
     * switches itself, so that a {@code -Dtroupe.*} override of a switch cannot silently turn the
     * baseline off; every other setting stays as the bench starts from.
     *
     * @param rows       rows of the generated tables (--rows): lesson 2 preallocates for W1's hash table
     * @param maxWorkers the most workers of a run
     */
    static List<AblationLesson> table(long rows, int maxWorkers) {
        return List.of(
                new AblationLesson("s1", "match flags",
                        "don't write shared memory you only need to read (match flags)",
                        List.of(AblationWorkload.of(BenchWorkload.W3), AblationWorkload.RIGHT_JOIN),
                        List.of(new AblationSetting("check-before-write", matchFlags(MatchFlags.CHECK_BEFORE_WRITE)),
                                new AblationSetting("always-write", matchFlags(MatchFlags.ALWAYS_WRITE)))),
                new AblationLesson("s2", "preallocated memory",
                        "pay for memory once, up front (arena preallocation, chunk size)",
                        List.of(AblationWorkload.of(BenchWorkload.W1)),
                        List.of(new AblationSetting("preallocate=fit", memory(CHUNK_32K, true, rows, maxWorkers)),
                                new AblationSetting("preallocate=0", memory(CHUNK_32K, false, rows, maxWorkers)),
                                new AblationSetting("chunk-size=128k", memory(CHUNK_128K, true, rows, maxWorkers)))),
                new AblationLesson("s3", "transport and wake-ups",
                        "no locks on the data path, wake the other side rarely (gather transport; "
                                + "gather runs without leader participation)",
                        List.of(AblationWorkload.of(BenchWorkload.W2), AblationWorkload.GATHER),
                        List.of(new AblationSetting("aeron", gather(GatherTransport.AERON, Wakeups.BATCHED)),
                                new AblationSetting("locked-queue",
                                        gather(GatherTransport.LOCKED_QUEUE, Wakeups.BATCHED)),
                                new AblationSetting("per-batch",
                                        gather(GatherTransport.LOCKED_QUEUE, Wakeups.PER_BATCH)))));
    }

    /** The lesson with id {@code id} (s1, S2, ...) in {@code lessons}, or null. */
    static AblationLesson find(List<AblationLesson> lessons, String id) {
        String wanted = id.trim().toLowerCase(Locale.ROOT);
        for (AblationLesson lesson : lessons) {
            if (lesson.id().equals(wanted)) {
                return lesson;
            }
        }
        return null;
    }

    /**
     * Bytes of arena that hold W1's hash table at {@code rows}. Sized from the rows, not measured:
     * W1 builds t2, one INT32 key per row, which HashJoinTable packs into one long per row; each
     * build participant (every worker and the leader) fills chunks of its own, so at most one partly
     * filled chunk each. Ablation reports any chunk an arena had to allocate beyond its preallocation.
     */
    static long w1HashTableBytes(long rows, int chunkBytes, int maxWorkers) {
        long fullChunks = (rows * Long.BYTES + chunkBytes - 1) / chunkBytes;
        return (fullChunks + maxWorkers + 1) * chunkBytes;
    }

    private static UnaryOperator<TroupeSettings> matchFlags(MatchFlags flags) {
        return s -> s.withMatchFlags(flags);
    }

    /**
     * Chunks of {@code chunkBytes}, preallocated to hold W1's hash table or allocated on demand; the
     * budget holds the hash table either way.
     */
    private static UnaryOperator<TroupeSettings> memory(int chunkBytes, boolean preallocate, long rows,
                                                        int maxWorkers) {
        long fit = w1HashTableBytes(rows, chunkBytes, maxWorkers);
        return s -> s.withMemory(new Memory(chunkBytes, preallocate ? fit : 0,
                Math.max(s.memory().budgetBytes(), fit)));
    }

    private static UnaryOperator<TroupeSettings> gather(GatherTransport transport, Wakeups wakeups) {
        return s -> {
            Transport t = s.transport();
            return new TroupeSettings(s.batchSize(), s.matchFlags(),
                    new Transport(transport, wakeups, t.queueCapacity(), t.termLengthBytes(), t.mtuBytes(),
                            t.idleStrategy(), t.driverThreading(), t.directoryParent()),
                    s.workers(), s.memory());
        };
    }
}
