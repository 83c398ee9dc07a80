package io.troupe.cli.data;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.types.Schema;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * One table of a benchmark at one scale factor, as its generator makes it: its Troupe schema and
 * its rows, cut into {@link Part}s that can be generated independently (on different threads)
 * and concatenated in part order to give exactly the rows of one sequential run.
 *
 * <p>Implementations are immutable and threadsafe: {@link #generate} may run for several parts at
 * once, each call on its own generator instance.
 */
sealed interface BenchmarkTable permits TpcdsBenchmarkTable, TpchBenchmarkTable {

    /**
     * A slice of a table's generation: the generator's row numbers {@code first..last} (TPC-DS,
     * 1-based, inclusive) or part {@code index} of {@code count} (TPC-H), and the rows it is
     * expected to produce (an estimate where the generator decides, as for line items per order).
     */
    record Part(int index, int count, long first, long last, long estimatedRows) {
    }

    /** The table's name as the benchmark spells it (lower case). */
    String name();

    Schema schema();

    /** The rows the whole table is expected to have: exact for most tables, an estimate for some. */
    long estimatedRows();

    /** The table's parts, each of about {@code rowsPerPart} rows where the table can be split. */
    List<Part> parts(long rowsPerPart);

    /**
     * The table whose rows this table's generator makes in the same pass, with the same parts
     * (TPC-DS: a sales table's returns), or null.
     */
    BenchmarkTable companion();

    /**
     * Generates {@code part} into dense batches of at most {@code batchRows} rows, adding the rows
     * to {@code progress} as they are made. Parses the generator's values straight into column
     * vectors: no text file in between. The result's first element is this table's batches; with
     * {@code withCompanion}, the second is the {@link #companion()}'s for the same part.
     */
    List<List<Batch>> generate(Part part, int batchRows, LongAdder progress, boolean withCompanion);
}
