package io.troupe.actors.cli;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
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

    private static final int PANEL_WIDTH = 640;
    private static final int PANEL_HEIGHT = 420;
    /** The settings other than the baseline, in order: BenchChart's colours. */
    private static final Color[] SETTING_COLORS = {
        new Color(0x1F, 0x77, 0xB4), new Color(0xFF, 0x7F, 0x0E),
        new Color(0x2C, 0xA0, 0x2C), new Color(0x94, 0x67, 0xBD)};
    /** The baseline, a reference like BenchChart's ideal speedup. */
    private static final Color BASELINE_COLOR = new Color(0xC8, 0xC8, 0xC8);
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
        if (System.getProperty("java.awt.headless") == null) {
            // No display is needed to draw into an image; without this a set DISPLAY would be tried.
            System.setProperty("java.awt.headless", "true");
        }
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
        try (OutputStream out = Files.newOutputStream(file)) {
            BitmapEncoder.saveBitmap(charts, panels.size(), 2, out, BitmapEncoder.BitmapFormat.PNG);
        }
    }

    private CategoryChart ratioChart(String title, List<AblationSummary> of) {
        CategoryChart chart = chart(title, "time / baseline (median of per-round ratios)",
                "workers (whiskers: to the farther of the rounds' lowest and highest ratio)");
        chart.getStyler().setDecimalPattern("0.00");
        chart.getStyler().setErrorBarsColorSeriesColor(false);
        chart.getStyler().setErrorBarsColor(Color.BLACK);
        addSeries(chart, of, true);
        return chart;
    }

    private CategoryChart secondsChart(String title, List<AblationSummary> of) {
        CategoryChart chart = chart(title + ", median time", "seconds (median of timed runs)", "workers");
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
            Color color = baseline ? BASELINE_COLOR : SETTING_COLORS[colour++ % SETTING_COLORS.length];
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

    private static CategoryChart chart(String title, String yTitle, String xTitle) {
        CategoryChart chart = new CategoryChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setLabelsVisible(true);
        chart.getStyler().setLabelsFontColorAutomaticEnabled(false);
        chart.getStyler().setLabelsFontColor(Color.DARK_GRAY);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotGridLinesColor(new Color(0xDD, 0xDD, 0xDD));
        chart.getStyler().setAvailableSpaceFill(0.7);
        return chart;
    }

    /** One (lesson, workload) of the ablation: a row of the chart. */
    private record Panel(String lesson, String workload) {
    }
}
