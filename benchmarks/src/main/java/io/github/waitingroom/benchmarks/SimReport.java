package io.github.waitingroom.benchmarks;

import io.github.waitingroom.simulation.DoubleList;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** Writes a {@link SimResult} as CSV files, a PNG chart and a Markdown summary. */
final class SimReport {
  private SimReport() {}

  static void write(Path out, SimResult r, boolean withChart) throws IOException {
    Path dir = out.resolve(r.scenario.name());
    Files.createDirectories(dir);
    try (Writer w = Files.newBufferedWriter(dir.resolve("series.csv"), StandardCharsets.UTF_8)) {
      w.write("second,active,max_active_in_second,total_active_limit,queue,queue_seen_by_node0,admitted,"
          + "admitted_last_60s,new_users_per_minute_limit,arrivals\n");
      for (int t = 0; t < r.active.length; t++) {
        w.write(t + "," + r.active[t] + "," + r.maxActive[t] + "," + r.scenario.totalActiveUsers() + ","
            + r.queue[t] + "," + r.queueSeen[t] + "," + r.admittedPerSecond[t] + "," + r.admittedLastMinute(t)
            + "," + r.scenario.newUsersPerMinute() + "," + r.arrivedPerSecond[t] + "\n");
      }
    }
    try (Writer w = Files.newBufferedWriter(dir.resolve("dc.csv"), StandardCharsets.UTF_8)) {
      w.write("data_center,arrivals,queued,admitted,abandoned,admitted_from_line,wait_p50_s,wait_p90_s\n");
      for (int d = 0; d < r.arrivalsByDc.length; d++) {
        DoubleList waits = r.waitsByDc.get(d);
        w.write(String.format(Locale.ROOT, "dc-%d,%d,%d,%d,%d,%d,%.1f,%.1f%n", d, r.arrivalsByDc[d],
            r.queuedByDc[d], r.admittedByDc[d], r.abandonedByDc[d], waits.size(),
            waits.quantile(0.5) / 1000, waits.quantile(0.9) / 1000));
      }
    }
    try (Writer w = Files.newBufferedWriter(dir.resolve("kinds.csv"), StandardCharsets.UTF_8)) {
      w.write("client_kind,share,arrivals,admitted_on_arrival,queued,admitted_from_line,wait_p50_s,wait_p90_s,abandoned,"
          + "still_waiting,lost_place,cookie_expired,passed_from_line,admitted_after_later_arrival,froze,polls,"
          + "poll_gap_min_s,poll_gap_max_s,eta_abs_error_p50,eta_abs_error_p90\n");
      for (KindStats k : r.byKind) {
        w.write(String.format(Locale.ROOT, "%s,%.2f,%d,%d,%d,%d,%.1f,%.1f,%d,%d,%d,%d,%d,%d,%d,%d,%.1f,%.1f,%.4f,%.4f%n",
            k.kind.label(), r.scenario.clientMix().share(k.kind), k.arrivals, k.admittedOnArrival, k.queued,
            k.admittedFromLine, k.waits.quantile(0.5) / 1000, k.waits.quantile(0.9) / 1000, k.abandoned, k.stillWaiting,
            k.lostPlace, k.cookieExpired, k.passed, k.late, k.froze, k.polls,
            k.polls == 0 ? Double.NaN : k.minPollGapMillis / 1000.0, k.maxPollGapMillis / 1000.0,
            k.estimateErrors.absQuantile(0.5), k.estimateErrors.absQuantile(0.9)));
      }
    }
    Files.writeString(dir.resolve("summary.json"), json(r), StandardCharsets.UTF_8);
    if (withChart) {
      chart(dir.resolve("chart.png"), r);
    }
  }

  /** The run's figures as one JSON object (NaN, for "no sample", as null). */
  static String json(SimResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    Scenario s = r.scenario;
    m.put("scenario", s.name());
    m.put("description", s.description());
    m.put("settings", s.settings());
    m.put("totalActiveUsers", s.totalActiveUsers());
    m.put("newUsersPerMinute", s.newUsersPerMinute());
    m.put("nodes", s.dataCenters() * s.nodesPerDataCenter());
    m.put("dataCenters", s.dataCenters());
    m.put("seed", s.seed());
    m.put("arrivals", r.users);
    m.put("queued", r.queued);
    m.put("admitted", r.admitted);
    m.put("abandoned", r.abandoned);
    m.put("peakActive", r.peakActive);
    m.put("peakActiveRatio", r.peakActiveRatio());
    m.put("overLimitSeconds", r.secondsOverLimit);
    m.put("peakPerMinute", r.peakAdmittedPerMinute);
    m.put("peakPerMinuteRatio", r.peakPerMinuteRatio());
    m.put("utilization", r.utilization);
    m.put("queuedSeconds", r.queueSeconds);
    m.put("secondsBelow97", r.secondsBelowTarget);
    m.put("fifoInversionUsers", r.invertedUsers);
    m.put("fifoInversionUsersFromLine", r.invertedUsersFromLine);
    m.put("fifoInversions", r.inversions);
    m.put("fifoInversionsCrossDc", r.crossDcInversions);
    m.put("strictInversions", r.strictInversions);
    m.put("admittedFromLineAfterLaterArrival", r.lateFromLine);
    m.put("walkInsPassing", r.walkInsPassing);
    m.put("maxWalkInGapSeconds", r.maxWalkInGapSeconds);
    m.put("clientMix", s.clientMix().toString());
    for (KindStats k : r.byKind) {
      String p = "kind." + k.kind.label() + ".";
      m.put(p + "arrivals", k.arrivals);
      m.put(p + "admittedOnArrival", k.admittedOnArrival);
      m.put(p + "queued", k.queued);
      m.put(p + "admittedFromLine", k.admittedFromLine);
      m.put(p + "waitP50Seconds", k.waits.quantile(0.5) / 1000);
      m.put(p + "waitP90Seconds", k.waits.quantile(0.9) / 1000);
      m.put(p + "abandoned", k.abandoned);
      m.put(p + "stillWaiting", k.stillWaiting);
      m.put(p + "lostPlace", k.lostPlace);
      m.put(p + "cookieExpired", k.cookieExpired);
      m.put(p + "passedFromLine", k.passed);
      m.put(p + "admittedAfterLaterArrival", k.late);
      m.put(p + "froze", k.froze);
      m.put(p + "polls", k.polls);
      m.put(p + "etaMedianAbsError", k.estimateErrors.absQuantile(0.5));
    }
    m.put("aheadIncreases", r.aheadIncreases);
    m.put("aheadGrewUsers", r.aheadGrewUsers);
    m.put("maxAheadIncrease", r.maxAheadIncrease);
    m.put("etaMedianAbsError", r.medianAbsError());
    m.put("etaP90AbsError", r.estimateErrors.absQuantile(0.9));
    m.put("etaSignedMedianError", r.estimateErrors.quantile(0.5));
    m.put("etaSample", r.estimateErrors.size());
    m.put("etaStillWaitingIncluded", r.censoredIncluded);
    m.put("etaStillWaitingLeftOut", r.censoredExcluded);
    m.put("etaUnknown", r.unknownEstimates);
    m.put("etaAdmittedMedianAbsError", r.admittedEstimateErrors.absQuantile(0.5));
    m.put("etaAdmittedSignedMedianError", r.admittedEstimateErrors.quantile(0.5));
    m.put("etaAdmittedSample", r.admittedEstimateErrors.size());
    m.put("etaRangeHitRate", r.rangeHitRate());
    m.put("etaFirstShownP50Seconds", r.firstEstimateDelays.quantile(0.5) / 1000);
    m.put("etaFirstShownP90Seconds", r.firstEstimateDelays.quantile(0.9) / 1000);
    m.put("waitP50Seconds", r.waits.quantile(0.5) / 1000);
    m.put("waitP90Seconds", r.waits.quantile(0.9) / 1000);
    m.put("bounced", r.bounced);
    m.put("lostPlace", r.lostPlace);
    m.put("revived", r.revived);
    m.put("cookieExpiredEarly", r.cookieExpiredEarly);
    m.put("duplicateAdmits", r.duplicateAdmits);
    m.put("replays", r.replays);
    m.put("replayAdmissions", r.replayAdmissions);
    m.put("cloneAdmitted", r.cloneAdmitted);
    m.put("clonePlaceAdmitted", r.clonePlaceAdmitted);
    m.put("clonePlaceSpanMillis", r.clonePlaceSpanMillis);
    m.put("cloneSkipped", r.cloneSkipped);
    m.put("decisions", r.decisions);
    m.put("syncs", r.syncs);
    double secs = r.virtualSeconds();
    int nodes = s.dataCenters() * s.nodesPerDataCenter();
    m.put("storeExchanges", r.storeExchanges);
    m.put("storeFailures", r.storeFailures);
    m.put("storeExchangesPerSecond", r.storeExchanges / secs);
    m.put("storeBytesUpPerSecond", r.storeBytesUp / secs);
    m.put("storeBytesDownPerSecond", r.storeBytesDown / secs);
    m.put("storeValuesReadPerSecond", r.storeValuesDown / secs);
    m.put("storeReportsReadPerSecond", r.storeReportsDown / secs);
    m.put("epochMillisAtEnd", r.epochMillis);
    m.put("nodeExchangesPerSecond", r.storeExchanges / secs / nodes);
    m.put("nodeBytesPerSecond", (r.storeBytesUp + r.storeBytesDown) / secs / nodes);
    m.put("nodeReportBytes", r.nodeReportBytes);
    m.put("dataCenterReportBytes", r.dataCenterReportBytes);
    m.put("virtualSeconds", secs);
    m.put("wallSeconds", r.wallMillis / 1000.0);
    StringBuilder b = new StringBuilder("{\n");
    int i = 0;
    for (Map.Entry<String, Object> e : m.entrySet()) {
      b.append("  \"").append(e.getKey()).append("\": ").append(value(e.getValue()));
      b.append(++i < m.size() ? ",\n" : "\n");
    }
    return b.append("}\n").toString();
  }

  private static String value(Object v) {
    if (v instanceof Double d) {
      return d.isNaN() || d.isInfinite() ? "null" : String.format(Locale.ROOT, "%.6g", d);
    }
    if (v instanceof String str) {
      return "\"" + str.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
    return String.valueOf(v);
  }

  private static void chart(Path file, SimResult r) throws IOException {
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

  static XYLineAndShapeRenderer lines(Color... colors) {
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
    for (int i = 0; i < colors.length; i++) {
      renderer.setSeriesPaint(i, colors[i]);
      renderer.setSeriesStroke(i, new BasicStroke(1.5f));
    }
    return renderer;
  }

  static void summary(Path file, List<SimResult> results) throws IOException {
    StringBuilder b = new StringBuilder();
    b.append("| scenario | arrivals | admitted | peak active / limit | s over limit | peak in 60 s / limit |"
        + " utilization while queued | FIFO inversions: users (refusals) | ETA abs. error p50 / p90 |"
        + " 25-75 range hit | bounced / lost place | DC median wait spread | run time |\n");
    b.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (SimResult r : results) {
      b.append(String.format(Locale.ROOT,
          "| %s | %d | %d | %d / %d (%.3fx) | %d | %d / %d (%.3fx) | %.1f%% (%d s queued, %d s < 97%%) |"
              + " %d (%d) | %.1f%% / %.1f%% | %.0f%% | %d / %d | %s | %.0f s |%n",
          r.scenario.name(), r.users, r.admitted, r.peakActive, r.scenario.totalActiveUsers(),
          r.peakActiveRatio(), r.secondsOverLimit, r.peakAdmittedPerMinute, r.scenario.newUsersPerMinute(),
          r.peakPerMinuteRatio(), r.utilization * 100, r.queueSeconds, r.secondsBelowTarget, r.invertedUsers,
          r.inversions, r.medianAbsError() * 100, r.estimateErrors.absQuantile(0.9) * 100,
          r.rangeHitRate() * 100, r.bounced, r.lostPlace, spread(r), r.wallMillis / 1000.0));
    }
    b.append('\n');
    for (SimResult r : results) {
      b.append("- ").append(r.line()).append('\n');
      b.append("  settings: ").append(r.scenario.settings()).append('\n');
    }
    Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
  }

  /**
   * One Markdown table of every scenario (one row each: the limits, use while people wait, the
   * estimate's error, FIFO from the line, walk-ins, and admitted / median wait per client kind),
   * then one row per scenario and client kind with the kind's figures.
   */
  static void table(Path file, List<SimResult> results, List<String> failures) throws IOException {
    ClientKind[] kinds = ClientKind.values();
    StringBuilder b = new StringBuilder();
    b.append("| scenario | peak active / limit | peak in 60 s / limit | use while people wait | ETA error p50 / p90 |"
        + " FIFO from the line: passed users / admitted after a later arrival | walk-ins passing (largest gap) |"
        + " lost place |");
    for (ClientKind k : kinds) {
      b.append(' ').append(k.label()).append(": admitted, p50 / p90 wait |");
    }
    b.append('\n').append("|---".repeat(8 + kinds.length)).append("|\n");
    for (SimResult r : results) {
      b.append(String.format(Locale.ROOT,
          "| %s | %d / %d (%.3fx) | %d / %d (%.3fx) | %.1f%% | %.1f%% / %.1f%% | %d / %d | %d (%d s) | %d |",
          r.scenario.name(), r.peakActive, r.scenario.totalActiveUsers(), r.peakActiveRatio(), r.peakAdmittedPerMinute,
          r.scenario.newUsersPerMinute(), r.peakPerMinuteRatio(), r.utilization * 100, r.medianAbsError() * 100,
          r.estimateErrors.absQuantile(0.9) * 100, r.invertedUsersFromLine, r.lateFromLine, r.walkInsPassing,
          r.maxWalkInGapSeconds, r.lostPlace));
      for (KindStats k : r.byKind) {
        b.append(k.arrivals == 0 ? " - |" : String.format(Locale.ROOT, " %d, %.0f / %.0f s |", k.admittedFromLine,
            k.waits.quantile(0.5) / 1000, k.waits.quantile(0.9) / 1000));
      }
      b.append('\n');
    }
    for (String f : failures) {
      b.append("| ").append(f.replace("|", "/")).append(" |").append(" |".repeat(7 + kinds.length)).append('\n');
    }
    b.append("\n| scenario | client kind | arrivals | admitted on arrival | queued | admitted from the line | wait p50 / p90 |"
        + " left | still waiting | lost place (cookie expired) | passed from the line | admitted after a later arrival |"
        + " froze | poll gap min-max | ETA error p50 |\n");
    b.append("|---".repeat(15)).append("|\n");
    for (SimResult r : results) {
      for (KindStats k : r.byKind) {
        if (k.arrivals == 0) {
          continue;
        }
        b.append(String.format(Locale.ROOT,
            "| %s | %s | %d | %d | %d | %d | %.0f / %.0f s | %d | %d | %d (%d) | %d | %d | %d | %.1f-%.1f s | %.1f%% |%n",
            r.scenario.name(), k.kind.label(), k.arrivals, k.admittedOnArrival, k.queued, k.admittedFromLine,
            k.waits.quantile(0.5) / 1000, k.waits.quantile(0.9) / 1000, k.abandoned, k.stillWaiting, k.lostPlace,
            k.cookieExpired, k.passed, k.late, k.froze, k.polls == 0 ? Double.NaN : k.minPollGapMillis / 1000.0,
            k.maxPollGapMillis / 1000.0, k.estimateErrors.absQuantile(0.5) * 100));
      }
    }
    b.append('\n');
    for (SimResult r : results) {
      b.append("- ").append(r.scenario.name()).append(": ").append(r.scenario.description()).append("; ")
          .append(r.scenario.settings()).append("; seed ").append(r.scenario.seed()).append(String.format(Locale.ROOT,
              "; %d arrivals, %d admitted; %.0f s", r.users, r.admitted, r.wallMillis / 1000.0)).append('\n');
    }
    // No sample (a kind nobody of which got in, no estimate) reads "n/a", not NaN.
    Files.writeString(file, b.toString().replace("NaN%", "n/a").replace("NaN / NaN s", "n/a").replace("NaN", "n/a"),
        StandardCharsets.UTF_8);
  }

  /** Smallest and largest median wait among data centers that admitted at least 20 users from the line. */
  static String spread(SimResult r) {
    double min = Double.MAX_VALUE;
    double max = 0;
    int counted = 0;
    for (DoubleList waits : r.waitsByDc) {
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
