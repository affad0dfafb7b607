package io.github.waitingroom.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** The command line of {@link SpikeSimulator#main}: its scenarios, options and output (picocli reads the flags here). */
@picocli.CommandLine.Command(
    name = "SpikeSimulator",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Drives the real core through traffic spikes, hostile conditions and client mixes in virtual time.")
final class SpikeCli implements java.util.concurrent.Callable<Integer> {
  @picocli.CommandLine.Parameters(paramLabel = "SCENARIO",
      description = "scenarios to run (default: one-node dc5x4 flash20x5; 'hostile' for the adversarial set);"
          + " known: ${COMPLETION-CANDIDATES}",
      completionCandidates = Names.class)
  List<String> names = new ArrayList<>();

  @picocli.CommandLine.Option(names = "--out", paramLabel = "DIR", description = "output directory (default target/sim)")
  Path out = Path.of("target", "sim");

  @picocli.CommandLine.Option(names = "--chart", description = "also write chart.png per scenario")
  boolean chart;

  @picocli.CommandLine.Option(names = "--all",
      description = "run every named scenario (or those given) and write DIR/table.md, one row per scenario")
  boolean all;

  @picocli.CommandLine.Option(names = "--seeds", paramLabel = "A..B",
      description = "run the one scenario given over seeds A to B and print every seed that breaches a limit")
  @Nullable String seeds;

  @picocli.CommandLine.Option(names = "--threads", paramLabel = "N",
      description = "with --seeds: runs at once (each run is single-threaded and deterministic; default 1)")
  int threads = 1;

  @picocli.CommandLine.Option(names = "--seed", paramLabel = "N", description = "run the scenarios with this seed")
  @Nullable Long seed;

  @picocli.CommandLine.Option(names = "--minutes", paramLabel = "N", description = "cut the scenarios to their first N minutes")
  @Nullable Integer minutes;

  @picocli.CommandLine.Option(names = "--sync", paramLabel = "MILLIS", description = "another epoch length")
  @Nullable Long syncMillis;

  @picocli.CommandLine.Option(names = "--mix", paramLabel = "MIX",
      description = "another client mix: 'default', 'legacy' (every user a page that gives up, as before client kinds)"
          + " or five shares page,hidden,frozen,api,leaver that sum to 1")
  @Nullable String mix;

  @picocli.CommandLine.Option(names = "--no-lag", description = "no propagation lag")
  boolean noLag;

  @picocli.CommandLine.Option(names = "--patient", description = "nobody gives up")
  boolean patient;

  @picocli.CommandLine.Option(names = "--one-dc", description = "all nodes in one data center")
  boolean oneDc;

  @picocli.CommandLine.Option(names = "--lockstep", description = "every node syncs at the same instants")
  boolean lockstep;

  @picocli.CommandLine.Option(names = "--cold-start", description = "every node starts with the traffic")
  boolean coldStart;

  @picocli.CommandLine.Option(names = "--sticky", description = "sticky load balancing")
  boolean sticky;

  /** The scenario names, for the help. */
  static final class Names implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      List<String> n = new ArrayList<>(Scenarios.names());
      n.add("hostile");
      n.add("tiny-one-node");
      return n.iterator();
    }
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    List<Scenario> scenarios = new ArrayList<>();
    for (String n : names) {
      if (n.equals("hostile")) {
        scenarios.addAll(HostileScenarios.adversarial());
      } else {
        scenarios.add(Scenarios.named(n));
      }
    }
    if (scenarios.isEmpty()) {
      if (all) {
        Scenarios.names().forEach(n -> scenarios.add(Scenarios.named(n)));
      } else {
        scenarios.addAll(Scenarios.standard());
      }
    }
    StringBuilder suffix = new StringBuilder();
    scenarios.replaceAll(sc -> variant(sc, suffix));
    if (seeds != null) {
      if (scenarios.size() != 1) {
        throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "--seeds runs exactly one scenario");
      }
      return seeds(scenarios.get(0));
    }
    Files.createDirectories(out);
    List<SimResult> results = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    for (Scenario scenario : scenarios) {
      System.out.println("running " + scenario.name() + ": " + scenario.description());
      SimResult r;
      try {
        r = SpikeSimulator.run(scenario);
      } catch (RuntimeException e) {
        if (!all) {
          throw e;
        }
        // In a table, a scenario the core refuses is a row, not the end of the run.
        System.out.println(scenario.name() + " failed: " + e);
        failures.add(scenario.name() + ": " + e);
        continue;
      }
      results.add(r);
      System.out.println(r.line());
      SimReport.write(out, r, chart);
      if (all) {
        // After every scenario, so that a long run cut short still leaves the rows it has.
        SimReport.table(out.resolve("table" + suffix + ".md"), results, failures);
      }
    }
    SimReport.summary(out.resolve("summary" + suffix + ".md"), results);
    if (all) {
      SimReport.table(out.resolve("table" + suffix + ".md"), results, failures);
    }
    System.out.println("wrote " + out.toAbsolutePath());
    return 0;
  }

  private Scenario variant(Scenario sc, StringBuilder suffix) {
    boolean first = suffix.length() == 0;
    StringBuilder sfx = new StringBuilder();
    if (seed != null) {
      sc = sc.withSeed(seed);
      sfx.append("--seed=").append(seed);
    }
    if (minutes != null) {
      sc = sc.truncated(minutes);
      sfx.append("--minutes=").append(minutes);
    }
    if (syncMillis != null) {
      sc = sc.withSyncInterval(Duration.ofMillis(syncMillis));
      sfx.append("--sync=").append(syncMillis);
    }
    if (mix != null) {
      sc = sc.withClientMix(mix(mix), "mix-" + mix.replace(',', '-'));
      sfx.append("--mix=").append(mix.replace(',', '-'));
    }
    if (noLag) {
      sc = sc.withoutLag();
      sfx.append("--no-lag");
    }
    if (patient) {
      sc = sc.withoutAbandoning();
      sfx.append("--patient");
    }
    if (oneDc) {
      sc = sc.inOneDataCenter();
      sfx.append("--one-dc");
    }
    if (lockstep) {
      sc = sc.inLockstep();
      sfx.append("--lockstep");
    }
    if (coldStart) {
      sc = sc.withColdStart();
      sfx.append("--cold-start");
    }
    if (sticky) {
      sc = sc.withSticky();
      sfx.append("--sticky");
    }
    if (first) {
      suffix.append(sfx);
    }
    return sc;
  }

  static ClientMix mix(String m) {
    return switch (m) {
      case "default" -> ClientMix.DEFAULT;
      case "legacy" -> ClientMix.LEAVERS_ONLY;
      default -> {
        String[] p = m.split(",", -1);
        if (p.length != 5) {
          throw new IllegalArgumentException("--mix takes 'default', 'legacy' or five shares page,hidden,frozen,api,leaver: " + m);
        }
        yield new ClientMix(Double.parseDouble(p[0]), Double.parseDouble(p[1]), Double.parseDouble(p[2]),
            Double.parseDouble(p[3]), Double.parseDouble(p[4]));
      }
    };
  }

  /** Runs {@code sc} over the seeds; prints each breach and a summary line; 0 if none breached. */
  private int seeds(Scenario sc) throws InterruptedException {
    String spec = java.util.Objects.requireNonNull(seeds);
    int dots = spec.indexOf("..");
    long from = Long.parseLong(dots < 0 ? spec : spec.substring(0, dots));
    long to = dots < 0 ? from : Long.parseLong(spec.substring(dots + 2));
    int count = (int) (to - from + 1);
    String[] breach = new String[count];
    String[] fingerprint = new String[count];
    java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
    long started = System.nanoTime();
    Runnable worker = () -> {
      for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
        SimResult r = SpikeSimulator.run(sc.withSeed(from + i));
        fingerprint[i] = r.fingerprint();
        if (r.peakActive > sc.totalActiveUsers() || r.peakAdmittedPerMinute > sc.newUsersPerMinute()) {
          breach[i] = String.format(Locale.ROOT, "seed %d: peak active %d / %d, peak per minute %d / %d (replay: --seed=%d %s)",
              from + i, r.peakActive, sc.totalActiveUsers(), r.peakAdmittedPerMinute, sc.newUsersPerMinute(), from + i,
              names.isEmpty() ? sc.name() : names.get(0));
          System.out.println(breach[i]);
        }
        int d = done.incrementAndGet();
        if (d % 50 == 0) {
          System.err.printf(Locale.ROOT, "%d of %d seeds in %.0f s%n", d, count, (System.nanoTime() - started) / 1e9);
        }
      }
    };
    List<Thread> pool = new ArrayList<>();
    for (int t = 0; t < Math.max(1, threads); t++) {
      Thread th = new Thread(worker, "seeds-" + t);
      th.start();
      pool.add(th);
    }
    for (Thread th : pool) {
      th.join();
    }
    List<Long> bad = new ArrayList<>();
    int runs = 1;
    for (int i = 0; i < count; i++) {
      runs = 31 * runs + fingerprint[i].hashCode();
      if (breach[i] != null) {
        bad.add(from + i);
      }
    }
    // The hash of every run's fingerprint: the same for the same seeds, whatever the threads.
    System.out.printf(Locale.ROOT, "%s: seeds %d..%d, %d runs, %d with a limit breached%s; runs' fingerprint %08x (%.0f s)%n",
        sc.name(), from, to, count, bad.size(), bad.isEmpty() ? "" : ": " + bad, runs,
        (System.nanoTime() - started) / 1e9);
    return bad.isEmpty() ? 0 : 1;
  }
}
