package io.github.waitingroom.examples.planner;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Ellipse2D;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.DefaultXYDataset;

/**
 * Draws a run as a PNG with JFreeChart: above, the line and the active users over time against
 * {@code totalActiveUsers}; below, the waits of those admitted from the line by the minute they
 * got in (median and 90th percentile), against the target wait if any.
 */
public final class Chart {
  /** The width of the image in pixels. */
  public static final int WIDTH = 1200;
  /** The height of the image in pixels. */
  public static final int HEIGHT = 800;

  private static final Color LINE = new Color(0xE0, 0x6C, 0x00);
  private static final Color ACTIVE = new Color(0x1F, 0x5F, 0xBF);
  private static final Color P50 = new Color(0x2E, 0x8B, 0x57);
  private static final Color P90 = new Color(0xC0, 0x1C, 0x28);
  private static final Color GRID = new Color(0xE4, 0xE4, 0xE4);
  private static final Color LIMIT = new Color(0x70, 0x70, 0x70);
  private static final BasicStroke DASHED =
      new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 6f}, 0f);

  private Chart() {}

  /**
   * Writes the chart of a run.
   *
   * @param file the PNG to write (its directory is created if missing)
   * @param r the run
   * @param title the first line of the title (the crowd)
   * @param targetSeconds the target wait to draw, or NaN for none
   */
  public static void write(Path file, PlanResult r, String title, double targetSeconds) throws IOException {
    System.setProperty("java.awt.headless", "true");
    NumberAxis minutes = new NumberAxis(
        "minutes from the first arrival (arrivals end at " + Durations.formatSeconds(r.arrivalSeconds()) + ")");
    minutes.setRange(0, Math.max(1, r.runSeconds() / 60.0));
    CombinedDomainXYPlot plot = new CombinedDomainXYPlot(minutes);
    plot.setGap(24);
    plot.add(usersPanel(r), 3);
    plot.add(waitsPanel(r, targetSeconds), 2);

    JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 15), plot, true);
    chart.addSubtitle(new TextTitle(String.format(Locale.ROOT,
        "%s.  Wait p50 %s, p90 %s; peak line %,d; gave up %,d of %,d in line.", r.limits(),
        Durations.formatSeconds(r.waitQuantile(0.5)), Durations.formatSeconds(r.waitQuantile(0.9)), r.peakLine(),
        r.gaveUp(), r.queued()), new Font(Font.SANS_SERIF, Font.PLAIN, 13)));
    chart.setBackgroundPaint(Color.WHITE);
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
  }

  /** The line and the active users, second by second, under the dashed {@code totalActiveUsers}. */
  private static XYPlot usersPanel(PlanResult r) {
    DefaultXYDataset users = new DefaultXYDataset();
    users.addSeries("in line", perSecond(r.line()));
    users.addSeries("active", perSecond(r.active()));
    NumberAxis axis = new NumberAxis("users");
    int limit = r.limits().totalActiveUsers();
    axis.setRange(0, Math.max(limit, Math.max(r.peakLine(), r.peakActive())) * 1.08);
    XYPlot panel = panel(users, axis, new XYLineAndShapeRenderer(true, false), LINE, ACTIVE);
    panel.addRangeMarker(limitMarker(limit, "totalActiveUsers " + limit));
    return panel;
  }

  /** Per minute, the median and 90th percentile waits (in minutes) of those let in from the line. */
  private static XYPlot waitsPanel(PlanResult r, double target) {
    int buckets = (int) Math.ceil(Math.max(1, r.runSeconds() / 60.0));
    List<List<Double>> byMinute = new ArrayList<>();
    for (int m = 0; m < buckets; m++) {
      byMinute.add(new ArrayList<>());
    }
    long[] at = r.admissionMillis();
    double[] waits = r.admissionWaits();
    for (int i = 0; i < at.length; i++) {
      int m = (int) Math.min(buckets - 1, at[i] / 60_000);
      byMinute.get(m).add(waits[i] / 60.0);
    }
    double[][] p90 = new double[2][buckets];
    double[][] p50 = new double[2][buckets];
    double max = Double.isNaN(target) ? 1 : target / 60.0 * 1.1;
    for (int m = 0; m < buckets; m++) {
      double[] w = byMinute.get(m).stream().mapToDouble(Double::doubleValue).toArray();
      Arrays.sort(w);
      p90[0][m] = p50[0][m] = Math.min(buckets, m + 0.5);
      // NaN: a gap in the line, for a minute in which nobody was let in from the line.
      p50[1][m] = w.length == 0 ? Double.NaN : PlanResult.quantile(w, 0.5);
      p90[1][m] = w.length == 0 ? Double.NaN : PlanResult.quantile(w, 0.9);
      if (w.length > 0) {
        max = Math.max(max, p90[1][m] * 1.08);
      }
    }
    DefaultXYDataset data = new DefaultXYDataset();
    if (at.length > 0) {
      data.addSeries("p90 wait of those let in that minute", p90);
      data.addSeries("median", p50);
    }
    NumberAxis axis = new NumberAxis("wait (min)");
    axis.setRange(0, max);
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
    Ellipse2D dot = new Ellipse2D.Double(-3, -3, 6, 6);
    renderer.setSeriesShape(0, dot);
    renderer.setSeriesShape(1, dot);
    XYPlot panel = panel(data, axis, renderer, P90, P50);
    panel.setNoDataMessage("nobody waited");
    if (!Double.isNaN(target)) {
      panel.addRangeMarker(limitMarker(target / 60.0, "target " + Durations.formatSeconds(target)));
    }
    return panel;
  }

  private static XYPlot panel(DefaultXYDataset data, NumberAxis axis, XYLineAndShapeRenderer renderer, Color... colors) {
    for (int i = 0; i < colors.length; i++) {
      renderer.setSeriesPaint(i, colors[i]);
      renderer.setSeriesStroke(i, new BasicStroke(2f));
    }
    XYPlot panel = new XYPlot(data, null, axis, renderer);
    panel.setBackgroundPaint(Color.WHITE);
    panel.setDomainGridlinePaint(GRID);
    panel.setRangeGridlinePaint(GRID);
    panel.setDomainGridlineStroke(new BasicStroke(1f));
    panel.setRangeGridlineStroke(new BasicStroke(1f));
    return panel;
  }

  /** Second {@code s} at minute {@code s / 60}: the x and y rows JFreeChart's dataset takes. */
  private static double[][] perSecond(int[] values) {
    double[][] xy = new double[2][values.length];
    for (int s = 0; s < values.length; s++) {
      xy[0][s] = s / 60.0;
      xy[1][s] = values[s];
    }
    return xy;
  }

  private static ValueMarker limitMarker(double value, String label) {
    ValueMarker marker = new ValueMarker(value, LIMIT, DASHED);
    marker.setLabel(label);
    marker.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    marker.setLabelPaint(LIMIT);
    marker.setLabelBackgroundColor(new Color(255, 255, 255, 220));
    marker.setLabelAnchor(RectangleAnchor.TOP_LEFT);
    marker.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
    return marker;
  }
}
