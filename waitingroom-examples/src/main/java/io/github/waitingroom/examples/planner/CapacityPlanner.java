package io.github.waitingroom.examples.planner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The capacity planner: runs the real core through an expected crowd in virtual time and prints
 * what people would live through (waits, line, who gives up, how busy the room is), with a PNG
 * chart; with {@code --target-wait} it searches the smallest limits whose 90th percentile wait
 * stays at or under the target ({@link CapacitySearch}).
 *
 * <pre>
 * mvn -q -pl waitingroom-examples exec:java -Dexec.mainClass=io.github.waitingroom.examples.planner.CapacityPlanner \
 *     -Dexec.args="--shape flash --peak 3000 --base 30 --total 500 --session 5m --target-wait 10m"
 * </pre>
 *
 * <p>Every flag has a default ({@code --help} lists them; {@link PlannerCli} reads them, {@link
 * PlannerOptions} checks them). A bad flag or value ends the program with one line that names the
 * flag, and exit code 2.
 */
public final class CapacityPlanner {
  private CapacityPlanner() {}

  /** Runs the planner; exits with 0, or 2 for a bad command line. */
  public static void main(String[] args) {
    // The room logs a line when it opens and when a line forms: once per run, too many for a search.
    if (System.getProperty("org.slf4j.simpleLogger.log.io.github.waitingroom") == null) {
      System.setProperty("org.slf4j.simpleLogger.log.io.github.waitingroom", "warn");
    }
    System.setProperty("java.awt.headless", "true");
    int code = run(args, System.out, System.err);
    System.out.flush();
    if (code != 0) {
      System.exit(code);
    }
  }

  /**
   * Runs the planner with these arguments.
   *
   * @return the exit code: 0, 1 when the target cannot be met or the chart cannot be written, 2
   *     for a bad command line
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    PlannerOptions o;
    try {
      CommandLine cl = new CommandLine(new PlannerCli());
      ParseResult parsed = cl.parseArgs(args);
      if (cl.isUsageHelpRequested()) {
        out.print(cl.getUsageMessage());
        return 0;
      }
      if (cl.isVersionHelpRequested()) {
        cl.printVersionHelp(out);
        return 0;
      }
      o = PlannerOptions.from(cl.getCommand(), parsed);
    } catch (ParameterException | PlannerOptions.UsageError e) {
      err.println("capacity-planner: " + e.getMessage() + " (--help lists the flags)");
      return 2;
    }
    PlanSettings s = o.settings();
    Arrivals a = s.arrivals();
    out.printf(Locale.ROOT, "Crowd: %s, %,d arrivals (seed %d)%n", a.description(), a.count(), s.seed());
    out.printf(Locale.ROOT, "Visitors: %s%n", s.visitors().describe());
    out.printf(Locale.ROOT, "Room: session %s, refresh %s; one node, the real core in virtual time%n",
        Durations.format(s.session()), Durations.format(s.refresh()));
    PlanResult shown;
    String title = a.description();
    Duration target = o.target();
    try {
      if (target == null) {
        out.println();
        shown = Simulation.run(s, o.limits());
        shown.print(out, "  ");
        out.printf(Locale.ROOT, "  simulated %s in %.1f s%n", Durations.formatSeconds(shown.runSeconds()),
            shown.wallMillis() / 1000.0);
      } else {
        out.printf(Locale.ROOT, "%nSearching the smallest totalActiveUsers (%s) whose p90 wait is at most %s:%n",
            o.vary() == CapacitySearch.Vary.BOTH
                ? "newUsersPerMinute scaled with it, " + o.limits().newUsersPerMinute() + " per "
                    + o.limits().totalActiveUsers()
                : "newUsersPerMinute " + o.limits().newUsersPerMinute() + " as given",
            Durations.format(target));
        long started = System.nanoTime();
        CapacitySearch.Outcome result;
        try {
          result = CapacitySearch.search(s, o.limits(), o.vary(), target, o.maxTotal(),
              r -> out.printf(Locale.ROOT, "  %s %s%n", CapacitySearch.meets(r, target) ? "meets " : "misses", r.summaryLine()));
        } catch (CapacitySearch.Unreachable e) {
          out.println();
          out.println("No limits up to --max-total meet the target: " + e.getMessage());
          e.last().print(out, "  ");
          return 1;
        }
        out.printf(Locale.ROOT, "  %d runs in %.1f s%n", result.runs().size(), (System.nanoTime() - started) / 1e9);
        shown = result.chosen();
        out.printf(Locale.ROOT, "%nSmallest limits that meet the target: %s%n", shown.limits());
        shown.print(out, "  ");
        PlanResult below = result.below();
        if (below != null) {
          out.printf(Locale.ROOT, "%nOne below (misses the target): %s%n", below.limits());
          below.print(out, "  ");
        } else {
          out.println("(These are the smallest limits a room can have.)");
        }
      }
    } catch (IllegalArgumentException | IllegalStateException e) {
      err.println("capacity-planner: " + e.getMessage());
      return 2;
    }
    Path chart = o.chart();
    if (chart != null) {
      try {
        Chart.write(chart, shown, title, target == null ? Double.NaN : target.getSeconds());
        out.printf(Locale.ROOT, "%nChart: %s (%d x %d)%n", chart, Chart.WIDTH, Chart.HEIGHT);
      } catch (IOException e) {
        err.println("capacity-planner: --chart: cannot write " + chart + ": " + e.getMessage());
        return 1;
      }
    }
    return 0;
  }
}
