package io.troupe.golden;

import io.troupe.actors.api.Troupe;
import io.troupe.actors.wire.WireCodec;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.TroupeException;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanParser;
import io.troupe.operators.plan.PlanShapes;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every golden plan over the wire: parsed, encoded, decoded, and then the same plan node for node
 * ({@link PlanShapes}), re-encoding to the same bytes, with the same EXPLAIN, and running on the
 * leader alone to the file's expected rows (DuckDB's, which {@link GoldenTest} checks) and to the
 * original plan's; an error case fails decoded with the original's message. Each file's tables load
 * into one Troupe of its own, closed when its cases are done.
 */
class GoldenWireTest {

    private static final WireCodec CODEC = new WireCodec("golden");

    @TestFactory
    Stream<DynamicNode> everyGoldenPlanSurvivesTheWire() throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(GoldenTest.ROOT)) {
            files = walk.filter(p -> p.toString().endsWith(".test")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "no golden files under " + GoldenTest.ROOT.toAbsolutePath());
        return files.stream().map(path -> {
            GoldenFile file = GoldenFile.read(GoldenTest.ROOT, path);
            return DynamicContainer.dynamicContainer(file.name(),
                    Stream.of(DynamicTest.dynamicTest(file.cases().size() + " cases", () -> checkFile(file))));
        });
    }

    /** All cases of one file in one Troupe (the leader alone: the wire changes the plan, not the executor). */
    private static void checkFile(GoldenFile file) {
        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0).withBatchSize(3))) {
            for (TableDef t : file.tables()) {
                troupe.register(t.build(3));
            }
            for (GoldenCase c : file.cases()) {
                checkCase(troupe, file.name() + ".test:" + c.line(), c);
            }
        }
    }

    private static void checkCase(Troupe troupe, String where, GoldenCase c) {
        Plan plan = PlanParser.parse(c.planText(), c.planLine(), where).plan();
        byte[] payload = CODEC.encode(plan);
        Plan decoded = (Plan) CODEC.decode(payload);
        PlanShapes.assertSamePlan(plan, decoded);
        assertArrayEquals(payload, CODEC.encode(decoded), where + ": the decoded plan re-encodes to other bytes");
        if (c.kind() == GoldenCase.Kind.ERROR) {
            TroupeException sent = assertThrows(TroupeException.class, () -> troupe.execute(plan), where);
            TroupeException received = assertThrows(TroupeException.class, () -> troupe.execute(decoded), where);
            assertEquals(sent.getMessage(), received.getMessage(), where);
            assertTrue(received.getMessage().contains(c.errorText()), where + ": " + received.getMessage());
            return;
        }
        assertEquals(troupe.explain(plan), troupe.explain(decoded), where);
        List<String> rows = rows(troupe, decoded);
        assertEquals(rows(troupe, plan), rows, where + ": the decoded plan's rows differ from the original's");
        assertEquals(sorted(c.expected(), c.rowSort()), sorted(rows, c.rowSort()), where + ": rows");
    }

    private static List<String> rows(Troupe troupe, Plan plan) {
        List<String> rows = new ArrayList<>();
        for (List<Object> row : troupe.execute(plan).rows()) {
            rows.add(GoldenValues.formatRow(row));
        }
        return rows;
    }

    private static List<String> sorted(List<String> rows, boolean rowSort) {
        List<String> copy = new ArrayList<>(rows);
        if (rowSort) {
            copy.sort(null);
        }
        return copy;
    }
}
