package io.troupe.cli;

import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Draws chart.png of {@code troupe bench} with XChart: one row per workload, the median time
 * against workers on the left and the speedup over the 1-worker run on the right (with the ideal,
 * speedup = workers, in grey), Troupe's bars beside each peer's. A cluster's ({@code troupe NxW})
 * stand at N×W, its workers in all, beside the others' with as many; its speedup is over embedded
 * Troupe's 1-worker run. The speedup panel is left out when the bench had no 1-worker run. Renders off
 * screen (headless).
 *
 * <p>Stateless apart from its inputs; one instance draws one chart, on one thread.
 */
final class BenchChart {

    private final List<BenchSummary> summaries;
    private final List<String> engines;
    /** The x axis: worker counts, a cluster's its workers in all. */
    private final List<Integer> workers;
    private final BenchSize size;

    BenchChart(List<BenchSummary> summaries, List<String> engines, List<Integer> workers, BenchSize size) {
        this.summaries = summaries;
        this.engines = engines;
        this.workers = workers;
        this.size = size;
    }

    /** Writes the chart as a PNG to {@code file}. */
    void write(Path file) throws IOException {
        List<BenchWorkload> workloads = new ArrayList<>();
        for (BenchSummary s : summaries) {
            if (!workloads.contains(s.workload())) {
                workloads.add(s.workload());
            }
        }
        boolean speedups = workers.contains(1);
        List<CategoryChart> charts = new ArrayList<>();
        for (BenchWorkload workload : workloads) {
            charts.add(timeChart(workload));
            if (speedups) {
                charts.add(speedupChart(workload));
            }
        }
        ChartPanels.save(charts, workloads.size(), speedups ? 2 : 1, file);
    }

    private CategoryChart timeChart(BenchWorkload workload) {
        String title = upper(workload) + ", " + workload.size(size) + ": median time";
        CategoryChart chart = chart(title, "seconds (median of timed runs)", workers);
        chart.getStyler().setDecimalPattern("0.000");
        for (String engine : engines) {
            addEngineSeries(chart, workload, engine, workers, false);
        }
        return chart;
    }

    private CategoryChart speedupChart(BenchWorkload workload) {
        List<Integer> positive = workers.stream().filter(w -> w >= 1).toList();
        CategoryChart chart = chart(upper(workload) + ": speedup over 1 worker", "speedup (1-worker median / median)",
                positive);
        chart.getStyler().setDecimalPattern("0.00");
        for (String engine : engines) {
            addEngineSeries(chart, workload, engine, positive, true);
        }
        // The ideal (speedup = workers) as bars of its own: a line in a category chart sits in a bar's slot.
        List<Double> ideal = new ArrayList<>();
        for (int w : positive) {
            ideal.add((double) w);
        }
        CategorySeries bars = chart.addSeries("ideal", labels(positive), ideal);
        bars.setFillColor(ChartPanels.REFERENCE_COLOR);
        bars.setLineColor(ChartPanels.REFERENCE_COLOR);
        return chart;
    }

    private void addEngineSeries(CategoryChart chart, BenchWorkload workload, String engine, List<Integer> xs,
                                 boolean speedup) {
        List<Double> ys = new ArrayList<>();
        boolean any = false;
        for (int w : xs) {
            BenchSummary s = BenchReport.find(summaries, workload, engine, w);
            Double y = s == null ? null : Double.valueOf(speedup ? s.speedup() : s.median());
            if (y != null && y.isNaN()) {
                y = null;
            }
            any |= y != null;
            ys.add(y);
        }
        if (!any) {
            return;
        }
        CategorySeries series = chart.addSeries(engine, labels(xs), ys);
        Color color = ChartPanels.SERIES_COLORS[engines.indexOf(engine) % ChartPanels.SERIES_COLORS.length];
        series.setFillColor(color);
        series.setLineColor(color);
        series.setMarkerColor(color);
    }

    private static CategoryChart chart(String title, String yTitle, List<Integer> xs) {
        String xTitle = (xs.contains(0)
                ? "workers (0: Troupe's leader alone; a peer: threads" : "workers (a peer: threads")
                + "; a cluster NxW: N*W)";
        return ChartPanels.panel(title, xTitle, yTitle);
    }

    private static String upper(BenchWorkload workload) {
        return workload.id().toUpperCase(Locale.ROOT);
    }

    private static List<String> labels(List<Integer> xs) {
        return xs.stream().map(String::valueOf).toList();
    }
}
