package io.troupe.cli.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Two "hosts" for a test: Linux network namespaces {@code troupe-PID-a} and {@code troupe-PID-b} (PID: the
 * test JVM's, so that runs never share names), joined by a veth pair with one address each in a /24
 * drawn from the pid, and loopback up in both. Nothing of it touches the test's own namespace. Making them
 * needs root and iproute2; {@link #unavailable()} says why they cannot be made here. Every {@code ip}
 * command is bounded in time; {@link #close()} deletes both namespaces by name, and the veth pair with
 * them, after the caller has ended the processes it ran in them.
 *
 * <p>Not threadsafe: one test's.
 */
final class NetworkNamespaces implements AutoCloseable {

    private static final long IP_TIMEOUT_S = 15;

    final String a;
    final String b;
    final String addressA;
    final String addressB;
    private final List<String> made = new ArrayList<>();

    private NetworkNamespaces(long pid) {
        a = "troupe-" + pid + "-a";
        b = "troupe-" + pid + "-b";
        int third = (int) (pid >> 8 & 0xff);
        int fourth = (int) (pid & 0xff);
        String subnet = "10." + (200 + third % 50) + "." + fourth + ".";
        addressA = subnet + "1";
        addressB = subnet + "2";
    }

    /** Why namespaces cannot be made on this machine; empty when they can be tried. */
    static Optional<String> unavailable() throws IOException, InterruptedException {
        if (!System.getProperty("os.name").toLowerCase().contains("linux")) {
            return Optional.of("network namespaces are Linux's; this is " + System.getProperty("os.name"));
        }
        if (!isRoot()) {
            return Optional.of("'ip netns add' needs root, and this test runs as another user");
        }
        Result ip = run(List.of("ip", "-V"));
        if (ip.code != 0) {
            return Optional.of("no iproute2 'ip' command here (" + ip.output.strip() + ")");
        }
        return Optional.empty();
    }

    /** Makes both namespaces and the veth pair between them. */
    static NetworkNamespaces make() throws IOException, InterruptedException {
        long pid = ProcessHandle.current().pid();
        NetworkNamespaces hosts = new NetworkNamespaces(pid);
        String vethA = "tr" + pid + "a";
        String vethB = "tr" + pid + "b";
        try {
            hosts.addNamespace(hosts.a);
            hosts.addNamespace(hosts.b);
            ip("link", "add", vethA, "type", "veth", "peer", "name", vethB);
            ip("link", "set", vethA, "netns", hosts.a);
            ip("link", "set", vethB, "netns", hosts.b);
            ip("-n", hosts.a, "addr", "add", hosts.addressA + "/24", "dev", vethA);
            ip("-n", hosts.b, "addr", "add", hosts.addressB + "/24", "dev", vethB);
            for (String[] up : new String[][] {{hosts.a, vethA}, {hosts.b, vethB}, {hosts.a, "lo"}, {hosts.b, "lo"}}) {
                ip("-n", up[0], "link", "set", up[1], "up");
            }
        } catch (IOException | RuntimeException e) {
            hosts.close();
            throw e;
        }
        return hosts;
    }

    /** What runs a command in namespace {@code name}: {@code ip netns exec} becomes the command, pid and all. */
    static List<String> inside(String name) {
        return List.of("ip", "netns", "exec", name);
    }

    private void addNamespace(String name) throws IOException, InterruptedException {
        ip("netns", "add", name);
        made.add(name);
    }

    /** Deletes the namespaces this made (the veth pair goes with them). */
    @Override
    public void close() throws IOException, InterruptedException {
        List<String> failures = new ArrayList<>();
        for (String name : made) {
            Result r = run(List.of("ip", "netns", "delete", name));
            if (r.code != 0) {
                failures.add(name + ": " + r.output.strip());
            }
        }
        made.clear();
        if (!failures.isEmpty()) {
            throw new IOException("could not delete network namespaces " + failures);
        }
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        Result r = run(command);
        if (r.code != 0) {
            throw new IOException(String.join(" ", command) + " failed (" + r.code + "): " + r.output.strip());
        }
    }

    private static boolean isRoot() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
            if (line.startsWith("Uid:")) {
                return line.split("\\s+")[1].equals("0");
            }
        }
        return false;
    }

    private record Result(int code, String output) {
    }

    private static Result run(List<String> command) throws IOException, InterruptedException {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return new Result(127, e.getMessage());
        }
        if (!process.waitFor(IP_TIMEOUT_S, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not end within " + IP_TIMEOUT_S + " s");
        }
        return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(),
                StandardCharsets.UTF_8));
    }
}
