package io.troupe.actors.cluster;

import org.apache.pekko.actor.ActorPath;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The endpoint rides in a registered actor's name: every field comes back, in characters Pekko allows. */
class DataPlaneEndpointTest {

    @Test
    void shouldRoundTripThroughAValidActorName() {
        for (DataPlaneEndpoint endpoint : List.of(
                new DataPlaneEndpoint("127.0.0.1:17355", "127.0.0.1", "/dev/shm/troupe-cluster-1/driver"),
                new DataPlaneEndpoint("[::1]:2552", "::1", ""),
                new DataPlaneEndpoint("h:1", "h~o%st", "/tmp/a dir~with/odd+chars&ü"))) {
            String name = endpoint.actorName();
            assertTrue(ActorPath.isValidPathElement(name), name);
            assertEquals(Optional.of(endpoint), DataPlaneEndpoint.fromActorName(name));
        }
    }

    @Test
    void shouldReadNoEndpointFromAnotherActorsName() {
        assertEquals(Optional.empty(), DataPlaneEndpoint.fromActorName("troupe-membership"));
        assertEquals(Optional.empty(), DataPlaneEndpoint.fromActorName("data-plane~only~two"));
        assertEquals(Optional.empty(), DataPlaneEndpoint.fromActorName("data-plane~~h~"));
    }
}
