package io.github.waitingroom.examples;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.DefaultXYDataset;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Draws the {@link LoadGenerator}'s {@code --csv} of a run against the demo's slow shop as a PNG
 * (JFreeChart): above, the room's limit in force, its active users and those waiting; below, the
 * p90 latency of the shop's pages the crowd measured, against the adaptive limit's target.
 */
public final class AdaptiveChart {
  @Command(
      name = "AdaptiveChart",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      showDefaultValues = true,
      description = "Draws a LoadGenerator --csv (limit, active, waiting, p90) as a PNG.")
  static final class Cli implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "CSV", description = "the LoadGenerator's --csv file")
    Path csv = Path.of("run.csv");

    @Parameters(index = "1", paramLabel = "PNG", description = "the chart to write")
    Path png = Path.of("run.png");

    @Option(names = "--title", paramLabel = "TEXT", description = "the chart's title")
    String title = "Adaptive limit on the demo's slow shop";

    @Option(names = "--target-ms", paramLabel = "MS", description = "the adaptive limit's p90 target, drawn as a line")
    int targetMs = 300;

    @Override
    public Integer call() throws IOException {
      write(csv, png, title, targetMs);
      return 0;
    }
  }

  private AdaptiveChart() {}

  /** Draws a CSV; {@code --help} lists the options. */
  public static void main(String[] args) {
    int code = new CommandLine(new Cli()).execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  static void write(Path csv, Path png, String title, int targetMs) throws IOException {
    System.setProperty("java.awt.headless", "true");
    List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
    List<String> header = List.of(lines.get(0).split(","));
    int seconds = header.indexOf("seconds");
    int limit = header.indexOf("limit");
    int active = header.indexOf("active_users");
    int waiting = header.indexOf("waiting_users");
    int p90 = header.indexOf("p90_ms");
    List<double[]> limits = new ArrayList<>();
    List<double[]> actives = new ArrayList<>();
    List<double[]> waits = new ArrayList<>();
    List<double[]> p90s = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      double t = Double.parseDouble(f[seconds]) / 60.0;
      add(limits, t, f[limit]);
      add(actives, t, f[active]);
      add(waits, t, f[waiting]);
      add(p90s, t, f[p90]);
    }
    DefaultXYDataset users = new DefaultXYDataset();
    users.addSeries("limit in force", series(limits));
    users.addSeries("active users", series(actives));
    users.addSeries("waiting users", series(waits));
    XYLineAndShapeRenderer ur = new XYLineAndShapeRenderer(true, false);
    ur.setSeriesPaint(0, new Color(0xE0, 0x6C, 0x00));
    ur.setSeriesPaint(1, new Color(0x1F, 0x5F, 0xBF));
    ur.setSeriesPaint(2, new Color(0xA0, 0xA0, 0xA0));
    for (int i = 0; i < 3; i++) {
      ur.setSeriesStroke(i, new BasicStroke(i == 0 ? 2.5f : 1.5f));
    }
    XYPlot top = new XYPlot(users, null, new NumberAxis("users"), ur);
    DefaultXYDataset latency = new DefaultXYDataset();
    latency.addSeries("p90 of the shop's pages (ms, per interval)", series(p90s));
    XYLineAndShapeRenderer lr = new XYLineAndShapeRenderer(true, true);
    lr.setSeriesPaint(0, new Color(0xC0, 0x1C, 0x28));
    NumberAxis ms = new NumberAxis("p90 latency, ms");
    XYPlot bottom = new XYPlot(latency, null, ms, lr);
    ValueMarker target = new ValueMarker(targetMs, new Color(0x70, 0x70, 0x70),
        new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 6f}, 0f));
    target.setLabel("target " + targetMs + " ms");
    bottom.addRangeMarker(target);
    double top90 = p90s.stream().mapToDouble(p -> p[1]).max().orElse(targetMs);
    ms.setRange(0, Math.max(2.0 * targetMs, Math.min(top90 * 1.05, 4.0 * targetMs)));
    CombinedDomainXYPlot plot = new CombinedDomainXYPlot(new NumberAxis("minutes"));
    plot.add(top, 3);
    plot.add(bottom, 2);
    for (XYPlot p : List.of(top, bottom)) {
      p.setBackgroundPaint(Color.WHITE);
      p.setDomainGridlinePaint(new Color(0xE4, 0xE4, 0xE4));
      p.setRangeGridlinePaint(new Color(0xE4, 0xE4, 0xE4));
    }
    JFreeChart chart = new JFreeChart(null, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
    chart.addSubtitle(new TextTitle(title, new Font("SansSerif", Font.BOLD, 16)));
    chart.setBackgroundPaint(Color.WHITE);
    Path parent = png.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    ChartUtils.saveChartAsPNG(png.toFile(), chart, 1200, 800);
  }

  private static void add(List<double[]> points, double t, String value) {
    if (!value.isBlank()) {
      points.add(new double[] {t, Double.parseDouble(value)});
    }
  }

  private static double[][] series(List<double[]> points) {
    double[][] s = new double[2][points.size()];
    for (int i = 0; i < points.size(); i++) {
      s[0][i] = points.get(i)[0];
      s[1][i] = points.get(i)[1];
    }
    return s;
  }
}
