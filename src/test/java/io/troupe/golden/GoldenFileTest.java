package io.troupe.golden;

import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading golden files (structure, tables, errors with lines) and rewriting their expected rows. */
class GoldenFileTest {

    @TempDir
    Path root;

    private Path write(String name, String text) throws IOException {
        Path file = root.resolve(name + ".test");
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    private static final String GOOD = """
            # name: g/good
            # description: two cases over one table
            table t (a INT32 NOT NULL, d DECIMAL(7,2), s VARCHAR, dt DATE)
            1\t1.50\tx\t2001-01-02
            2\tNULL\t(empty)\tNULL

            query IT rowsort
            scan t
            | project a, s
            sql
            SELECT a, s FROM t
            ----
            2\t(empty)
            1\tx

            statement error unknown column
            scan t | project zz
            sql
            SELECT zz FROM t
            """;

    @Test
    void shouldReadTablesAndCases() throws IOException {
        GoldenFile f = GoldenFile.read(root, write("g/good", GOOD));
        assertEquals("g/good", f.name());
        assertEquals("two cases over one table", f.description());
        TableDef t = f.tables().get(0);
        assertEquals(DataType.decimal(7, 2), t.schema().type(1));
        assertFalse(t.schema().field(0).nullable());
        assertEquals(List.of(1, new BigDecimal("1.50"), "x", LocalDate.of(2001, 1, 2)), t.rows().get(0));
        assertEquals(Arrays.asList(2, null, "", null), t.rows().get(1));
        assertEquals("CREATE TABLE t (a INTEGER NOT NULL, d DECIMAL(7,2), s VARCHAR, dt DATE)", t.createSql());

        GoldenCase q = f.cases().get(0);
        assertEquals(GoldenCase.Kind.QUERY, q.kind());
        assertEquals(7, q.line());
        assertEquals(8, q.planLine());
        assertEquals("IT", q.types());
        assertTrue(q.rowSort());
        assertEquals("scan t\n| project a, s", q.planText());
        assertEquals("SELECT a, s FROM t", q.sql());
        assertEquals(List.of("2\t(empty)", "1\tx"), q.expected());

        GoldenCase e = f.cases().get(1);
        assertEquals(GoldenCase.Kind.ERROR, e.kind());
        assertEquals("unknown column", e.errorText());
        assertEquals("SELECT zz FROM t", e.sql());
        assertNull(f.cases().get(0).errorText());
    }

    @Test
    void shouldRewriteOnlyTheExpectedRows() throws IOException {
        GoldenFile f = GoldenFile.read(root, write("g/good", GOOD));
        String text = f.withExpected(Map.of(f.cases().get(0), List.of("1\tx", "2\t(empty)", "3\ty")));
        assertEquals(GOOD.replace("2\t(empty)\n1\tx\n", "1\tx\n2\t(empty)\n3\ty\n"), text);
    }

    private void assertRejected(String name, String text, String message) throws IOException {
        Path file = write(name, text);
        GoldenFormatException e = assertThrows(GoldenFormatException.class, () -> GoldenFile.read(root, file));
        assertEquals(message, e.getMessage());
    }

    @Test
    void shouldNameTheLineOfStructuralErrors() throws IOException {
        assertRejected("g/a", "# name: g/b\nquery I\nscan t\nsql\nSELECT 1\n----\n1\n",
                "g/a.test:1: '# name: g/b' does not match the file's path; expected 'g/a'");
        assertRejected("g/a", "# name: g/a\ntable t (a INT32)\nx\n\nquery I\nscan t\nsql\nSELECT 1\n----\n",
                "g/a.test:3: table t, column a: 'x' is not a INT32 value");
        assertRejected("g/a", "# name: g/a\ntable t (a INT32, b INT32)\n1\n",
                "g/a.test:3: table t has 2 columns, this row has 1 tab-separated cells");
        assertRejected("g/a", "# name: g/a\ntable t (a INT32 NOT NULL)\nNULL\n",
                "g/a.test:3: table t, column a: NULL in NOT NULL column");
        assertRejected("g/a", "# name: g/a\ntable t (a INT99)\n",
                "g/a.test:2: column a: unknown type: INT99");
        assertRejected("g/a", "# name: g/a\nquery I\nscan t\n----\n1\n",
                "g/a.test:2: a query needs its DuckDB SQL: add a 'sql' line and the statement before '----'");
        assertRejected("g/a", "# name: g/a\nquery I\nscan t\nsql\nSELECT 1\n\n----\n",
                "g/a.test:2: the query has no '----' line after its SQL (a blank line ends a case)");
        assertRejected("g/a", "# name: g/a\nquery Q\nscan t\n",
                "g/a.test:2: expected 'query <type codes ILRNDBTUX> [rowsort]', found: query Q");
        assertRejected("g/a", "# name: g/a\nselect 1\n",
                "g/a.test:2: expected 'table', 'query', 'statement error' or a '#' comment, found: select 1");
        assertRejected("g/a", "# name: g/a\n", "g/a.test:1: no query or statement error cases");
    }
}
