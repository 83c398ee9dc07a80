package io.troupe.cli;

import io.troupe.actors.cluster.TableParts;
import io.troupe.cli.data.Benchmark;
import io.troupe.cli.data.BenchmarkDataGenerator;
import io.troupe.cli.data.GenerationProgress;
import io.troupe.cli.loadtest.TableFiles;
import io.troupe.operators.exec.ScanShare;
import io.troupe.operators.table.Table;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The tables a node loads at start ({@code node --tables DIR}, {@code --generate BENCHMARK:SF}), whole or
 * as its part of those {@code --partitioned} ({@link Partitioning}), and the source it cuts them from
 * again for another number of nodes ({@link #parts()}). A CSV table is read whole and cut (by the hash of
 * its column, or round robin by row), but a table of several files ({@code DIR/NAME/*.csv}) partitioned
 * without a column, of which the node reads only its share of the files. A generated table partitioned without a column is made in part:
 * the node generates only its share of the generator's parts, which is where a node of a cluster saves the
 * most; with a column it is generated whole and cut. Immutable.
 *
 * @param csv          the directory of CSV tables, or null
 * @param benchmark    the benchmark to generate, or null
 * @param scale        its scale factor
 * @param partitioning the tables kept in part
 * @param chunkRows    rows per chunk of a table read from files (a scan's morsel)
 */
record NodeTables(Path csv, Benchmark benchmark, double scale, Partitioning partitioning, int chunkRows) {

    /**
     * The tables of {@code --tables}, {@code --generate} and {@code --partitioned}, checked as far as can be
     * without loading them.
     *
     * @param generate {@code BENCHMARK:SF} ({@code tpch:0.1}), or null
     * @throws IllegalArgumentException naming the bad option
     */
    static NodeTables of(Path csv, String generate, List<String> partitioned, int chunkRows) {
        Benchmark benchmark = null;
        double scale = 0;
        if (generate != null) {
            GenerateSpec parsed = GenerateSpec.parse(generate);
            benchmark = parsed.benchmark();
            scale = parsed.scale();
        }
        if (csv != null && !Files.isDirectory(csv)) {
            throw new IllegalArgumentException("--tables " + csv + ": not a directory");
        }
        Partitioning partitioning = Partitioning.parse(partitioned);
        if (!partitioning.isEmpty() && csv == null && benchmark == null) {
            throw new IllegalArgumentException("--partitioned needs --tables or --generate");
        }
        return new NodeTables(csv, benchmark, scale, partitioning, chunkRows);
    }

    /**
     * Checks what can be checked before the nodes start: the files (read whole), and that every partitioned
     * table is among the files or the benchmark's tables.
     *
     * @throws IllegalArgumentException naming a bad file or a partitioned table that is not there
     */
    void check(int nodes) {
        List<Table> tables = new ArrayList<>(csv == null ? List.of() : TableFiles.read(csv, chunkRows));
        if (benchmark != null) {
            tables.addAll(BenchmarkDataGenerator.emptyTables(benchmark));
        }
        partitioning.apply(tables, 0, nodes);
    }

    /**
     * The tables as node {@code index} of {@code count} keeps them.
     *
     * @throws IllegalArgumentException naming a bad file, a table both read and generated, or a partitioned
     *                                  table or column that is not there
     */
    List<Table> load(int index, int count) {
        Map<String, Table> byName = new TreeMap<>();
        if (csv != null) {
            TableFiles.names(csv).forEach(name -> byName.put(name, readFile(name, index, count)));
        }
        if (benchmark != null) {
            for (Table t : generate(BenchmarkDataGenerator.tableNames(benchmark), index, count)) {
                if (byName.put(t.name(), t) != null) {
                    throw new IllegalArgumentException("table " + t.name() + " is both a file of --tables and a "
                            + benchmark.title() + " table of --generate");
                }
            }
        }
        return partitioning.apply(new ArrayList<>(byName.values()), index, count);
    }

    /** Where the node re-reads its partitioned tables from to cut them again: the files, or the generator. */
    TableParts parts() {
        return (name, index, count) -> {
            if (!partitioning.columns().containsKey(name)) {
                return Optional.empty();
            }
            String column = partitioning.columns().get(name).orElse(null);
            if (benchmark != null && BenchmarkDataGenerator.tableNames(benchmark).contains(name)) {
                Table made = generate(List.of(name), index, count).get(0);
                return Optional.of(column == null ? made : made.part(new Table.Part(index, count, column)));
            }
            Table read = readFile(name, index, count);
            return Optional.of(read.part() != null ? read : read.part(new Table.Part(index, count, column)));
        };
    }

    /**
     * Table {@code name} of the files: this node's share of its files where it is partitioned without a
     * column and split into files, taken as its part; else all of it, to be cut.
     */
    private Table readFile(String name, int index, int count) {
        Optional<String> column = partitioning.columns().get(name);
        if (column != null && column.isEmpty() && TableFiles.isSplitByFile(csv, name)) {
            return TableFiles.read(csv, name, new ScanShare(index, count), chunkRows)
                    .asPart(new Table.Part(index, count, null));
        }
        return TableFiles.read(csv, name, ScanShare.WHOLE, chunkRows);
    }

    /**
     * Generates {@code names}: those partitioned without a column only in this node's share, taken as its
     * part; the others whole.
     */
    private List<Table> generate(List<String> names, int index, int count) {
        Map<String, ScanShare> shares = new TreeMap<>();
        for (String name : names) {
            if (partitioning.columns().getOrDefault(name, Optional.of("")).isEmpty()) {
                shares.put(name, new ScanShare(index, count));
            }
        }
        List<Table> made = new ArrayList<>();
        for (Table t : BenchmarkDataGenerator.generate(benchmark, scale, names, Runtime.getRuntime().availableProcessors(),
                new GenerationProgress(), shares).tables()) {
            made.add(shares.containsKey(t.name()) ? t.asPart(new Table.Part(index, count, null)) : t);
        }
        return made;
    }

    /** What the node generates, for the line it prints before it does; empty when it generates nothing. */
    Optional<String> generating() {
        return benchmark == null ? Optional.empty()
                : Optional.of(String.format(Locale.ROOT, "%s at scale factor %s", benchmark.title(), scale));
    }
}
