package io.github.waitingroom.examples.planner;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Draws a run as a PNG with plain {@code java.awt} (headless): above, the line and the active
 * users over time against {@code totalActiveUsers}; below, the waits of those admitted from the
 * line by the minute they got in (median and 90th percentile), against the target wait if any.
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
  private static final int LEFT = 80;
  private static final int RIGHT = 30;

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
    BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, WIDTH, HEIGHT);
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
      g.drawString(title, LEFT, 24);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
      g.drawString(String.format(Locale.ROOT,
          "%s.  Wait p50 %s, p90 %s; peak line %,d; gave up %,d of %,d in line.", r.limits(),
          Durations.formatSeconds(r.waitQuantile(0.5)), Durations.formatSeconds(r.waitQuantile(0.9)), r.peakLine(),
          r.gaveUp(), r.queued()), LEFT, 44);
      double minutes = Math.max(1, r.runSeconds() / 60.0);
      usersPanel(g, r, minutes, 70, 450);
      waitsPanel(g, r, minutes, 520, 740, targetSeconds);
      g.setColor(Color.DARK_GRAY);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      String x = "minutes from the first arrival (arrivals end at " + Durations.formatSeconds(r.arrivalSeconds()) + ")";
      g.drawString(x, (WIDTH - g.getFontMetrics().stringWidth(x)) / 2, HEIGHT - 18);
    } finally {
      g.dispose();
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    if (!ImageIO.write(image, "png", file.toFile())) {
      throw new IOException("no PNG writer");
    }
  }

  private static void usersPanel(Graphics2D g, PlanResult r, double minutes, int top, int bottom) {
    int limit = r.limits().totalActiveUsers();
    double max = Math.max(limit, Math.max(r.peakLine(), r.peakActive())) * 1.08;
    Frame f = new Frame(top, bottom, minutes, max);
    f.axes(g, "users");
    dashed(g, LIMIT, f, limit);
    g.setColor(LIMIT);
    g.drawString("totalActiveUsers " + limit, f.x(0) + 6, f.y(limit) - 4);
    series(g, ACTIVE, f, r.active());
    series(g, LINE, f, r.line());
    legend(g, f, List.of("in line", "active"), List.of(LINE, ACTIVE));
  }

  private static void waitsPanel(Graphics2D g, PlanResult r, double minutes, int top, int bottom, double target) {
    int buckets = (int) Math.ceil(minutes);
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
    double[] p50 = new double[buckets];
    double[] p90 = new double[buckets];
    double max = Double.isNaN(target) ? 1 : target / 60.0 * 1.1;
    for (int m = 0; m < buckets; m++) {
      double[] w = byMinute.get(m).stream().mapToDouble(Double::doubleValue).toArray();
      Arrays.sort(w);
      p50[m] = w.length == 0 ? Double.NaN : PlanResult.quantile(w, 0.5);
      p90[m] = w.length == 0 ? Double.NaN : PlanResult.quantile(w, 0.9);
      if (w.length > 0) {
        max = Math.max(max, p90[m] * 1.08);
      }
    }
    Frame f = new Frame(top, bottom, minutes, max);
    f.axes(g, "wait (min)");
    if (!Double.isNaN(target)) {
      dashed(g, LIMIT, f, target / 60.0);
      g.setColor(LIMIT);
      g.drawString("target " + Durations.formatSeconds(target), f.x(0) + 6, f.y(target / 60.0) - 4);
    }
    perMinute(g, P90, f, p90);
    perMinute(g, P50, f, p50);
    legend(g, f, List.of("p90 wait of those let in that minute", "median"), List.of(P90, P50));
    if (at.length == 0) {
      g.setColor(Color.GRAY);
      g.drawString("nobody waited", f.x(minutes / 2) - 40, (top + bottom) / 2);
    }
  }

  /** A plot area: time in minutes across, a value up. */
  private static final class Frame {
    final int top;
    final int bottom;
    final double minutes;
    final double max;

    Frame(int top, int bottom, double minutes, double max) {
      this.top = top;
      this.bottom = bottom;
      this.minutes = minutes;
      this.max = max <= 0 ? 1 : max;
    }

    int x(double minute) {
      return LEFT + (int) Math.round(minute / minutes * (WIDTH - LEFT - RIGHT));
    }

    int y(double value) {
      return bottom - (int) Math.round(value / max * (bottom - top));
    }

    void axes(Graphics2D g, String label) {
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      double yStep = niceStep(max, 6);
      for (double v = 0; v <= max; v += yStep) {
        g.setColor(GRID);
        g.drawLine(x(0), y(v), x(minutes), y(v));
        g.setColor(Color.DARK_GRAY);
        String s = yStep < 1 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%,d", (long) v);
        g.drawString(s, LEFT - 8 - g.getFontMetrics().stringWidth(s), y(v) + 4);
      }
      double xStep = niceStep(minutes, 12);
      for (double m = 0; m <= minutes + 1e-9; m += xStep) {
        g.setColor(GRID);
        g.drawLine(x(m), top, x(m), bottom);
        g.setColor(Color.DARK_GRAY);
        String s = xStep < 1 ? String.format(Locale.ROOT, "%.1f", m) : Long.toString(Math.round(m));
        g.drawString(s, x(m) - g.getFontMetrics().stringWidth(s) / 2, bottom + 16);
      }
      g.setColor(Color.BLACK);
      g.drawRect(x(0), top, x(minutes) - x(0), bottom - top);
      Graphics2D r = (Graphics2D) g.create();
      r.rotate(-Math.PI / 2);
      r.drawString(label, -(top + bottom) / 2 - r.getFontMetrics().stringWidth(label) / 2, 22);
      r.dispose();
    }
  }

  static double niceStep(double range, int ticks) {
    double raw = Math.max(range, 1e-9) / ticks;
    double mag = Math.pow(10, Math.floor(Math.log10(raw)));
    double n = raw / mag;
    double step = n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10;
    return step * mag;
  }

  private static void series(Graphics2D g, Color c, Frame f, int[] values) {
    Path2D.Double p = new Path2D.Double();
    for (int s = 0; s < values.length; s++) {
      double x = f.x(s / 60.0);
      double y = f.y(values[s]);
      if (s == 0) {
        p.moveTo(x, y);
      } else {
        p.lineTo(x, y);
      }
    }
    g.setColor(c);
    g.setStroke(new BasicStroke(2f));
    g.draw(p);
    g.setStroke(new BasicStroke(1f));
  }

  private static void perMinute(Graphics2D g, Color c, Frame f, double[] values) {
    g.setColor(c);
    g.setStroke(new BasicStroke(2f));
    int px = -1;
    int py = -1;
    for (int m = 0; m < values.length; m++) {
      if (Double.isNaN(values[m])) {
        px = -1;
        continue;
      }
      int x = f.x(Math.min(f.minutes, m + 0.5));
      int y = f.y(values[m]);
      if (px >= 0) {
        g.drawLine(px, py, x, y);
      }
      g.fillOval(x - 3, y - 3, 6, 6);
      px = x;
      py = y;
    }
    g.setStroke(new BasicStroke(1f));
  }

  private static void dashed(Graphics2D g, Color c, Frame f, double value) {
    Stroke old = g.getStroke();
    g.setColor(c);
    g.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 6f}, 0f));
    g.drawLine(f.x(0), f.y(value), f.x(f.minutes), f.y(value));
    g.setStroke(old);
  }

  private static void legend(Graphics2D g, Frame f, List<String> names, List<Color> colors) {
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    int width = 0;
    for (String n : names) {
      width = Math.max(width, g.getFontMetrics().stringWidth(n));
    }
    int x = f.x(f.minutes) - width - 40;
    int y = f.top + 10;
    g.setColor(new Color(255, 255, 255, 220));
    g.fillRect(x - 8, y - 4, width + 44, names.size() * 18 + 6);
    for (int i = 0; i < names.size(); i++) {
      g.setColor(colors.get(i));
      g.fillRect(x, y + i * 18 + 4, 22, 4);
      g.setColor(Color.BLACK);
      g.drawString(names.get(i), x + 28, y + i * 18 + 11);
    }
  }
}
