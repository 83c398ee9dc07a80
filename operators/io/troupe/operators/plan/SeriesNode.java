package io.troupe.operators.plan;

import io.troupe.operators.scan.SeriesSource;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.util.List;

/** {@code generate_series(start, stop)} as a one-column INT64 relation. */
final class SeriesNode extends Plan {

    private final String column;
    private final long start;
    private final long stop;

    SeriesNode(String column, long start, long stop) {
        this.column = column;
        this.start = start;
        this.stop = stop;
    }

    String column() {
        return column;
    }

    long start() {
        return start;
    }

    long stop() {
        return stop;
    }

    @Override
    public List<Plan> children() {
        return List.of();
    }

    @Override
    public String label() {
        return "Series " + column + " = generate_series(" + start + ", " + stop + ")";
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        return Schema.of(new Field(null, column, DataType.INT64, false));
    }

    @Override
    Plan withParameters(ParameterBinding binding) {
        return this;
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        return compiler.source(new SeriesSource(start, stop));
    }
}
