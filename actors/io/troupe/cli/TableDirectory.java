package io.troupe.cli;

import io.troupe.cli.data.Benchmark;
import io.troupe.cli.data.BenchmarkDataGenerator;
import io.troupe.cli.loadtest.TableFiles;
import io.troupe.formats.FileTables;
import io.troupe.formats.csv.CsvReader;
import io.troupe.formats.parquet.ParquetFiles;
import io.troupe.operators.TroupeException;
import io.troupe.operators.exec.ScanShare;
import io.troupe.operators.table.DelimitedFileLoader;
import io.troupe.operators.table.DelimitedFormat;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The tables of {@code bin/troupe sql --load DIR}: every file of the folder (not its subfolders) whose name
 * ends in {@code .csv}, {@code .tsv}, {@code .tbl}, {@code .dat} or {@code .parquet} becomes the table of its
 * name. A {@code .tbl} is a TPC-H table and a {@code .dat} a TPC-DS one, as dbgen and dsdgen (and {@code troupe
 * generate --out}) write them: '|'-separated, with the benchmark's columns known by the table's name. A {@code .csv}
 * either declares its columns in its first line ({@link TableFiles}: {@code id INT64 NOT NULL,amount DECIMAL(7,2)})
 * or is a CSV as its publisher wrote it, with a plain header or none; such a file and every {@code .tsv} have their
 * dialect, header and column types detected ({@link CsvReader}, docs/files.md). A {@code .parquet} has its columns
 * and types in the file ({@link ParquetFiles}, docs/parquet.md). A {@code .txt} is not loaded here: folders of data
 * often hold a README of that name. A malformed line fails the load naming the file and the line, a Parquet file
 * that cannot be read names the file. Stateless.
 */
final class TableDirectory {

    private static final String TSV = ".tsv";

    private TableDirectory() {
    }

    /**
     * The tables of {@code dir}, by file name.
     *
     * @throws IllegalArgumentException naming the folder when it has no such file, a file of a benchmark table
     *                                  that is not one, or the file, line and column of a malformed value
     */
    static List<Table> load(Path dir) {
        List<Table> tables = new ArrayList<>();
        for (Path file : files(dir)) {
            String fileName = file.getFileName().toString();
            int dot = fileName.lastIndexOf('.');
            String name = fileName.substring(0, dot);
            String suffix = fileName.substring(dot);
            if (suffix.equals(TableFiles.CSV)) {
                tables.add(TableFiles.read(dir, name, ScanShare.WHOLE, TableBuilder.DEFAULT_CHUNK_ROWS));
            } else if (suffix.equals(TSV) || suffix.equals(ParquetFiles.SUFFIX)) {
                tables.add(fileTable(file, name));
            } else {
                tables.add(benchmarkTable(file, name, suffix.equals(Benchmark.TPCH.fileSuffix())
                        ? Benchmark.TPCH : Benchmark.TPCDS));
            }
        }
        return tables;
    }

    /** A table of a file whose columns are detected or in the file ({@link FileTables}). */
    private static Table fileTable(Path file, String name) {
        try {
            return FileTables.read(file, name);
        } catch (TroupeException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    private static Table benchmarkTable(Path file, String name, Benchmark benchmark) {
        Table empty = BenchmarkDataGenerator.emptyTables(benchmark).stream()
                .filter(t -> t.name().equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(file + ": '" + name + "' is no " + benchmark.title()
                        + " table (" + String.join(", ", BenchmarkDataGenerator.tableNames(benchmark))
                        + "); a " + TableFiles.CSV + " file whose first line declares its columns loads any table"));
        try {
            return new DelimitedFileLoader(empty.schema(), DelimitedFormat.tpc()).load(file, empty.name());
        } catch (TroupeException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    private static List<Path> files(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--load " + dir + ": not a directory");
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(Files::isRegularFile).filter(p -> {
                String n = p.getFileName().toString();
                return n.endsWith(TableFiles.CSV) || n.endsWith(TSV) || n.endsWith(Benchmark.TPCH.fileSuffix())
                        || n.endsWith(Benchmark.TPCDS.fileSuffix()) || n.endsWith(ParquetFiles.SUFFIX);
            }).sorted().toList();
        } catch (IOException e) {
            throw new IllegalArgumentException("--load " + dir + ": cannot list it: " + e);
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException("--load " + dir + ": no .csv, .tsv, .tbl, .dat or .parquet files in it");
        }
        return files;
    }
}
