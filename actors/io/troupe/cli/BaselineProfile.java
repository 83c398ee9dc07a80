package io.troupe.cli;

import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Profiles a body of work with JDK Flight Recorder, in-process, and says where its time went: the
 * profile of the ablation's baseline ("where the baseline's time goes"), so
 * that the lessons' ratios can be read against what the baseline spends its time on.
 *
 * <p>{@link #record} starts a recording, runs the body, stops, writes {@code DIR/<name>.jfr} (open it
 * in JDK Mission Control for the rest), reads it back and writes {@code DIR/<name>.txt}: a summary
 * short enough to paste into the docs. What is recorded, and why:
 * <ul>
 *   <li>{@code jdk.ExecutionSample} every {@link #SAMPLE_PERIOD}: stacks of threads running Java code,
 *       for the methods by self samples (top frame, any code), Troupe's own methods by inclusive
 *       samples (anywhere on the stack, once per sample; Pekko's and the JDK's dispatch frames and
 *       lambdas' frames are on every worker's stack and would fill the list), and the samples per
 *       thread group. Parked, sleeping and native threads are not sampled, so a spinning idle
 *       strategy shows and a parked one does not.</li>
 *   <li>{@code jdk.ObjectAllocationSample}, throttled to {@link #ALLOCATION_SAMPLES_PER_SECOND}: the
 *       allocation sites by sampled weight (an estimate of the bytes each site allocated). A sample's
 *       weight is what its thread allocated since its previous sample, so each thread's first sample
 *       also counts what it allocated before the recording (the bench's tables, on main): it is left
 *       out.</li>
 *   <li>{@code jdk.GarbageCollection}: collections and their pauses, per collector.</li>
 *   <li>{@code jdk.ThreadPark} and {@code jdk.JavaMonitorEnter} at or above {@link #WAIT_THRESHOLD}:
 *       long waits only (idle strategies park for microseconds, thousands of times a second).</li>
 *   <li>{@code jdk.CPULoad} every second: on a shared machine, whether others took the CPUs.</li>
 * </ul>
 * Overhead: less than JFR's own "profile" settings (documented at about 2%): the same sampling
 * period (the JVM samples at most 5 running threads per period), half the allocation samples, and
 * waits recorded only past the threshold; no other event is enabled. Stacks are cut at the JVM's
 * default depth of 64 frames: the summary counts the truncated ones, whose outermost frames are
 * missing from the inclusive counts.
 *
 * <p>Threadsafe: each call records on its own {@link Recording}. Recordings that overlap (two calls,
 * or another recording of the JVM) each see every thread's events, so profile one thing at a time.
 */
final class BaselineProfile {

    /** Entries in each top list of the summary. */
    static final int DEFAULT_TOP = 15;
    /** JFR's "profile" setting: about 100 samples a second per busy thread, enough for runs of seconds. */
    static final Duration SAMPLE_PERIOD = Duration.ofMillis(10);
    /** Half of JFR's "profile" setting (300/s): the sites of a bulk columnar engine are few. */
    static final int ALLOCATION_SAMPLES_PER_SECOND = 150;
    /** JFR's default threshold for parks and blocked monitor enters. */
    static final Duration WAIT_THRESHOLD = Duration.ofMillis(10);
    /** Thread groups listed under parks and monitor enters. */
    private static final int WAIT_GROUPS = 5;
    /** The methods the inclusive list counts. */
    private static final String TROUPE_PACKAGE = "io.troupe.";
    /** Runs of digits and UUIDs (Aeron's driver threads are named after its directory). */
    private static final Pattern NUMBERS = Pattern.compile("[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}|\\d+");
    private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    private BaselineProfile() {
    }

    /** The work to profile. */
    @FunctionalInterface
    interface Body {
        void run() throws Exception;
    }

    /** One line of a top list: a method, thread group or allocation site, and its samples (or bytes). */
    record Entry(String name, long count) {
    }

    /**
     * A recording, summarised: execution samples, the top methods by self and inclusive samples, the
     * samples per thread group (all of them), and the whole summary as text (what the .txt holds).
     */
    record Summary(long executionSamples, List<Entry> topSelf, List<Entry> topInclusive, List<Entry> threadGroups,
                   String text) {
    }

    /**
     * Runs {@code body} under a recording, writes {@code dir/name.jfr} and its summary
     * {@code dir/name.txt} ({@link #DEFAULT_TOP} per list), and returns the summary. The recording is
     * closed however the body ends; when it throws, its exception propagates and no files are written.
     *
     * @param name a file name without extension: letters, digits, '.', '_' and '-'
     * @throws IllegalArgumentException when the name is not such a name
     * @throws IllegalStateException when this JVM has no Flight Recorder
     */
    static Summary record(Path dir, String name, Body body) throws Exception {
        if (!FILE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("profile name must be a plain file name (letters, digits, '.', '_', "
                    + "'-'), got '" + name + "'");
        }
        if (!FlightRecorder.isAvailable()) {
            throw new IllegalStateException("cannot profile '" + name + "': this JVM has no Flight Recorder");
        }
        Files.createDirectories(dir);
        Path jfr = dir.resolve(name + ".jfr");
        try (Recording recording = recording(name)) {
            recording.start();
            try {
                body.run();
            } finally {
                recording.stop();
            }
            recording.dump(jfr);
        }
        Summary summary = summarize(jfr, DEFAULT_TOP);
        Files.writeString(dir.resolve(name + ".txt"), summary.text());
        return summary;
    }

    /** The recording's name in the JVM (as {@link FlightRecorder#getRecordings()} lists it). */
    static String recordingName(String name) {
        return "troupe-profile-" + name;
    }

    private static Recording recording(String name) {
        Recording recording = new Recording();
        recording.setName(recordingName(name));
        recording.setToDisk(true);
        recording.enable("jdk.ExecutionSample").withPeriod(SAMPLE_PERIOD);
        recording.enable("jdk.ObjectAllocationSample").withStackTrace()
                .with("throttle", ALLOCATION_SAMPLES_PER_SECOND + "/s");
        recording.enable("jdk.GarbageCollection");
        recording.enable("jdk.ThreadPark").withThreshold(WAIT_THRESHOLD).withStackTrace();
        recording.enable("jdk.JavaMonitorEnter").withThreshold(WAIT_THRESHOLD).withStackTrace();
        recording.enable("jdk.CPULoad").withPeriod(Duration.ofSeconds(1));
        return recording;
    }

    /** Reads a recording back and summarises it, {@code top} entries per list. */
    static Summary summarize(Path jfr, int top) throws IOException {
        Tally tally = new Tally();
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                tally.add(file.readEvent());
            }
        }
        return tally.summary(jfr, top);
    }

    /**
     * A thread's group: its name with every run of digits (and UUID) as '*', so that siblings share it
     * ("troupe-*-worker-dispatcher-*").
     */
    private static String threadGroup(RecordedThread thread) {
        if (thread == null) {
            return "(unknown thread)";
        }
        String name = thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
        return name == null ? "(unnamed thread)" : NUMBERS.matcher(name).replaceAll("*");
    }

    /** Whether the inclusive list counts a method: Troupe's own, not a lambda's (its caller names it better). */
    private static boolean counted(RecordedMethod method) {
        String type = method.getType().getName();
        return type.startsWith(TROUPE_PACKAGE) && !type.contains("$$Lambda") && !method.getName().startsWith("lambda$");
    }

    /** A method as the summary names it: its class's simple name and its own. */
    private static String method(RecordedFrame frame) {
        RecordedMethod method = frame.getMethod();
        return simpleName(method.getType().getName()) + "." + method.getName();
    }

    /**
     * A class's name without its package: nested classes keep their '$', a lambda is its host's
     * {@code $$Lambda} (without the hidden class's number), an array is written as in Java ({@code int[]}).
     */
    static String simpleName(String className) {
        int dims = 0;
        while (dims < className.length() && className.charAt(dims) == '[') {
            dims++;
        }
        String element = className.substring(dims);
        if (dims > 0) {
            element = switch (element) {
                case "Z" -> "boolean";
                case "B" -> "byte";
                case "C" -> "char";
                case "S" -> "short";
                case "I" -> "int";
                case "J" -> "long";
                case "F" -> "float";
                case "D" -> "double";
                default -> element.substring(1, element.length() - 1);
            };
        }
        int lambda = element.indexOf("$$Lambda");
        if (lambda >= 0) {
            element = element.substring(0, lambda + "$$Lambda".length());
        }
        return element.substring(element.lastIndexOf('.') + 1) + "[]".repeat(dims);
    }

    /** The counts of one recording, event by event. Not threadsafe: one reader. */
    private static final class Tally {

        private long samples;
        private long truncated;
        private final Map<String, Long> self = new HashMap<>();
        private final Map<String, Long> inclusive = new HashMap<>();
        private final Map<String, Long> threads = new HashMap<>();
        private final Map<String, Long> allocations = new HashMap<>();
        /** Threads whose first allocation sample was seen (and left out). */
        private final Set<Long> allocatingThreads = new HashSet<>();
        private long allocatedBytes;
        private final Map<String, Long> collections = new HashMap<>();
        private final Map<String, Duration> gcPauses = new HashMap<>();
        private final Map<String, Duration> longestGcPause = new HashMap<>();
        private final Waits parks = new Waits();
        private final Waits monitors = new Waits();
        private double jvmLoad;
        private double machineLoad;
        private int loadSamples;
        private Instant first;
        private Instant last;

        void add(RecordedEvent event) {
            Instant start = event.getStartTime();
            first = first == null || start.isBefore(first) ? start : first;
            last = last == null || event.getEndTime().isAfter(last) ? event.getEndTime() : last;
            switch (event.getEventType().getName()) {
                case "jdk.ExecutionSample" -> onSample(event);
                case "jdk.ObjectAllocationSample" -> onAllocation(event);
                case "jdk.GarbageCollection" -> {
                    String gc = event.getString("name");
                    collections.merge(gc, 1L, Long::sum);
                    gcPauses.merge(gc, event.getDuration("sumOfPauses"), Duration::plus);
                    longestGcPause.merge(gc, event.getDuration("longestPause"),
                            (a, b) -> a.compareTo(b) >= 0 ? a : b);
                }
                case "jdk.ThreadPark" -> parks.add(event);
                case "jdk.JavaMonitorEnter" -> monitors.add(event);
                case "jdk.CPULoad" -> {
                    jvmLoad += event.getFloat("jvmUser") + event.getFloat("jvmSystem");
                    machineLoad += event.getFloat("machineTotal");
                    loadSamples++;
                }
                default -> {
                }
            }
        }

        private void onSample(RecordedEvent event) {
            samples++;
            threads.merge(threadGroup(event.getThread("sampledThread")), 1L, Long::sum);
            RecordedStackTrace stack = event.getStackTrace();
            if (stack == null || stack.getFrames().isEmpty()) {
                self.merge("(no stack)", 1L, Long::sum);
                return;
            }
            truncated += stack.isTruncated() ? 1 : 0;
            List<RecordedFrame> frames = stack.getFrames();
            self.merge(method(frames.get(0)), 1L, Long::sum);
            Set<String> seen = new HashSet<>();
            for (RecordedFrame frame : frames) {
                if (!counted(frame.getMethod())) {
                    continue;
                }
                String m = method(frame);
                if (seen.add(m)) {
                    inclusive.merge(m, 1L, Long::sum);
                }
            }
        }

        private void onAllocation(RecordedEvent event) {
            RecordedThread thread = event.getThread();
            if (thread == null || allocatingThreads.add(thread.getJavaThreadId())) {
                return;
            }
            long weight = event.getLong("weight");
            allocatedBytes += weight;
            RecordedStackTrace stack = event.getStackTrace();
            String site = stack == null || stack.getFrames().isEmpty() ? "(no stack)" : method(stack.getFrames().get(0));
            RecordedClass type = event.getClass("objectClass");
            allocations.merge(site + " (" + (type == null ? "?" : simpleName(type.getName())) + ")", weight, Long::sum);
        }

        Summary summary(Path jfr, int top) {
            StringBuilder text = new StringBuilder();
            Duration span = first == null ? Duration.ZERO : Duration.between(first, last);
            text.append(String.format(Locale.ROOT, "JFR profile %s: %.1f s recorded, %,d execution samples "
                    + "(every %d ms, threads running Java code only)%n",
                    jfr.getFileName(), span.toMillis() / 1000.0, samples, SAMPLE_PERIOD.toMillis()));
            if (truncated > 0) {
                text.append(String.format(Locale.ROOT, "  %,d stacks cut at 64 frames: their outer frames are "
                        + "missing from the inclusive counts%n", truncated));
            }
            if (loadSamples > 0) {
                text.append(String.format(Locale.ROOT, "CPU load (mean of %d one-second samples): this JVM %.0f%%, "
                        + "the whole machine %.0f%%%n", loadSamples, 100 * jvmLoad / loadSamples,
                        100 * machineLoad / loadSamples));
            }
            List<Entry> groups = top(threads, Integer.MAX_VALUE);
            List<Entry> topSelf = top(self, top);
            List<Entry> topInclusive = top(inclusive, top);
            text.append("\nSamples by thread group (digits as *):\n");
            appendSamples(text, groups);
            text.append(String.format(Locale.ROOT, "%nTop %d methods by self samples (the top frame):%n", top));
            appendSamples(text, topSelf);
            text.append(String.format(Locale.ROOT, "%nTop %d of Troupe's methods by inclusive samples (anywhere "
                    + "on the stack, once per sample):%n", top));
            appendSamples(text, topInclusive);
            appendGc(text);
            appendAllocations(text, top);
            parks.append(text, "Thread parks");
            monitors.append(text, "Blocked monitor enters");
            return new Summary(samples, topSelf, topInclusive, groups, text.toString());
        }

        private void appendSamples(StringBuilder text, List<Entry> entries) {
            if (entries.isEmpty()) {
                text.append("  (none)\n");
            }
            for (Entry e : entries) {
                text.append(String.format(Locale.ROOT, "  %,8d %5.1f%%  %s%n", e.count(),
                        100.0 * e.count() / samples, e.name()));
            }
        }

        private void appendGc(StringBuilder text) {
            text.append("\nGC:");
            if (collections.isEmpty()) {
                text.append(" no collections\n");
                return;
            }
            text.append('\n');
            for (Entry e : top(collections, Integer.MAX_VALUE)) {
                text.append(String.format(Locale.ROOT, "  %-20s %,6d collections, %s paused in all, longest %s%n",
                        e.name(), e.count(), millis(gcPauses.get(e.name())), millis(longestGcPause.get(e.name()))));
            }
        }

        private void appendAllocations(StringBuilder text, int top) {
            if (allocations.isEmpty()) {
                text.append("\nAllocation: no samples\n");
                return;
            }
            text.append(String.format(Locale.ROOT, "%nTop %d allocation sites by sampled weight (estimated "
                    + "bytes; %s in all; each thread's first sample left out):%n", top, mebibytes(allocatedBytes)));
            for (Entry e : top(allocations, top)) {
                text.append(String.format(Locale.ROOT, "  %12s %5.1f%%  %s%n", mebibytes(e.count()),
                        100.0 * e.count() / allocatedBytes, e.name()));
            }
        }
    }

    /** Waits of one kind past the threshold: their count, total time, and time per thread group. */
    private static final class Waits {

        private long count;
        private Duration total = Duration.ZERO;
        private final Map<String, Long> nanosByGroup = new HashMap<>();

        void add(RecordedEvent event) {
            count++;
            total = total.plus(event.getDuration());
            nanosByGroup.merge(threadGroup(event.getThread()), event.getDuration().toNanos(), Long::sum);
        }

        void append(StringBuilder text, String what) {
            text.append(String.format(Locale.ROOT, "%n%s of %d ms or more: %,d, %s in all", what,
                    WAIT_THRESHOLD.toMillis(), count, millis(total)));
            if (count == 0) {
                text.append('\n');
                return;
            }
            text.append(", by thread group:\n");
            for (Entry e : top(nanosByGroup, WAIT_GROUPS)) {
                text.append(String.format(Locale.ROOT, "  %12s  %s%n", millis(Duration.ofNanos(e.count())), e.name()));
            }
        }
    }

    /** The {@code n} largest counts, largest first, ties by name (so that summaries compare). */
    private static List<Entry> top(Map<String, Long> counts, int n) {
        return counts.entrySet().stream()
                .map(e -> new Entry(e.getKey(), e.getValue()))
                .sorted(Comparator.comparingLong(Entry::count).reversed().thenComparing(Entry::name))
                .limit(n)
                .toList();
    }

    private static String millis(Duration d) {
        return String.format(Locale.ROOT, "%,.1f ms", d.toNanos() / 1e6);
    }

    private static String mebibytes(long bytes) {
        return String.format(Locale.ROOT, "%,.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
