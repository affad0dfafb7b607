package io.github.waitingroom.examples.planner;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

class CapacityPlannerTest {
  /** What one run of the command printed, and its exit code. */
  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = CapacityPlanner.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static void assertUsageError(Run r, String flag) {
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().lines()).hasSize(1);
    assertThat(r.err()).startsWith("capacity-planner: ").contains(flag);
  }

  @Test
  void badCommandLinesEndWithOneLineNamingTheFlagAndExitCode2(@TempDir Path dir) {
    assertUsageError(run("--peek", "10"), "--peek");
    assertUsageError(run("--session", "5x"), "--session");
    assertUsageError(run("--session", "300"), "--session"); // a unit is required
    assertUsageError(run("--target-wait", "soon"), "--target-wait");
    assertUsageError(run("--peak", "-5"), "--peak");
    assertUsageError(run("--base", "-1"), "--base");
    assertUsageError(run("--total", "-3"), "--total");
    assertUsageError(run("--per-minute", "0"), "--per-minute");
    assertUsageError(run("--total", "10", "--per-minute", "20"), "--per-minute");
    assertUsageError(run("--duration", "-10m"), "--duration");
    assertUsageError(run("--think", "0s"), "--think");
    assertUsageError(run("--shape", "spike"), "--shape");
    assertUsageError(run("--times", "sometimes"), "--times");
    assertUsageError(run("--vary", "all"), "--vary");
    assertUsageError(run("--seed", "x"), "--seed");
    assertUsageError(run("--csv", dir.resolve("missing.csv").toString()), "--csv");
    assertUsageError(run("--shape", "csv"), "--csv");
    assertUsageError(run("--peak"), "--peak"); // no value
  }

  @Test
  void aCsvWithABadCountNamesTheFlagAndTheLine(@TempDir Path dir) throws Exception {
    Path csv = dir.resolve("arrivals.csv");
    Files.writeString(csv, "minute,arrivals\n0,10\n1,ten\n");
    Run r = run("--csv", csv.toString(), "--chart", "none");
    assertUsageError(r, "--csv");
    assertThat(r.err()).contains("line 3");
    Files.writeString(csv, "minute,arrivals\n0,10\n1,-4\n");
    assertUsageError(run("--csv", csv.toString(), "--chart", "none"), "--csv");
  }

  @Test
  void runsTheArrivalsOfACsvFile(@TempDir Path dir) throws Exception {
    Path csv = dir.resolve("sale.csv");
    Files.writeString(csv, "second,arrivals\n0,30\n1,0\n2,12\n");
    Run r = run("--csv", csv.toString(), "--csv-step", "1s", "--total", "20", "--per-minute", "20", "--session", "1m",
        "--patience", "none", "--chart", "none");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("42 arrivals from sale.csv (3 rows of 1s)", "arrivals            42 (20 let in at once,"
        + " 22 put in line)", "gave up             0");
  }

  @Test
  void helpListsEveryFlagWithItsDefault() {
    Run r = run("--help");
    assertThat(r.code()).isZero();
    for (OptionSpec f : new CommandLine(new PlannerCli()).getCommandSpec().options()) {
      assertThat(r.out()).contains(f.longestName());
      if (f.usageHelp() || f.versionHelp()) {
        continue;
      }
      String help = String.join(" ", f.description());
      String defaultValue = f.defaultValueString();
      if (defaultValue != null && !defaultValue.equals("null")) {
        assertThat(r.out()).contains("Default: " + defaultValue);
      } else {
        assertThat(help).satisfiesAnyOf(h -> assertThat(h).contains("default"), h -> assertThat(h).contains("implies"),
            h -> assertThat(h).contains("search"));
      }
    }
  }

  @Test
  void printsTheFiguresAndWritesAChartThatDecodesToItsSize(@TempDir Path dir) throws Exception {
    Path png = dir.resolve("plan").resolve("chart.png");
    Run r = run("--peak", "40", "--duration", "10m", "--browse", "2m", "--think", "20s", "--patience", "5m",
        "--total", "40", "--per-minute", "20", "--session", "1m", "--chart", png.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("wait in line", "p50", "p90", "p99", "peak line", "gave up", "utilization",
        "Chart: " + png);
    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image).isNotNull();
    assertThat(image.getWidth()).isEqualTo(Chart.WIDTH);
    assertThat(image.getHeight()).isEqualTo(Chart.HEIGHT);
    // Something was drawn in the series colours, not a blank page.
    int coloured = 0;
    for (int x = 0; x < image.getWidth(); x += 2) {
      for (int y = 0; y < image.getHeight(); y += 2) {
        int rgb = image.getRGB(x, y) & 0xFFFFFF;
        int red = rgb >> 16;
        int green = (rgb >> 8) & 0xFF;
        int blue = rgb & 0xFF;
        if (Math.max(red, Math.max(green, blue)) - Math.min(red, Math.min(green, blue)) > 80) {
          coloured++;
        }
      }
    }
    assertThat(coloured).isGreaterThan(500);
  }

  @Test
  void theSameSeedPrintsTheSameReport() {
    String[] args = {"--peak", "60", "--duration", "5m", "--browse", "2m", "--think", "20s", "--patience", "3m",
        "--total", "40", "--per-minute", "20", "--session", "1m", "--chart", "none", "--seed", "7"};
    String first = run(args).out().replaceAll("simulated .* in .* s", "");
    String second = run(args).out().replaceAll("simulated .* in .* s", "");
    assertThat(first).contains("wait in line").isEqualTo(second);
  }
}
