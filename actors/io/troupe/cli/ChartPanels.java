package io.troupe.cli;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The look the command line's charts share (XChart panels, white, legend below; category panels
 * with labelled bars for the bench, line panels for the load test) and the PNG they are saved as,
 * drawn off screen. Stateless; threadsafe.
 */
public final class ChartPanels {

    public static final int PANEL_WIDTH = 640;
    public static final int PANEL_HEIGHT = 420;
    /** One colour a series (Troupe then its peers, or a lesson's settings): apart in print and for the colour-blind. */
    public static final Color[] SERIES_COLORS = {
        new Color(0x1F, 0x77, 0xB4), new Color(0xFF, 0x7F, 0x0E),
        new Color(0x2C, 0xA0, 0x2C), new Color(0x94, 0x67, 0xBD)};
    /** A reference drawn beside the series: the ideal speedup, a lesson's baseline. */
    public static final Color REFERENCE_COLOR = new Color(0xC8, 0xC8, 0xC8);

    private ChartPanels() {
    }

    /** An empty panel of labelled bars with the shared style, its y axis from 0. */
    public static CategoryChart panel(String title, String xTitle, String yTitle) {
        CategoryChart chart = new CategoryChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        CategoryStyler styler = chart.getStyler();
        style(styler);
        styler.setLabelsVisible(true);
        styler.setLabelsFontColorAutomaticEnabled(false);
        styler.setLabelsFontColor(Color.DARK_GRAY);
        styler.setAvailableSpaceFill(0.7);
        return chart;
    }

    /** An empty panel of lines (no markers) with the shared style, its y axis from 0. */
    public static XYChart linePanel(String title, String xTitle, String yTitle) {
        XYChart chart = new XYChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        XYStyler styler = chart.getStyler();
        style(styler);
        styler.setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        styler.setMarkerSize(0);
        return chart;
    }

    private static void style(AxesChartStyler styler) {
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Horizontal);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setYAxisMin(0.0);
        styler.setPlotGridLinesColor(new Color(0xDD, 0xDD, 0xDD));
    }

    /** Writes {@code panels} as one PNG, {@code rows} by {@code columns}, without a display. */
    public static void save(List<? extends Chart<?, ?>> panels, int rows, int columns, Path file) throws IOException {
        if (System.getProperty("java.awt.headless") == null) {
            // No display is needed to draw into an image; without this a set DISPLAY would be tried.
            System.setProperty("java.awt.headless", "true");
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            BitmapEncoder.saveBitmap(panels, rows, columns, out, BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
