package io.troupe;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM a test starts, on the test's classpath (surefire's {@code surefire.test.class.path}: in the
 * forked JVM {@code java.class.path} is surefire's booter jar) with the flag Agrona needs,
 * running a {@code main} of the test sources. Its stdout and stderr are
 * read, merged, by a daemon thread of its own. Every wait is bounded; {@link #close()} kills the
 * child through its own process handle (by its pid, never by name) and waits for it to go.
 *
 * <p>Threadsafe: the output is guarded by this object's monitor.
 */
public final class ChildJvm implements AutoCloseable {

    private static final Duration KILL_WAIT = Duration.ofSeconds(10);

    private final Process process;
    private final List<String> lines = new ArrayList<>();
    private final Thread reader;

    private ChildJvm(Process process) {
        this.process = process;
        this.reader = new Thread(this::readOutput, "child-jvm-" + process.pid() + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code main} in a new JVM with {@code jvmOptions} (a heap size, say) before the class and
     * {@code args} after it.
     */
    public static ChildJvm start(Class<?> main, List<String> jvmOptions, String... args) throws IOException {
        List<String> options = new ArrayList<>(List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"));
        options.addAll(jvmOptions);
        return startBare(main, options, args);
    }

    /**
     * As {@link #start}, through {@code launcher}: a command that runs the JVM's command line it is given
     * (such as {@code ip netns exec NAME}) and becomes it, so that the child's pid is the JVM's.
     */
    public static ChildJvm startThrough(List<String> launcher, Class<?> main, List<String> jvmOptions, String... args)
            throws IOException {
        List<String> options = new ArrayList<>(List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"));
        options.addAll(jvmOptions);
        return start(launcher, main, options, args);
    }

    /** As {@link #start}, without the flag Agrona needs: as a new user's JVM starts. */
    public static ChildJvm startBare(Class<?> main, List<String> jvmOptions, String... args) throws IOException {
        return start(List.of(), main, jvmOptions, args);
    }

    private static ChildJvm start(List<String> launcher, Class<?> main, List<String> jvmOptions, String... args)
            throws IOException {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(launcher);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classpath);
        command.add(main.getName());
        command.addAll(List.of(args));
        return new ChildJvm(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    public long pid() {
        return process.pid();
    }

    /**
     * Waits, at most {@code timeout}, for a line of output that starts with {@code prefix}, and
     * returns it.
     *
     * @throws AssertionError with the output so far when none came in time, or the child ended first
     */
    public String awaitLine(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (this) {
            int seen = 0;
            while (true) {
                for (; seen < lines.size(); seen++) {
                    if (lines.get(seen).startsWith(prefix)) {
                        return lines.get(seen);
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || (!reader.isAlive() && seen == lines.size())) {
                    throw new AssertionError("no line starting with '" + prefix + "' from child " + pid()
                            + " within " + timeout.toMillis() + " ms; its output:\n" + output());
                }
                TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
            }
        }
    }

    /**
     * Waits, at most {@code timeout}, for the child to exit by itself, and its output to be read.
     *
     * @return its exit code
     * @throws AssertionError with the output so far when it did not exit in time
     */
    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("child " + pid() + " did not exit within " + timeout.toMillis()
                    + " ms; its output:\n" + output());
        }
        reader.join(KILL_WAIT.toMillis());
        return process.exitValue();
    }

    /** Kills the child, by its own pid, at once, and waits (bounded) for it to be gone. */
    public void kill() throws InterruptedException {
        process.toHandle().destroyForcibly();
        process.waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Everything it wrote so far, one line per line. */
    public synchronized String output() {
        return String.join("\n", lines);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }

    private void readOutput() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                synchronized (this) {
                    lines.add(line);
                    notifyAll();
                }
            }
        } catch (IOException e) {
            synchronized (this) {
                lines.add("(reading the child's output failed: " + e + ")");
            }
        } finally {
            synchronized (this) {
                notifyAll();
            }
        }
    }
}
