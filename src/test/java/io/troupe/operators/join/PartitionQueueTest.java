package io.troupe.operators.join;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The spilled partitions' queue, by hand: when a claimer waits, when all are done, and who runs alone. */
class PartitionQueueTest {

    private static PartitionTask task(String name) {
        return new PartitionTask(name, 1, List.of(), List.of(), 0, null, false);
    }

    @Test
    void claimersWaitUntilTheLastProberOpensItAndUntilNoPartitionMayAddMore() {
        PartitionQueue queue = new PartitionQueue();
        assertNull(queue.claim(), "probers still run");
        assertFalse(queue.drained());
        PartitionTask a = task("a");
        queue.open(List.of(a));
        assertSame(a, queue.claim());
        assertNull(queue.claim(), "nothing queued");
        assertFalse(queue.drained(), "a may still add its partitions");
        PartitionTask a1 = task("a.1");
        queue.add(List.of(a1));
        queue.complete(a);
        assertFalse(queue.drained());
        assertSame(a1, queue.claim());
        queue.complete(a1);
        assertTrue(queue.drained());
    }

    @Test
    void aPartitionThatDidNotFitIsJoinedAloneOnceTheOthersAreDone() {
        PartitionQueue queue = new PartitionQueue();
        PartitionTask a = task("a");
        PartitionTask b = task("b");
        PartitionTask c = task("c");
        queue.open(List.of(a, b, c));
        assertSame(a, queue.claim());
        assertSame(b, queue.claim());
        assertTrue(queue.retry(a), "b is being joined and will give its memory back");
        assertNull(queue.claim(), "a waits for b, and c does not start meanwhile");
        queue.complete(b);
        PartitionTask alone = queue.claim();
        assertEquals("a", alone.name());
        assertTrue(alone.exclusive());
        assertNull(queue.claim(), "nothing starts beside it");
        assertFalse(queue.retry(alone), "alone, it fits or fails");
    }

    @Test
    void aPartitionThatDidNotFitAloneFailsForGood() {
        PartitionQueue queue = new PartitionQueue();
        PartitionTask a = task("a");
        queue.open(List.of(a, task("b")));
        assertSame(a, queue.claim());
        assertTrue(queue.retry(a), "the others may have held the memory: once more, alone");
        PartitionTask alone = queue.claim();
        assertTrue(alone.exclusive());
        assertFalse(queue.retry(alone));
    }
}
