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
 * Draws loadtest.png with XChart in the bench's style ({@link ChartPanels}): a row for every query
 * together and one per query (at most {@value #MAX_ROWS} rows), each with the latency over time
 * (p50 solid, p99 dashed, one colour an engine) on the left and the latency by percentile on the
 * right, HdrHistogram's plot: the x axis is log10(1 / (1 - percentile)), so 90%, 99% and 99.9% are
 * evenly apart and the tail gets the room. Renders off screen.
 *
 * <p>Stateless apart from its input; one instance draws one chart, on one thread.
 */
final class LoadChart {

    private static final int MAX_ROWS = 5;
    /** The percentile curve's points: up to the 99.999th, and the maximum where the data reach it. */
    private static final double[] PERCENTILES = {0, 10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 92.5, 95, 96.25, 97.5,
        98.125, 98.75, 99, 99.375, 99.5, 99.6875, 99.75, 99.84375, 99.9, 99.95, 99.97, 99.99, 99.995, 99.999};

    private final List<PhaseResult> phases;

    LoadChart(List<PhaseResult> phases) {
        this.phases = List.copyOf(phases);
    }

    /** Writes the chart as a PNG to {@code file}. */
    void write(Path file) throws IOException {
        List<String> rows = new ArrayList<>();
        List<QueryTotals> first = phases.get(0).totals();
        if (first.size() > 2) {
            rows.add(LoadRecorder.ALL);
        }
        for (QueryTotals t : first) {
            if (!t.query().equals(LoadRecorder.ALL) && rows.size() < MAX_ROWS) {
                rows.add(t.query());
            }
        }
        List<XYChart> panels = new ArrayList<>();
        for (String query : rows) {
            panels.add(overTime(query));
            panels.add(byPercentile(query));
        }
        ChartPanels.save(panels, rows.size(), 2, file);
    }

    private XYChart overTime(String query) {
        XYChart chart = ChartPanels.linePanel(title(query) + ": latency over time", "seconds into the run",
                "latency, ms (end - intended start)");
        for (int p = 0; p < phases.size(); p++) {
            List<Double> xs = new ArrayList<>();
            List<Double> p50 = new ArrayList<>();
            List<Double> p99 = new ArrayList<>();
            List<IntervalRow> intervals = phases.get(p).intervals();
            double full = intervals.isEmpty() ? 0 : intervals.get(0).toSeconds() - intervals.get(0).fromSeconds();
            for (IntervalRow r : intervals) {
                // The last interval holds the few queries that ended after the duration: too few for a percentile.
                boolean stub = r.toSeconds() - r.fromSeconds() < full / 2;
                if (r.query().equals(query) && r.completed() > 0 && !stub) {
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
