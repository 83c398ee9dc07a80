package io.troupe.actors.cluster;

import org.apache.pekko.actor.ActorPath;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The endpoint rides in a registered actor's name: every field comes back, in characters Pekko allows. */
class DataPlaneEndpointTest {

    @Test
    void shouldRoundTripThroughAValidActorName() {
        for (DataPlaneEndpoint endpoint : List.of(
                new DataPlaneEndpoint("127.0.0.1:17355", "127.0.0.1", "/dev/shm/troupe-cluster-1/driver", 17355),
                new DataPlaneEndpoint("[::1]:2552", "::1", "", 40000),
                new DataPlaneEndpoint("h:1", "h~o%st", "/tmp/a dir~with/odd+chars&ü", 1))) {
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
        assertEquals(Optional.empty(), DataPlaneEndpoint.fromActorName("data-plane~n~h~d~port"));
    }

    @Test
    void shouldShareAHostOnlyWithTheSameHostAndDriver() {
        DataPlaneEndpoint a = new DataPlaneEndpoint("10.0.0.1:2551", "10.0.0.1", "/dev/shm/troupe", 2551);
        DataPlaneEndpoint sameHost = new DataPlaneEndpoint("10.0.0.1:2552", "10.0.0.1", "/dev/shm/troupe", 2552);
        DataPlaneEndpoint otherHostSameDirectory = new DataPlaneEndpoint("10.0.0.2:2551", "10.0.0.2", "/dev/shm/troupe",
                2551);
        DataPlaneEndpoint otherDriver = new DataPlaneEndpoint("10.0.0.1:2553", "10.0.0.1", "/dev/shm/other", 2553);
        DataPlaneEndpoint noDriver = new DataPlaneEndpoint("10.0.0.1:2554", "10.0.0.1", "", 2554);
        assertTrue(a.sameHostAs(sameHost));
        assertFalse(a.sameHostAs(otherHostSameDirectory), "a path is no host: two hosts may both use /dev/shm/troupe");
        assertFalse(a.sameHostAs(otherDriver));
        assertFalse(noDriver.sameHostAs(noDriver), "no driver, no IPC");
        assertEquals("10.0.0.2:2551", otherHostSameDirectory.udpEndpoint());
        assertEquals("[fd00::2]:40000", new DataPlaneEndpoint("[fd00::2]:1", "fd00::2", "/d", 40000).udpEndpoint());
    }
}
