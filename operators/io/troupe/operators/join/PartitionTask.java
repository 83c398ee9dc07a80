package io.troupe.operators.join;

import io.troupe.operators.plan.JoinType;
import io.troupe.operators.spill.SpillFile;

import java.util.ArrayList;
import java.util.List;

/**
 * One spilled partition of a hash join, waiting to be joined: its build rows' and probe rows' spill
 * files, and the level whose hash bits split it further if it does not fit.
 *
 * @param name         the partition, for errors and file names ("Hash Join ... partition 3.12")
 * @param level        the level of the table its rows are loaded into
 * @param build        its build rows' files, each read once
 * @param probe        its probe rows' files, each read once
 * @param buildRows    rows its build files hold
 * @param unsplittable why its rows cannot be split any further, or null
 * @param exclusive    whether it is joined alone: a partition that did not fit beside the others
 *                     gets this for its next try ({@link PartitionQueue})
 */
record PartitionTask(String name, int level, List<SpillFile> build, List<SpillFile> probe, long buildRows,
                     String unsplittable, boolean exclusive) {

    /**
     * The skew guard: a partition is not split again when its build rows all have one hash (a key
     * repeated: no bits can split them), or when splitting a partition left at least 4/5 of its rows
     * in this one (DuckDB's "very very skewed"; PostgreSQL stops growing batches when splitting did
     * not help). The first split, of the join's own table, is judged by the hashes alone.
     */
    private static final int SKEW_NUMERATOR = 4;
    private static final int SKEW_DENOMINATOR = 5;

    PartitionTask {
        build = List.copyOf(build);
        probe = List.copyOf(probe);
    }

    /**
     * The partitions of a spilled {@code table} that can produce a row of a {@code type} join, each
     * a level deeper; the files of the others are deleted now.
     */
    static List<PartitionTask> of(HashJoinTable table, JoinType type) {
        long total = 0;
        for (int p = 0; p < Radix.PARTITIONS; p++) {
            total += table.spilledBuildRows(p);
        }
        boolean probeRowsAlone = type == JoinType.LEFT || type == JoinType.FULL || type == JoinType.ANTI;
        List<PartitionTask> tasks = new ArrayList<>();
        for (int p = 0; p < Radix.PARTITIONS; p++) {
            long rows = table.spilledBuildRows(p);
            long probeRows = table.spilledProbeRows(p);
            boolean output = rows > 0 ? probeRows > 0 || type.emitsUnmatchedBuildRows() : probeRows > 0 && probeRowsAlone;
            List<SpillFile> buildFiles = table.spilledBuildFiles(p);
            List<SpillFile> probeFiles = table.spilledProbeFiles(p);
            if (!output) {
                buildFiles.forEach(SpillFile::delete);
                probeFiles.forEach(SpillFile::delete);
                continue;
            }
            String skewed = null;
            if (rows > 0 && !table.spilledBuildHashesDiffer(p)) {
                skewed = "its " + rows + " build rows all have one key hash";
            } else if (table.level() > 0 && rows * SKEW_DENOMINATOR >= total * SKEW_NUMERATOR) {
                skewed = "splitting " + table.name() + " left " + rows + " of its " + total + " build rows in it";
            }
            String name = table.name() + (table.level() == 0 ? " partition " : ".") + p;
            tasks.add(new PartitionTask(name, table.level() + 1, buildFiles, probeFiles, rows, skewed, false));
        }
        return tasks;
    }

    /** This partition, to be tried again alone. */
    PartitionTask exclusively() {
        return new PartitionTask(name, level, build, probe, buildRows, unsplittable, true);
    }
}
