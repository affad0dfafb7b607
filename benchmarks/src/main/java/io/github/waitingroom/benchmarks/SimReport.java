package io.github.waitingroom.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** Writes a {@link SpikeSimulator.Result} as CSV files, a PNG chart and a Markdown summary. */
final class SimReport {
  private SimReport() {}

  static void write(Path dir, SpikeSimulator.Result r) throws IOException {
    String name = r.scenario.name();
    try (Writer w = Files.newBufferedWriter(dir.resolve(name + ".csv"), StandardCharsets.UTF_8)) {
      w.write("second,active,total_active_limit,queue,queue_seen_by_node0,admitted,admitted_last_minute,"
          + "new_users_per_minute_limit,arrivals\n");
      for (int t = 0; t < r.active.length; t++) {
        w.write(t + "," + r.active[t] + "," + r.scenario.totalActiveUsers() + "," + r.queue[t] + ","
            + r.queueSeen[t] + "," + r.admittedPerSecond[t] + "," + r.admittedLastMinute(t) + ","
            + r.scenario.newUsersPerMinute() + "," + r.arrivedPerSecond[t] + "\n");
      }
    }
    try (Writer w = Files.newBufferedWriter(dir.resolve(name + "-dc.csv"), StandardCharsets.UTF_8)) {
      w.write("data_center,arrivals,queued,admitted,abandoned,admitted_from_line,wait_p50_s,wait_p90_s\n");
      for (int d = 0; d < r.arrivalsByDc.length; d++) {
        SpikeSimulator.DoubleList waits = r.waitsByDc.get(d);
        w.write(String.format(Locale.ROOT, "dc-%d,%d,%d,%d,%d,%d,%.1f,%.1f%n", d, r.arrivalsByDc[d],
            r.queuedByDc[d], r.admittedByDc[d], r.abandonedByDc[d], waits.size(),
            waits.quantile(0.5) / 1000, waits.quantile(0.9) / 1000));
      }
    }
    chart(dir.resolve(name + ".png"), r);
  }

  private static void chart(Path file, SpikeSimulator.Result r) throws IOException {
    XYSeries active = new XYSeries("active users");
    XYSeries limit = new XYSeries("total active users limit");
    XYSeries perMinute = new XYSeries("admitted in the last minute");
    XYSeries queue = new XYSeries("waiting users (right axis)");
    for (int t = 0; t < r.active.length; t++) {
      double minute = t / 60.0;
      active.add(minute, r.active[t]);
      limit.add(minute, r.scenario.totalActiveUsers());
      perMinute.add(minute, r.admittedLastMinute(t));
      queue.add(minute, r.queue[t]);
    }
    XYSeriesCollection left = new XYSeriesCollection();
    left.addSeries(active);
    left.addSeries(limit);
    left.addSeries(perMinute);
    XYPlot plot = new XYPlot(left, new NumberAxis("minutes"), new NumberAxis("users"), lines(
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c)));
    plot.setDataset(1, new XYSeriesCollection(queue));
    plot.setRangeAxis(1, new NumberAxis("waiting users"));
    plot.mapDatasetToRangeAxis(1, 1);
    plot.setRenderer(1, lines(new Color(0xff7f0e)));
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    JFreeChart chart = new JFreeChart(
        r.scenario.name() + ": " + r.scenario.description(), JFreeChart.DEFAULT_TITLE_FONT.deriveFont(13f),
        plot, true);
    chart.setBackgroundPaint(Color.WHITE);
    ChartUtils.saveChartAsPNG(file.toFile(), chart, 1200, 600);
  }

  private static XYLineAndShapeRenderer lines(Color... colors) {
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
    for (int i = 0; i < colors.length; i++) {
      renderer.setSeriesPaint(i, colors[i]);
      renderer.setSeriesStroke(i, new BasicStroke(1.5f));
    }
    return renderer;
  }

  static void summary(Path file, List<SpikeSimulator.Result> results) throws IOException {
    StringBuilder b = new StringBuilder();
    b.append("| scenario | arrivals | admitted | abandoned | peak active / limit | overshoot (s over limit) |"
        + " peak admitted/min / limit | utilization while queued | FIFO inversions (users) |"
        + " strict inversions | wait estimate |error| p50 / p90 | DC median wait spread | run time |\n");
    b.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (SpikeSimulator.Result r : results) {
      b.append(String.format(Locale.ROOT,
          "| %s | %d | %d | %d | %d / %d | %.2f%% (%d s) | %d / %d | %.1f%% (%d s queued, %d s < 97%%) |"
              + " %d (%d) | %d | %.1f%% / %.1f%% | %s | %.0f s |%n",
          r.scenario.name(), r.users, r.admitted, r.abandoned, r.peakActive,
          r.scenario.totalActiveUsers(), r.overshoot() * 100, r.secondsOverLimit, r.peakAdmittedPerMinute,
          r.scenario.newUsersPerMinute(), r.utilization * 100, r.queueSeconds, r.secondsBelowTarget,
          r.inversions, r.invertedUsers, r.strictInversions, r.medianAbsError() * 100,
          r.estimateErrors.absQuantile(0.9) * 100, spread(r), r.wallMillis / 1000.0));
    }
    b.append('\n');
    for (SpikeSimulator.Result r : results) {
      b.append("- ").append(r.line()).append('\n');
      b.append("  settings: ").append(r.scenario.settings()).append('\n');
    }
    Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
  }

  /** Smallest and largest median wait among data centers that admitted at least 20 users from the line. */
  static String spread(SpikeSimulator.Result r) {
    double min = Double.MAX_VALUE;
    double max = 0;
    int counted = 0;
    for (SpikeSimulator.DoubleList waits : r.waitsByDc) {
      if (waits.size() >= 20) {
        double median = waits.quantile(0.5) / 1000;
        min = Math.min(min, median);
        max = Math.max(max, median);
        counted++;
      }
    }
    return counted == 0
        ? "n/a"
        : String.format(Locale.ROOT, "%.0f..%.0f s (%d DCs)", min, max, counted);
  }
}
