package io.troupe.cli;

import io.troupe.cli.loadtest.TableFiles;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node's tables: generated in part (its share of the generator's parts), cut by hash, or whole; the
 * nodes' parts are together the generator's whole table once, for 1 to 3 nodes, and what a node cuts
 * again from the source ({@code parts()}) is what it would have loaded for that count.
 */
class NodeTablesTest {

    private static final double SCALE = 0.01;
    private static final int CHUNK_ROWS = TableBuilder.DEFAULT_CHUNK_ROWS;

    @TempDir
    Path dir;

    @Test
    void theNodesPartsOfAGeneratedTableAreTheWholeTableOnce() {
        NodeTables nodes = NodeTables.of(null, "tpch:" + SCALE, List.of("lineitem", "orders", "customer:c_custkey"),
                CHUNK_ROWS);
        Map<String, Table> whole = byName(NodeTables.of(null, "tpch:" + SCALE, List.of(), CHUNK_ROWS).load(0, 1));
        for (int count = 1; count <= 3; count++) {
            Map<String, List<String>> union = new HashMap<>();
            for (int index = 0; index < count; index++) {
                for (Table t : nodes.load(index, count)) {
                    if (List.of("lineitem", "orders", "customer").contains(t.name())) {
                        assertEquals(new Table.Part(index, count, t.name().equals("customer") ? "c_custkey" : null),
                                t.part(), t.name());
                        if (count > 1 && !t.name().equals("customer")) {
                            assertTrue(t.rowCount() < whole.get(t.name()).rowCount(), t.name() + " made in part");
                        }
                        union.computeIfAbsent(t.name(), k -> new ArrayList<>()).addAll(rows(t));
                    } else {
                        assertNull(t.part(), t.name() + " is replicated");
                        assertEquals(rows(whole.get(t.name())), rows(t), t.name());
                    }
                }
            }
            for (Map.Entry<String, List<String>> table : union.entrySet()) {
                assertEquals(sorted(rows(whole.get(table.getKey()))), sorted(table.getValue()),
                        table.getKey() + " over " + count + " nodes");
            }
        }
    }

    @Test
    void aPartCutAgainFromTheSourceIsThePartLoadedForThatCount() throws Exception {
        Path csv = Files.createDirectories(dir.resolve("tables"));
        TableBuilder b = new TableBuilder("events", Schema.parse("id INT64 NOT NULL, kind INT32"));
        for (long i = 0; i < 5_000; i++) {
            b.addRow(i, (int) (i % 7));
        }
        TableFiles.write(b.build(), csv);
        NodeTables nodes = NodeTables.of(csv, "tpch:" + SCALE, List.of("lineitem", "events:kind"), CHUNK_ROWS);
        Map<String, Table> loaded = byName(nodes.load(1, 2));
        for (String name : List.of("lineitem", "events")) {
            Table cut = nodes.parts().cut(name, 1, 2).orElseThrow();
            assertEquals(loaded.get(name).part(), cut.part(), name);
            assertEquals(sorted(rows(loaded.get(name))), sorted(rows(cut)), name);
        }
        assertTrue(nodes.parts().cut("nation", 0, 2).isEmpty(), "a replicated table has no part to cut");

        Files.delete(csv.resolve("events.csv"));
        IllegalArgumentException gone = assertThrows(IllegalArgumentException.class,
                () -> nodes.parts().cut("events", 0, 1));
        assertTrue(gone.getMessage().contains("events.csv: no such file"), gone.getMessage());
    }

    @Test
    void aTableOfSeveralFilesIsDealtByFile() throws Exception {
        Path csv = Files.createDirectories(dir.resolve("split"));
        Path events = Files.createDirectories(csv.resolve("events"));
        List<Integer> sizes = List.of(300, 1, 700, 0, 50);
        List<String> all = new ArrayList<>();
        long id = 0;
        for (int f = 0; f < sizes.size(); f++) {
            StringBuilder text = new StringBuilder("id INT64 NOT NULL,kind VARCHAR\n");
            for (int r = 0; r < sizes.get(f); r++, id++) {
                text.append(id).append(",k").append(id % 5).append('\n');
                all.add(Arrays.toString(new Object[] {id, "k" + id % 5}));
            }
            Files.writeString(events.resolve("part-" + f + ".csv"), text);
        }
        Table replicated = byName(NodeTables.of(csv, null, List.of(), CHUNK_ROWS).load(0, 1)).get("events");
        assertEquals(sorted(all), sorted(rows(replicated)), "replicated: every file");
        NodeTables nodes = NodeTables.of(csv, null, List.of("events"), CHUNK_ROWS);
        for (int count = 1; count <= 3; count++) {
            List<String> union = new ArrayList<>();
            for (int index = 0; index < count; index++) {
                Table part = byName(nodes.load(index, count)).get("events");
                assertEquals(new Table.Part(index, count, null), part.part());
                long expected = 0;
                for (int f = index; f < sizes.size(); f += count) {
                    expected += sizes.get(f);
                }
                assertEquals(expected, part.rowCount(), "node " + index + " of " + count + " reads its files alone");
                assertEquals(sorted(rows(part)), sorted(rows(nodes.parts().cut("events", index, count).orElseThrow())));
                union.addAll(rows(part));
            }
            assertEquals(sorted(all), sorted(union), "over " + count + " nodes");
        }

        Files.writeString(events.resolve("part-9.csv"), "id INT32,kind VARCHAR\n1,x\n");
        IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
                () -> NodeTables.of(csv, null, List.of(), CHUNK_ROWS).load(0, 1));
        assertTrue(other.getMessage().contains("part-9.csv:1: its columns (id int32, kind varchar) are not those of"),
                other.getMessage());
    }

    @Test
    void aTableBothReadAndGeneratedIsRefused() throws Exception {
        Path csv = Files.createDirectories(dir.resolve("clash"));
        TableFiles.write(new TableBuilder("nation", Schema.parse("n INT32")).build(), csv);
        IllegalArgumentException clash = assertThrows(IllegalArgumentException.class,
                () -> NodeTables.of(csv, "tpch:" + SCALE, List.of(), CHUNK_ROWS).load(0, 1));
        assertEquals("table nation is both a file of --tables and a TPC-H table of --generate", clash.getMessage());
    }

    private static Map<String, Table> byName(List<Table> tables) {
        return tables.stream().collect(Collectors.toMap(Table::name, t -> t));
    }

    private static List<String> rows(Table table) {
        List<String> rows = new ArrayList<>();
        for (Batch chunk : table.chunks()) {
            for (int i = 0; i < chunk.size(); i++) {
                rows.add(Arrays.toString(chunk.rowObjects(i)));
            }
        }
        return rows;
    }

    private static List<String> sorted(List<String> rows) {
        List<String> copy = new ArrayList<>(rows);
        copy.sort(null);
        return copy;
    }
}
