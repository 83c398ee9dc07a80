package io.troupe.cli.loadtest;

import io.troupe.cli.ChartPanels;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Draws loadtest.png with XChart in the bench's style ({@link ChartPanels}): first every query
 * together, the latency over time (p50 solid, p99 dashed, one colour an engine) and the latency by
 * percentile; then, when there are several queries, each query's latency by percentile (at most
 * {@value #MAX_QUERY_PANELS}), and the throughput over time to fill the grid. The percentile panels
 * follow HdrHistogram's plot: the x axis is log10(1 / (1 - percentile)), so 90%, 99% and 99.9% are
 * evenly apart and the tail gets the room. Renders off screen.
 *
 * <p>Stateless apart from its input; one instance draws one chart, on one thread.
 */
final class LoadChart {

    private static final int MAX_QUERY_PANELS = 6;
    /** The percentile curve's points: up to the 99.999th, and the maximum where the data reach it. */
    private static final double[] PERCENTILES = {0, 10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 92.5, 95, 96.25, 97.5,
        98.125, 98.75, 99, 99.375, 99.5, 99.6875, 99.75, 99.84375, 99.9, 99.95, 99.97, 99.99, 99.995, 99.999};

    private final List<PhaseResult> phases;

    LoadChart(List<PhaseResult> phases) {
        this.phases = List.copyOf(phases);
    }

    /** Writes the chart as a PNG to {@code file}. */
    void write(Path file) throws IOException {
        List<XYChart> panels = new ArrayList<>(List.of(overTime(LoadRecorder.ALL), byPercentile(LoadRecorder.ALL)));
        List<QueryTotals> totals = phases.get(0).totals();
        if (totals.size() > 2) {
            for (QueryTotals t : totals.subList(0, Math.min(totals.size() - 1, MAX_QUERY_PANELS))) {
                panels.add(byPercentile(t.query()));
            }
            if (panels.size() % 2 == 1) {
                panels.add(throughput());
            }
        }
        ChartPanels.save(panels, panels.size() / 2, 2, file);
    }

    /**
     * {@code query}'s intervals of {@code phase} worth plotting: not a round's short last one, of the
     * queries that ended after its duration, which holds too few.
     */
    private static List<IntervalRow> plotted(PhaseResult phase, String query) {
        List<IntervalRow> intervals = phase.intervals();
        double full = intervals.isEmpty() ? 0 : intervals.get(0).toSeconds() - intervals.get(0).fromSeconds();
        return intervals.stream().filter(r -> r.query().equals(query) && r.toSeconds() - r.fromSeconds() >= full / 2)
                .toList();
    }

    private XYChart throughput() {
        XYChart chart = ChartPanels.linePanel("all queries: throughput over time", "seconds into the run",
                "queries completed a second");
        for (int p = 0; p < phases.size(); p++) {
            List<IntervalRow> rows = plotted(phases.get(p), LoadRecorder.ALL);
            if (!rows.isEmpty()) {
                style(chart.addSeries(phases.get(p).engine(), rows.stream().map(IntervalRow::toSeconds).toList(),
                        rows.stream().map(IntervalRow::throughput).toList()), p, SeriesLines.SOLID);
            }
        }
        return chart;
    }

    private XYChart overTime(String query) {
        XYChart chart = ChartPanels.linePanel(title(query) + ": latency over time", "seconds into the run",
                "latency, ms (end - intended start)");
        for (int p = 0; p < phases.size(); p++) {
            List<Double> xs = new ArrayList<>();
            List<Double> p50 = new ArrayList<>();
            List<Double> p99 = new ArrayList<>();
            for (IntervalRow r : plotted(phases.get(p), query)) {
                if (r.completed() > 0) {
                    xs.add(r.toSeconds());
                    p50.add(r.latency().p50());
                    p99.add(r.latency().p99());
                }
            }
            if (xs.isEmpty()) {
                continue;
            }
            String engine = phases.get(p).engine();
            style(chart.addSeries(engine + " p50", xs, p50), p, SeriesLines.SOLID);
            style(chart.addSeries(engine + " p99", xs, p99), p, SeriesLines.DASH_DASH);
        }
        return chart;
    }

    private XYChart byPercentile(String query) {
        XYChart chart = ChartPanels.linePanel(title(query) + ": latency by percentile", "percentile",
                "latency, ms (end - intended start)");
        chart.getStyler().setxAxisTickLabelsFormattingFunction(LoadChart::percentileLabel);
        for (int p = 0; p < phases.size(); p++) {
            Histogram h = totals(phases.get(p), query).latency();
            if (h.getTotalCount() == 0) {
                continue;
            }
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (double percentile : PERCENTILES) {
                // Past 1 - 1/count the histogram has no more to tell: its maximum ends the curve.
                if (percentile > 100 * (1 - 1.0 / h.getTotalCount())) {
                    break;
                }
                xs.add(-Math.log10(1 - percentile / 100));
                ys.add(h.getValueAtPercentile(percentile) / 1e6);
            }
            xs.add(xs.isEmpty() ? 0 : xs.get(xs.size() - 1) + Math.log10(2));
            ys.add(h.getMaxValue() / 1e6);
            style(chart.addSeries(phases.get(p).engine(), xs, ys), p, SeriesLines.SOLID);
        }
        return chart;
    }

    /**
     * The x axis's log10(1 / (1 - p)) as the percentile p, at whole numbers only: 1 is "90%", 3 is
     * "99.9%". (XChart's own logarithmic axis loops on some ranges, so the axis is linear over the log.)
     */
    static String percentileLabel(Double x) {
        long whole = Math.round(x);
        if (!Double.isFinite(x) || Math.abs(x - whole) > 1e-9 || whole < 0) {
            return "";
        }
        return BigDecimal.ONE.subtract(BigDecimal.ONE.movePointLeft((int) whole)).movePointRight(2).stripTrailingZeros()
                .toPlainString() + "%";
    }

    private static QueryTotals totals(PhaseResult phase, String query) {
        return phase.totals().stream().filter(t -> t.query().equals(query)).findFirst().orElseThrow();
    }

    private static String title(String query) {
        return query.equals(LoadRecorder.ALL) ? "all queries" : query;
    }

    private static void style(XYSeries series, int engine, BasicStroke line) {
        Color color = ChartPanels.SERIES_COLORS[engine % ChartPanels.SERIES_COLORS.length];
        series.setLineColor(color);
        series.setLineStyle(line);
        series.setMarkerColor(color);
    }
}
