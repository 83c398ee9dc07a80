package io.troupe.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.aeron.CncFileDescriptor;
import io.aeron.driver.MediaDriver;
import io.troupe.cli.loadtest.TableFiles;
import io.troupe.config.ClusterSettings;
import io.troupe.config.TroupeSettings;
import io.troupe.transport.aeron.StandaloneDriver;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What can be checked of docker/ without a Docker engine or the network (docker/README.md): the compose
 * file's shape, read as plain text (no YAML parser is a dependency): a driver service whose IPC namespace
 * the nodes share, one node service per {@code TROUPE_NODES} of .env, every {@code ${VAR}} defined there;
 * every node's command line, with .env's values, accepted by the CLI's own parser and by the checks
 * {@code troupe node} makes before it starts (seed, parts, partitioned tables of the example tables); the
 * entry point's driver options equal to {@link StandaloneDriver#systemProperties}, as
 * {@code bin/troupe cluster start} runs it, and its settings known ones; and the Dockerfile's COPY sources
 * made by {@code mvn package} and let through by .dockerignore.
 */
class DockerFilesTest {

    private static final Path DOCKER = Path.of("docker");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{(\\w+)}");
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");
    private static final Pattern SERVICE = Pattern.compile(" {2}([\\w-]+):\\s*");
    private static final Pattern ENTRY = Pattern.compile(" {4}([\\w<-]+):\\s*(.*)");
    private static final Pattern SYSTEM_PROPERTY = Pattern.compile("-D([\\w.-]+)=(\\S+)");
    /** Where the image's driver and nodes keep their Aeron files: the entry point's TROUPE_AERON_DIR default. */
    private static final String AERON = "/dev/shm/troupe";

    @Test
    void composeRunsADriverAndTheNodesOfEnvSharingItsIpc() throws IOException {
        Map<String, String> env = env();
        String compose = Files.readString(DOCKER.resolve("docker-compose.yml"));
        Map<String, Map<String, String>> services = services(compose);
        int nodes = Integer.parseInt(env.get("TROUPE_NODES"));

        Map<String, String> driver = services.get("driver");
        assertNotNull(driver, "a driver service: " + services.keySet());
        assertEquals("[\"driver\"]", driver.get("command"));
        assertEquals("shareable", driver.get("ipc"));
        assertEquals("${TROUPE_SHM_SIZE}", driver.get("shm_size"));
        Set<String> expected = new TreeSet<>(Set.of("driver"));
        for (int i = 1; i <= nodes; i++) {
            Map<String, String> node = services.get("node" + i);
            assertNotNull(node, "TROUPE_NODES=" + nodes + " but no service node" + i + ": " + services.keySet());
            assertEquals("*node", node.get("<<"), "node" + i + " takes x-node's settings");
            assertEquals("node" + i, node.get("hostname"));
            expected.add("node" + i);
        }
        assertEquals(expected, services.keySet(), "the services are the driver and TROUPE_NODES nodes");
        Map<String, String> shared = block(compose, "x-node: &node");
        assertEquals("\"service:driver\"", shared.get("ipc"));
        assertTrue(compose.contains("    - ${TROUPE_TABLES}:/data/tables:ro"), "the tables mounted for --tables");
        assertTrue(compose.contains("\"CMD\", \"test\", \"-f\", \"" + AERON + "/driver/" + CncFileDescriptor.CNC_FILE
                + "\""), "healthy once the driver's CnC file is there");

        Set<String> used = new TreeSet<>();
        Matcher m = VARIABLE.matcher(compose);
        while (m.find()) {
            used.add(m.group(1));
        }
        assertEquals(new TreeSet<>(env.keySet()), used, "the variables docker-compose.yml uses are .env's");
    }

    @Test
    void everyNodeCommandLineIsOneTroupeNodeAccepts() throws IOException {
        Map<String, String> env = env();
        Map<String, Map<String, String>> services = services(Files.readString(DOCKER.resolve("docker-compose.yml")));
        int nodes = Integer.parseInt(env.get("TROUPE_NODES"));
        ClusterSettings.SeedNode seed = ClusterSettings.SeedNode.parse(env.get("TROUPE_SEED"));
        assertTrue(services.containsKey(seed.host()), "the seed " + seed + " is a node's host name");
        assertEquals(env.get("TROUPE_PORT"), String.valueOf(seed.port()), "the seed's port is the nodes' port");
        Path tables = DOCKER.resolve(env.get("TROUPE_TABLES"));
        for (int i = 1; i <= nodes; i++) {
            Map<String, String> service = services.get("node" + i);
            assertNotNull(service, "TROUPE_NODES=" + nodes + " but no service node" + i + ": " + services.keySet());
            List<String> args = new ArrayList<>();
            Matcher quoted = QUOTED.matcher(service.get("command"));
            while (quoted.find()) {
                args.add(substitute(quoted.group(1), env));
            }
            ParseResult parsed = TroupeCli.commandLine(new TroupeCli()).parseArgs(args.toArray(String[]::new));
            assertTrue(parsed.hasSubcommand(), "node" + i + ": " + args);
            NodeCommand node = (NodeCommand) parsed.subcommand().commandSpec().userObject();
            assertEquals(Integer.valueOf(env.get("TROUPE_PORT")), node.port);
            assertEquals(List.of(seed.toString()), node.seeds);
            assertEquals(Integer.valueOf(env.get("TROUPE_WORKERS")), node.workers);
            assertEquals(Path.of("/data/tables"), node.tables);
            assertArrayEquals(new int[] {i - 1, nodes}, Partitioning.parsePart(node.part), "node" + i + "'s part");
            // What the node does with the tables mounted there: its part of each partitioned one.
            Partitioning.parse(node.partitioned).apply(TableFiles.read(tables), i - 1, nodes);
        }
    }

    @Test
    void theEntryPointRunsTheDriverAsTheClusterCommandDoesAndNodesOnIt() throws Exception {
        String script = Files.readString(DOCKER.resolve("entrypoint.sh"));
        Process syntax = new ProcessBuilder("sh", "-n", DOCKER.resolve("entrypoint.sh").toString()).inheritIO().start();
        assertTrue(syntax.waitFor(30, TimeUnit.SECONDS), "sh -n ran past 30 s");
        assertEquals(0, syntax.exitValue(), "sh -n: the script parses");
        assertTrue(Files.isExecutable(DOCKER.resolve("entrypoint.sh")));
        assertTrue(script.contains("aeron=${TROUPE_AERON_DIR:-" + AERON + "}"), "the Aeron files' default place");

        String driver = caseBlock(script, "driver)");
        List<String> options = new ArrayList<>();
        Matcher d = SYSTEM_PROPERTY.matcher(driver.replace("\"$aeron", AERON).replace("\"", ""));
        while (d.find()) {
            options.add(d.group());
        }
        assertEquals(StandaloneDriver.systemProperties(TroupeSettings.load().transport(), Path.of(AERON, "driver")),
                options);
        assertTrue(driver.contains("exec java " + LocalCluster.DRIVER_HEAP + " $exports"), driver);
        assertTrue(driver.contains(StandaloneDriver.mainClass()), driver);
        assertEquals(MediaDriver.class.getName(), StandaloneDriver.mainClass());

        String node = caseBlock(script, "node)");
        assertTrue(node.contains(TroupeCli.class.getName() + " node \"$@\""), node);
        Map<String, Object> settings = new HashMap<>();
        Matcher s = SYSTEM_PROPERTY.matcher(node.replace("\"", ""));
        while (s.find()) {
            settings.put(s.group(1), s.group(2));
        }
        assertEquals(Set.of("troupe.cluster.host", "troupe.cluster.media-driver-dir", "troupe.transport.dir"),
                settings.keySet());
        assertEquals("$aeron/driver", settings.get("troupe.cluster.media-driver-dir"));
        // Known keys (an unknown one fails with the nearest), read as a node reads them.
        Config config = ConfigFactory.parseMap(settings).withFallback(ConfigFactory.load());
        ClusterSettings.from(config);
        TroupeSettings.from(config);
        assertTrue(script.contains("--add-exports java.base/jdk.internal.misc=ALL-UNNAMED"));
    }

    @Test
    void theDockerfileCopiesWhatPackageMakesAndDockerignoreLetsThrough() throws IOException {
        List<String> lines = Files.readAllLines(DOCKER.resolve("Dockerfile"));
        assertTrue(lines.contains("FROM eclipse-temurin:17-jre"), "the base image");
        List<String> sources = copySources(lines);
        assertEquals(List.of("target/lib/", "target/troupe.jar", "docker/entrypoint.sh"), sources);
        String pom = Files.readString(Path.of("pom.xml"));
        assertTrue(pom.contains("<finalName>troupe</finalName>"), "mvn package makes target/troupe.jar");
        assertTrue(pom.contains("<includeScope>runtime</includeScope>\n              <outputDirectory>"
                + "${project.build.directory}/lib</outputDirectory>"), "mvn package copies the runtime jars to target/lib");
        List<String> ignore = Files.readAllLines(Path.of(".dockerignore"));
        assertTrue(ignore.contains("*"), ".dockerignore leaves out everything but the COPY sources");
        for (String source : sources) {
            String path = source.endsWith("/") ? source.substring(0, source.length() - 1) : source;
            assertTrue(ignore.contains("!" + path), ".dockerignore lets " + path + " through");
        }
    }

    @Test
    void afterPackageTheCopiedFilesHoldTheEntryPointsMainClasses() throws IOException {
        Path jar = Path.of("target", "troupe.jar");
        assertTrue(Files.exists(jar), "target/troupe.jar is made before the tests (the jar plugin runs at "
                + "process-classes): run the tests through Maven");
        try (JarFile troupe = new JarFile(jar.toFile())) {
            assertNotNull(troupe.getEntry(TroupeCli.class.getName().replace('.', '/') + ".class"));
        }
        for (Class<?> main : List.of(MediaDriver.class, CommandLine.class, Config.class)) {
            Path from = Path.of(main.getProtectionDomain().getCodeSource().getLocation().getPath());
            assertTrue(Files.exists(Path.of("target", "lib").resolve(from.getFileName())),
                    "target/lib holds " + from.getFileName() + " (" + main.getName() + ")");
        }
    }

    /** .env's settings: KEY=VALUE lines, comments on lines of their own. */
    private static Map<String, String> env() throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : Files.readAllLines(DOCKER.resolve(".env"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            assertTrue(eq > 0 && !line.contains("#"), ".env: a line KEY=VALUE without a comment: " + line);
            env.put(line.substring(0, eq), line.substring(eq + 1));
        }
        return env;
    }

    private static String substitute(String text, Map<String, String> env) {
        Matcher m = VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = env.get(m.group(1));
            assertNotNull(value, "${" + m.group(1) + "} is not in .env");
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        return m.appendTail(out).toString();
    }

    /** The services of a compose file and each one's own {@code key: value} lines (4 spaces in). */
    private static Map<String, Map<String, String>> services(String compose) {
        Map<String, Map<String, String>> services = new LinkedHashMap<>();
        boolean inServices = false;
        Map<String, String> current = null;
        for (String line : compose.split("\n")) {
            if (line.isBlank() || line.strip().startsWith("#")) {
                continue;
            }
            if (!line.startsWith(" ")) {
                inServices = line.equals("services:");
                current = null;
                continue;
            }
            Matcher service = SERVICE.matcher(line);
            if (inServices && service.matches()) {
                current = new LinkedHashMap<>();
                services.put(service.group(1), current);
                continue;
            }
            Matcher entry = ENTRY.matcher(line);
            if (current != null && entry.matches()) {
                current.put(entry.group(1), entry.group(2));
            }
        }
        return services;
    }

    /** The {@code key: value} lines (2 spaces in) of the top-level block that starts with {@code header}. */
    private static Map<String, String> block(String compose, String header) {
        Map<String, String> entries = new LinkedHashMap<>();
        String[] lines = compose.split("\n");
        for (int i = List.of(lines).indexOf(header) + 1; i > 0 && i < lines.length && lines[i].startsWith("  "); i++) {
            Matcher m = ENTRY.matcher("  " + lines[i]);
            if (m.matches()) {
                entries.put(m.group(1), m.group(2));
            }
        }
        assertTrue(!entries.isEmpty(), "no block '" + header + "' in docker-compose.yml");
        return entries;
    }

    /** The lines of a shell {@code case} branch, from its pattern line to its {@code ;;}. */
    private static String caseBlock(String script, String pattern) {
        int start = script.indexOf("\n" + pattern + "\n");
        assertTrue(start >= 0, "no branch " + pattern + " in entrypoint.sh");
        int end = script.indexOf(";;", start);
        return script.substring(start, end);
    }

    /** The sources of the Dockerfile's COPY lines (all but the last word). */
    private static List<String> copySources(List<String> lines) {
        List<String> sources = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith("COPY ")) {
                String[] words = line.substring(5).trim().split("\\s+");
                sources.addAll(List.of(words).subList(0, words.length - 1));
            }
        }
        return sources;
    }
}
