package io.troupe.cli;

import io.troupe.cli.data.Benchmark;

/**
 * A benchmark and its scale factor, as {@code --generate BENCHMARK:SF} names them ({@code tpch:0.1},
 * {@code tpcds:1}) for {@code troupe sql}, {@code node} and {@code cluster start}.
 */
record GenerateSpec(Benchmark benchmark, double scale) {

    /** @throws IllegalArgumentException saying what {@code --generate} takes */
    static GenerateSpec parse(String text) {
        String[] f = text.trim().split(":", -1);
        Benchmark benchmark = null;
        double scale;
        try {
            benchmark = Benchmark.parse(f[0]);
            scale = f.length == 2 ? Double.parseDouble(f[1]) : Double.NaN;
        } catch (IllegalArgumentException e) {
            scale = Double.NaN;
        }
        if (f.length != 2 || !(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("--generate takes BENCHMARK:SF (tpch or tpcds, a positive scale"
                    + " factor), got '" + text + "'");
        }
        return new GenerateSpec(benchmark, scale);
    }
}
