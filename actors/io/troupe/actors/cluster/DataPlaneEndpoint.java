package io.troupe.actors.cluster;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Where a node's data plane is reached: what a node publishes through the Receptionist under
 * {@link #KEY} so that the others can open Aeron channels to it.
 *
 * <p>Until Troupe's own wire format for cross-JVM messages lands, the endpoint travels in the name of
 * the actor a node registers ({@link #actorName()}, {@link #of(ActorRef)}): the Receptionist's listing
 * carries actor references, whose paths Pekko serializes itself, so discovery needs no message of ours
 * across JVMs (and no Java serialization, which is off). Each field is URL-encoded, which keeps to the
 * characters Pekko allows in an actor's name, and joined with '~', which URL encoding never emits.
 *
 * <p>Two nodes are on one host when they name the same host and the same driver directory: their
 * streams are {@code aeron:ipc} through that driver. Between any others they are {@code aeron:udp} from
 * the producer's driver to the consumer's {@link #udpEndpoint()}.
 *
 * @param nodeId         the node's cluster address, {@code host:port}
 * @param host           the host its data plane listens on
 * @param aeronDirectory the directory of the media driver its data plane uses; empty when it has no
 *                       shared driver (a node alone)
 * @param dataPort       the UDP port on {@code host} where streams from other hosts arrive
 */
public record DataPlaneEndpoint(String nodeId, String host, String aeronDirectory, int dataPort) {

    /** The Receptionist's key: one registered actor per node. */
    public static final ServiceKey<Void> KEY = ServiceKey.create(Void.class, "troupe-data-plane");

    private static final String PREFIX = "data-plane~";
    private static final String SEPARATOR = "~";

    public DataPlaneEndpoint {
        if (nodeId == null || nodeId.isEmpty() || host == null || host.isEmpty() || aeronDirectory == null) {
            throw new IllegalArgumentException("a data-plane endpoint needs a node id and a host, got nodeId="
                    + nodeId + " host=" + host + " aeronDirectory=" + aeronDirectory);
        }
        if (dataPort < 1 || dataPort > 65535) {
            throw new IllegalArgumentException("a data-plane endpoint's UDP port must be in 1..65535, got " + dataPort);
        }
    }

    /** Whether streams between this node and {@code other} stay on one host's driver ({@code aeron:ipc}). */
    public boolean sameHostAs(DataPlaneEndpoint other) {
        return !aeronDirectory.isEmpty() && host.equals(other.host) && aeronDirectory.equals(other.aeronDirectory);
    }

    /** Where streams from other hosts reach this node: Aeron's {@code endpoint}, {@code host:port}. */
    public String udpEndpoint() {
        return (host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + dataPort;
    }

    /** The name of the actor that carries this endpoint in the Receptionist. */
    String actorName() {
        return PREFIX + encode(nodeId) + SEPARATOR + encode(host) + SEPARATOR + encode(aeronDirectory) + SEPARATOR
                + dataPort;
    }

    /** The endpoint {@code ref}'s name carries; empty when it is not such an actor's. */
    static Optional<DataPlaneEndpoint> of(ActorRef<?> ref) {
        return fromActorName(ref.path().name());
    }

    /** The endpoint in {@code name} as {@link #actorName()} wrote it; empty for any other name. */
    static Optional<DataPlaneEndpoint> fromActorName(String name) {
        if (!name.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String[] fields = name.substring(PREFIX.length()).split(SEPARATOR, -1);
        if (fields.length != 4) {
            return Optional.empty();
        }
        try {
            return Optional.of(new DataPlaneEndpoint(decode(fields[0]), decode(fields[1]), decode(fields[2]),
                    Integer.parseInt(fields[3])));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }
}
