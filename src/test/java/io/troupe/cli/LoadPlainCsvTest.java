package io.troupe.cli;

import io.troupe.cli.loadtest.TableFiles;
import io.troupe.formats.csv.CsvOptions;
import io.troupe.operators.table.Table;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code sql --load DIR} and {@code --tables DIR} over files as their publishers wrote them: a CSV with a plain
 * header (names that are SQL words, a quoted delimiter), a TSV, and a CSV with a typed header beside them, each
 * a table of its file's name; a bad value past the sample of a plain file fails naming the file, line, column
 * and value.
 */
class LoadPlainCsvTest {

    private static final String AIRPORTS = "iata,name,elevation,opened\nAMS,\"Schiphol, Amsterdam\",-11,1916-09-19\n"
            + "JFK,John F. Kennedy,13,1948-07-01\nLHR,Heathrow,83,1946-05-31\n";

    @Test
    void shouldLoadPlainHeadersTsvsAndTypedHeadersSideBySide(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("airports.csv"), AIRPORTS);
        Files.writeString(dir.resolve("runways.tsv"), "iata\tlength_m\nAMS\t3800\nAMS\t3300\nJFK\t4423\n");
        Files.writeString(dir.resolve("typed.csv"), "id INT32 NOT NULL,price DECIMAL(7,2)\n1,2.50\n");
        Files.writeString(dir.resolve("README.txt"), "not a table\n");
        CliRun r = CliRun.of(new TroupeCli(), "sql", "--load", dir.toString(), "--format", "csv", "-c",
                "SELECT a.name, a.elevation, a.opened, sum(r.length_m) AS total FROM airports a JOIN runways r "
                        + "ON a.iata = r.iata GROUP BY a.name, a.elevation, a.opened ORDER BY total DESC; "
                        + "SELECT price FROM typed");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("name,elevation,opened,total\n\"Schiphol, Amsterdam\",-11,1916-09-19,7100\n"
                + "John F. Kennedy,13,1948-07-01,4423\nprice\n2.50\n", r.out());

        int sampled = CsvOptions.DEFAULT_SAMPLE_ROWS;
        Files.writeString(dir.resolve("runways.tsv"), "iata\tlength_m\n" + "AMS\t3800\n".repeat(sampled)
                + "JFK\tlong\n");
        CliRun bad = CliRun.of(new TroupeCli(), "sql", "--load", dir.toString(), "-c", "SELECT 1");
        assertEquals(1, bad.exitCode());
        assertTrue(bad.err().contains(dir.resolve("runways.tsv") + ":" + (sampled + 2)
                + ": column 2 (length_m INT64): not an integer: 'long'"), bad.err());
    }

    @Test
    void shouldReadPlainCsvTablesOfTablesDirectories(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("airports.csv"), AIRPORTS);
        Files.createDirectory(dir.resolve("parts"));
        Files.writeString(dir.resolve("parts/a.csv"), "k,v\n1,x\n2,y\n");
        Files.writeString(dir.resolve("parts/b.csv"), "k,v\n3,z\n");
        List<Table> tables = TableFiles.read(dir);
        assertEquals(List.of("airports", "parts"), tables.stream().map(Table::name).toList());
        assertEquals("iata varchar, name varchar, elevation int64, opened date", tables.get(0).schema().describe());
        assertEquals(3, tables.get(0).rowCount());
        assertEquals(3, tables.get(1).rowCount());

        Files.writeString(dir.resolve("parts/b.csv"), "k,v\nx,z\n");
        IllegalArgumentException differ = assertThrows(IllegalArgumentException.class, () -> TableFiles.read(dir));
        assertTrue(differ.getMessage().startsWith(dir.resolve("parts/b.csv") + ": its columns (k varchar, v varchar)"),
                differ.getMessage());
    }
}
