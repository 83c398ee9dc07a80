package io.troupe.cli;

import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Draws the chart of {@code troupe bench --ablation} with XChart: one row per (lesson, workload), in
 * the order the summaries first name them. On the left, per worker count, one bar per setting: its
 * time over the baseline's (the median of per-round ratios; the baseline's own bar, 1.0, is drawn
 * in grey so the eye has the reference), with whiskers for the rounds' spread. On the right the
 * same bars in seconds (medians), so a large ratio on a tiny time reads as what it is.
 *
 * <p>XChart's error bars are symmetric, and a spread ({@code ratioMin..ratioMax}) need not be: each
 * whisker reaches the farther of the two ends on both sides, so it covers the whole spread and
 * overstates the nearer side (the exact figures are in ablation.csv). A setting that lacks a worker
 * count leaves a gap and has no whiskers in that panel (XChart would shift them past the gap).
 * Renders off screen (headless).
 *
 * <p>Stateless apart from its input; one instance draws one chart, on one thread.
 */
final class AblationChart {

    private final List<AblationSummary> summaries;
    /** Per lesson id, the words after "S1" in a panel's title. */
    private final Map<String, String> lessonTitles;

    /**
     * @param lessonTitles per lesson id (s1), its short title (match flags)
     * @throws IllegalArgumentException when there is nothing to draw
     */
    AblationChart(List<AblationSummary> summaries, Map<String, String> lessonTitles) {
        if (summaries.isEmpty()) {
            throw new IllegalArgumentException("ablation chart: no summaries to draw (no lesson was timed)");
        }
        this.summaries = List.copyOf(summaries);
        this.lessonTitles = Map.copyOf(lessonTitles);
    }

    /** Writes the chart as a PNG to {@code file}: 2 panels wide, one row per (lesson, workload). */
    void write(Path file) throws IOException {
        List<Panel> panels = new ArrayList<>();
        for (AblationSummary s : summaries) {
            Panel panel = new Panel(s.lesson(), s.workload());
            if (!panels.contains(panel)) {
                panels.add(panel);
            }
        }
        List<CategoryChart> charts = new ArrayList<>();
        for (Panel panel : panels) {
            List<AblationSummary> of = summaries.stream()
                    .filter(s -> s.lesson().equals(panel.lesson()) && s.workload().equals(panel.workload()))
                    .toList();
            String title = panel.lesson().toUpperCase(Locale.ROOT) + " "
                    + lessonTitles.getOrDefault(panel.lesson(), "") + ": " + panel.workload().toUpperCase(Locale.ROOT);
            charts.add(ratioChart(title, of));
            charts.add(secondsChart(title, of));
        }
        ChartPanels.save(charts, panels.size(), 2, file);
    }

    private CategoryChart ratioChart(String title, List<AblationSummary> of) {
        CategoryChart chart = ChartPanels.panel(title,
                "workers (whiskers: to the farther of the rounds' lowest and highest ratio)",
                "time / baseline (median of per-round ratios)");
        chart.getStyler().setDecimalPattern("0.00");
        chart.getStyler().setErrorBarsColorSeriesColor(false);
        chart.getStyler().setErrorBarsColor(Color.BLACK);
        addSeries(chart, of, true);
        return chart;
    }

    private CategoryChart secondsChart(String title, List<AblationSummary> of) {
        CategoryChart chart = ChartPanels.panel(title + ", median time", "workers", "seconds (median of timed runs)");
        chart.getStyler().setDecimalPattern("0.000");
        addSeries(chart, of, false);
        return chart;
    }

    /** One series per setting, the baseline first; ratios with whiskers or median seconds. */
    private static void addSeries(CategoryChart chart, List<AblationSummary> of, boolean ratios) {
        List<Integer> workers = new ArrayList<>(new TreeSet<>(of.stream().map(AblationSummary::workers).toList()));
        List<String> labels = workers.stream().map(String::valueOf).toList();
        int colour = 0;
        for (String setting : settings(of)) {
            List<Double> ys = new ArrayList<>();
            List<Double> whiskers = new ArrayList<>();
            boolean baseline = false;
            for (int w : workers) {
                AblationSummary s = find(of, setting, w);
                double y = s == null ? Double.NaN : ratios ? s.ratio() : s.median();
                ys.add(Double.isNaN(y) ? null : y);
                whiskers.add(s == null ? 0.0 : Math.max(s.ratio() - s.ratioMin(), s.ratioMax() - s.ratio()));
                baseline |= s != null && s.baseline();
            }
            if (ys.stream().allMatch(y -> y == null)) {
                continue;
            }
            String name = baseline ? setting + " (baseline)" : setting;
            boolean whole = ys.stream().noneMatch(y -> y == null) && whiskers.stream().noneMatch(e -> e.isNaN());
            CategorySeries series = ratios && whole
                    ? chart.addSeries(name, labels, ys, whiskers) : chart.addSeries(name, labels, ys);
            Color color = baseline ? ChartPanels.REFERENCE_COLOR
                    : ChartPanels.SERIES_COLORS[colour++ % ChartPanels.SERIES_COLORS.length];
            series.setFillColor(color);
            series.setLineColor(color);
            series.setMarkerColor(color);
        }
    }

    /** The panel's settings, the baseline first, then in the order the summaries name them. */
    private static List<String> settings(List<AblationSummary> of) {
        List<String> settings = new ArrayList<>();
        of.stream().filter(AblationSummary::baseline).map(AblationSummary::setting).forEach(s -> {
            if (!settings.contains(s)) {
                settings.add(s);
            }
        });
        of.stream().map(AblationSummary::setting).forEach(s -> {
            if (!settings.contains(s)) {
                settings.add(s);
            }
        });
        return settings;
    }

    private static AblationSummary find(List<AblationSummary> of, String setting, int workers) {
        for (AblationSummary s : of) {
            if (s.setting().equals(setting) && s.workers() == workers) {
                return s;
            }
        }
        return null;
    }

    /** One (lesson, workload) of the ablation: a row of the chart. */
    private record Panel(String lesson, String workload) {
    }
}
