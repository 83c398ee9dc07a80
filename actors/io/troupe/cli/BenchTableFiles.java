package io.troupe.cli;

import io.troupe.cli.loadtest.TableFiles;
import io.troupe.operators.table.Table;
import org.agrona.IoUtil;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The CSV files of a workload's tables that the nodes of {@code bench --nodes} load ({@code node --tables},
 * {@link TableFiles}): written once per workload under {@code root/<workload>}, for every cluster that runs
 * it, and deleted when the bench is done with the workload.
 *
 * <p>Not threadsafe: the bench's one thread loads its engines in turn.
 */
final class BenchTableFiles {

    private final Path root;
    private final PrintWriter progress;
    private final Map<BenchWorkload, Path> written = new EnumMap<>(BenchWorkload.class);

    BenchTableFiles(Path root, PrintWriter progress) {
        this.root = root;
        this.progress = progress;
    }

    /** The directory of {@code workload}'s tables, written the first time it is asked for. */
    Path directory(BenchWorkload workload, List<Table> tables) throws IOException {
        Path dir = written.get(workload);
        if (dir != null) {
            return dir;
        }
        long t0 = System.nanoTime();
        dir = Files.createDirectories(root.resolve(workload.id()));
        long bytes = 0;
        for (Table table : tables) {
            bytes += Files.size(TableFiles.write(table, dir));
        }
        written.put(workload, dir);
        Rounds.progress(progress, "bench", "%s: tables written as CSV for the clusters in %.2f s (%,d bytes in %s)",
                workload.id(), Rounds.seconds(t0), bytes, dir);
        return dir;
    }

    /** Deletes {@code workload}'s files, if they were written. */
    void delete(BenchWorkload workload) {
        Path dir = written.remove(workload);
        if (dir != null) {
            IoUtil.delete(dir.toFile(), false);
        }
    }
}
