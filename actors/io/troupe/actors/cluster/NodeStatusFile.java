package io.troupe.actors.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValueFactory;
import io.troupe.actors.cluster.NodeView.EventKind;
import io.troupe.actors.cluster.NodeView.Member;
import io.troupe.actors.cluster.NodeView.MemberStatus;
import io.troupe.actors.cluster.NodeView.MembershipEvent;
import io.troupe.actors.cluster.NodeView.NodeState;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node's status file: its {@link NodeView} as JSON, which the node rewrites every second and
 * {@code bin/troupe cluster status} (or anyone) reads. Written whole to a temporary file beside it and
 * moved over it, so that a reader sees the last complete view, never a half-written one. Typesafe Config
 * renders and parses the JSON (a dependency Troupe has anyway).
 *
 * <p>Threadsafe: stateless; one writer per file (its node), any number of readers.
 */
public final class NodeStatusFile {

    private NodeStatusFile() {
    }

    /** Replaces {@code file} with {@code view}. */
    public static void write(Path file, NodeView view) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("node", view.nodeId());
        json.put("pid", view.pid());
        json.put("state", view.state().name());
        json.put("writtenAt", view.writtenAt().toString());
        json.put("members", view.members().stream().map(m -> Map.of(
                "address", m.address(), "status", m.status().name(), "reachable", m.reachable())).toList());
        json.put("endpoints", view.endpoints().stream().map(e -> Map.of(
                "nodeId", e.nodeId(), "host", e.host(), "aeronDirectory", e.aeronDirectory(), "dataPort", e.dataPort()))
                .toList());
        json.put("events", view.events().stream().map(e -> Map.of(
                "at", e.at().toString(), "member", e.member(), "kind", e.kind().name())).toList());
        json.put("queries", view.queries());
        String text = ConfigValueFactory.fromMap(json).render(ConfigRenderOptions.concise().setFormatted(true));
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.writeString(temporary, text + "\n", StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the node's status file " + file, e);
        }
    }

    /**
     * The view in {@code file}.
     *
     * @throws IllegalArgumentException naming the file when it is no status file (or missing)
     */
    public static NodeView read(Path file) {
        try {
            Config c = ConfigFactory.parseFile(file.toFile(),
                    ConfigParseOptions.defaults().setSyntax(ConfigSyntax.JSON).setAllowMissing(false));
            List<Member> members = c.getConfigList("members").stream().map(m -> new Member(m.getString("address"),
                    MemberStatus.valueOf(m.getString("status")), m.getBoolean("reachable"))).toList();
            List<DataPlaneEndpoint> endpoints = c.getConfigList("endpoints").stream().map(e -> new DataPlaneEndpoint(
                    e.getString("nodeId"), e.getString("host"), e.getString("aeronDirectory"), e.getInt("dataPort")))
                    .toList();
            List<MembershipEvent> events = c.getConfigList("events").stream().map(e -> new MembershipEvent(
                    Instant.parse(e.getString("at")), e.getString("member"), EventKind.valueOf(e.getString("kind"))))
                    .toList();
            return new NodeView(c.getString("node"), c.getLong("pid"), NodeState.valueOf(c.getString("state")),
                    Instant.parse(c.getString("writtenAt")), members, endpoints, events, c.getInt("queries"));
        } catch (ConfigException | IllegalArgumentException | DateTimeException e) {
            throw new IllegalArgumentException("not a Troupe node status file: " + file + " (" + e.getMessage() + ")",
                    e);
        }
    }
}
