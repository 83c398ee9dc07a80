package io.troupe.actors.cluster;

import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A node's parts cut again for the nodes of a query: on a count that differs only, at its sorted place. */
class PartAlignmentTest {

    private static Troupe troupe;

    @BeforeAll
    static void start() {
        troupe = Troupe.start(TroupeSettings.load());
    }

    @AfterAll
    static void stop() {
        troupe.close();
    }

    private static Table orders() {
        TableBuilder b = new TableBuilder("orders", Schema.parse("id INT64 NOT NULL, customer INT32"));
        for (long i = 0; i < 1_000; i++) {
            b.addRow(i, (int) (i % 37));
        }
        return b.build();
    }

    @Test
    void aCountThatDiffersIsCutAgainFromTheSourceAtTheNodesSortedPlace() {
        List<String> asked = new ArrayList<>();
        TableParts source = (name, index, count) -> {
            asked.add(name + " " + index + "/" + count);
            return Optional.of(orders().part(new Table.Part(index, count, "customer")));
        };
        troupe.register(orders().part(new Table.Part(1, 3, "customer")));
        PartAlignment node = new PartAlignment(troupe, source, "b:2");
        Plan plan = Plan.scan("orders");

        node.align(plan, List.of("c:3", "b:2", "a:1"));
        assertEquals(List.of(), asked, "cut for three nodes already");

        node.align(plan, List.of("c:3", "b:2"));
        assertEquals(List.of("orders 0/2"), asked, "b sorts first of the two");
        assertEquals(new Table.Part(0, 2, "customer"), troupe.catalog().table("orders").part());

        node.align(plan, List.of("b:2"));
        Table whole = troupe.catalog().table("orders");
        assertEquals(new Table.Part(0, 1, "customer"), whole.part());
        assertEquals(orders().rowCount(), whole.rowCount(), "alone, the node holds every row");
    }

    @Test
    void aSourceThatCannotBeReadFailsNamingTheTableAndTheNode() {
        Table held = orders().part(new Table.Part(0, 2, null));
        troupe.register(held);
        TableParts gone = (name, index, count) -> {
            throw new UncheckedIOException(new NoSuchFileException("/data/orders.csv"));
        };
        QueryFailedException failed = assertThrows(QueryFailedException.class,
                () -> new PartAlignment(troupe, gone, "a:1").align(Plan.scan("orders"), List.of("a:1")));
        assertTrue(failed.getMessage().contains("node a:1 holds part 1 of 2 of table orders, the query runs on 1 nodes,"
                + " and its source cannot be read again"), failed.getMessage());
        assertTrue(failed.getMessage().contains("/data/orders.csv"), failed.getMessage());
        assertSame(held, troupe.catalog().table("orders"), "the part it held stays");
    }

    @Test
    void wholeTablesAndTablesWithoutASourceStayAsTheyAre() {
        Table whole = orders();
        troupe.register(whole);
        new PartAlignment(troupe, TableParts.NONE, "a:1").align(Plan.scan("orders"), List.of("a:1", "b:2"));
        assertSame(whole, troupe.catalog().table("orders"));
        Table part = orders().part(new Table.Part(0, 2, null));
        troupe.register(part);
        new PartAlignment(troupe, TableParts.NONE, "a:1").align(Plan.scan("orders"), List.of("a:1"));
        assertSame(part, troupe.catalog().table("orders"), "no source: the coverage check refuses the query");
    }
}
