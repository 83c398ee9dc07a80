package io.troupe.actors.cluster;

import io.troupe.operators.exec.QueryFailedException;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PartCoverageTest {

    @Test
    void everyPartOnceOnEveryNodeCoversATable() {
        Map<String, List<String>> held = new LinkedHashMap<>();
        held.put("a:1", List.of("orders:0:3"));
        held.put("b:1", List.of("orders:2:3", "items:0:3"));
        held.put("c:1", List.of("orders:1:3"));
        QueryFailedException failed = assertThrows(QueryFailedException.class, () -> PartCoverage.check(7, held));
        assertTrue(failed.getMessage().contains("table items once: a:1 all of it, b:1 part 1 of 3, c:1 all of it"),
                failed.getMessage());
        held.put("a:1", List.of("orders:0:3", "items:1:3"));
        held.put("c:1", List.of("orders:1:3", "items:2:3"));
        assertDoesNotThrow(() -> PartCoverage.check(7, held));
    }

    @Test
    void aPartTwiceOrACountThatDiffersIsRefused() {
        Map<String, List<String>> twice = Map.of("a:1", List.of("t:0:2"), "b:1", List.of("t:0:2"));
        assertThrows(QueryFailedException.class, () -> PartCoverage.check(1, twice));
        Map<String, List<String>> counts = Map.of("a:1", List.of("t:0:2"), "b:1", List.of("t:1:3"));
        assertThrows(QueryFailedException.class, () -> PartCoverage.check(1, counts));
        QueryFailedException fewer = assertThrows(QueryFailedException.class,
                () -> PartCoverage.checkCount(1, List.of("t:0:3"), 2));
        assertTrue(fewer.getMessage().contains("table t is partitioned over 3 nodes, but the query runs on 2"),
                fewer.getMessage());
    }
}
