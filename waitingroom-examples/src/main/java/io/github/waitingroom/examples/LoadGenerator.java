package io.github.waitingroom.examples;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * A crowd for the demo: keeps {@code --users} visitors at the site, each with its own cookies.
 * A visitor asks for the page with {@code Accept: application/json}; while the room answers with
 * the JSON status {@code inWaitingRoom: true} it waits the advertised refresh interval and asks
 * again, as the waiting page does; once let through it browses for {@code --stay} seconds, a
 * click every {@code --think} seconds, then leaves, and a new visitor takes its place. Every
 * {@code --report} seconds it prints how many are in line and in the shop.
 *
 * <p>With {@code --rate N} the crowd is open instead: N visitors arrive per minute (at the
 * instants the capacity planner's step arrivals of the same {@code --seed} have), each visits once
 * and, with {@code --patience}, gives up after waiting that long; at the end it prints the waits
 * of those let in from the line (p50, p90, p99), the longest line and how many gave up, the
 * figures the capacity planner predicts ({@link io.github.waitingroom.examples.planner.CapacityPlanner}).
 *
 * <pre>
 * mvn -q -pl waitingroom-examples exec:java -Dexec.mainClass=io.github.waitingroom.examples.LoadGenerator \
 *     -Dexec.args="--url http://localhost:8080/ --users 20"
 * </pre>
 *
 * <p>With {@code --csv FILE} it also records, every {@code --report} seconds, the room's limit in
 * force, active and waiting users (read from the demo's operator status, {@code --status-url})
 * beside the latency of the shop's pages it measured ({@link Recorder}): how an adaptive limit
 * follows a slow shop ({@code --origin-servers}).
 *
 * <p>This class keeps the crowd and its counts; a visitor's requests and the JSON status it reads
 * are {@link StatusPage}'s. This is a demo tool that runs in real time; the benchmarks module
 * holds the measured load runs.
 */
public final class LoadGenerator {
  /** The crowd's command line ({@code --help} lists the options with their defaults). */
  @Command(
      name = "LoadGenerator",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      showDefaultValues = true,
      description = "A crowd of visitors for the demo, each with its own cookies, polling while in line.")
  static final class Cli implements Callable<Integer> {
    @Option(names = "--url", paramLabel = "URL", description = "page the visitors ask for; repeat it for several nodes"
        + " (visitor i asks the i-th, round robin)")
    List<URI> url = new ArrayList<>(List.of(URI.create("http://localhost:8080/")));

    @Option(names = "--users", paramLabel = "N", description = "visitors at the site at any time (1..1000)")
    int users = 20;

    @Option(names = "--stay", paramLabel = "SECONDS", description = "seconds an admitted visitor keeps browsing before leaving")
    int stay = 20;

    @Option(names = "--think", paramLabel = "SECONDS", description = "seconds between two clicks of an admitted visitor")
    int think = 5;

    @Option(names = "--duration", paramLabel = "SECONDS", description = "seconds to run; 0 runs until Ctrl-C")
    int duration;

    @Option(names = "--report", paramLabel = "SECONDS", description = "seconds between two report lines")
    int report = 5;

    @Option(names = "--rate", paramLabel = "PER-MINUTE", description = "arrivals per minute instead of a fixed population:"
        + " each visitor comes once (waits, browses, leaves); 0 keeps --users visitors at the site")
    int rate;

    @Option(names = "--arrive-for", paramLabel = "SECONDS", description = "with --rate: seconds during which visitors arrive;"
        + " 0: all of --duration")
    int arriveFor;

    @Option(names = "--patience", paramLabel = "SECONDS", description = "with --rate: seconds a visitor waits in line before"
        + " giving up; 0: never")
    int patience;

    @Option(names = "--seed", paramLabel = "N", description = "with --rate: the seed of the arrival instants (the capacity"
        + " planner's --shape step --peak RATE --duration ARRIVE-FOR --seed SEED gives the same instants)")
    long seed = 1;

    @Option(names = "--csv", paramLabel = "FILE", description = "every --report seconds, append a line to this CSV file:"
        + " the room's limit in force, active and waiting users (from --status-url) and the p90 latency of the shop's"
        + " pages this crowd measured in the interval; off if not given")
    @Nullable String csv;

    @Option(names = "--status-url", paramLabel = "URL", description = "with --csv: the demo's operator status"
        + " (http://localhost:8080/waitingroom/dashboard/status of a demo started with --dashboard-token)")
    @Nullable URI statusUrl;

    @Option(names = "--status-token", paramLabel = "TOKEN", description = "with --status-url: the demo's --dashboard-token")
    @Nullable String statusToken;

    @Override
    public Integer call() throws InterruptedException {
      if (users < 1 || users > 1000) {
        throw new ParameterException(new CommandLine(this), "--users must be between 1 and 1000 but was " + users);
      }
      if (rate < 0 || arriveFor < 0 || patience < 0) {
        throw new ParameterException(new CommandLine(this), "--rate, --arrive-for and --patience must not be negative");
      }
      if (url.isEmpty()) {
        throw new ParameterException(new CommandLine(this), "--url needs a URL");
      }
      if ((statusUrl != null || statusToken != null) && csv == null) {
        throw new ParameterException(new CommandLine(this), "--status-url and --status-token go with --csv");
      }
      LoadGenerator g = new LoadGenerator(url, stay, think);
      String file = csv;
      if (file != null) {
        try {
          g.record = new Recorder(Path.of(file), statusUrl, statusToken);
        } catch (IOException e) {
          throw new ParameterException(new CommandLine(this), "--csv " + file + ": " + e.getMessage());
        }
      }
      if (rate > 0) {
        g.patienceMillis = patience * 1000L;
        g.runArrivals(rate, arriveFor, duration, Math.max(1, report), seed);
      } else {
        g.run(users, duration, Math.max(1, report));
      }
      return 0;
    }
  }

  private final List<URI> urls;
  private final List<StatusPage> pages;
  private final AtomicInteger nextPage = new AtomicInteger();
  private final int stay;
  private final int think;

  private final AtomicInteger inLine = new AtomicInteger();
  private final AtomicInteger inShop = new AtomicInteger();
  private final LongAdder admitted = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final LongAdder lostSessions = new LongAdder();
  private final LongAdder waitedMillis = new LongAdder();
  private final LongAdder arrived = new LongAdder();
  private final LongAdder gaveUp = new LongAdder();
  private final AtomicInteger peakLine = new AtomicInteger();
  /** The waits (ms) of visitors let in from the line: in line after their first request. */
  private final List<Long> lineWaits = java.util.Collections.synchronizedList(new ArrayList<>());
  private long patienceMillis;
  private final AtomicLong maxAhead = new AtomicLong();
  private final AtomicLong lastWaitMinutes = new AtomicLong(-1);
  private volatile boolean running = true;
  private final java.util.concurrent.atomic.AtomicBoolean summarised = new java.util.concurrent.atomic.AtomicBoolean();

  /** The latencies (ms) of the shop's pages in the current report interval. */
  private final List<Long> pageMillis = java.util.Collections.synchronizedList(new ArrayList<>());
  private @Nullable Recorder record;

  private LoadGenerator(List<URI> urls, int stay, int think) {
    this.urls = List.copyOf(urls);
    this.pages = urls.stream().map(StatusPage::new).toList();
    this.stay = stay;
    this.think = think;
  }

  /** Runs the crowd; {@code --help} lists the options. */
  public static void main(String[] args) {
    int code = new CommandLine(new Cli()).execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  /**
   * The open crowd of {@code --rate}: visitors arrive at the planner's step instants for {@code
   * arriveFor} seconds (or the whole run), each on its own thread, for one visit.
   */
  private void runArrivals(int perMinute, int arriveFor, int durationSeconds, int reportSeconds, long seed)
      throws InterruptedException {
    int window = arriveFor > 0 ? arriveFor : durationSeconds > 0 ? durationSeconds : 24 * 3600;
    long[] at =
        io.github.waitingroom.examples.planner.Arrivals.shaped(
                io.github.waitingroom.examples.planner.Arrivals.Shape.STEP, perMinute, 0, Duration.ofSeconds(window))
            .times(seed);
    System.out.printf(Locale.ROOT, "%d visitors a minute for %d s (%d in all) at %s (stay %d s, a click every %d s,"
        + " patience %s)%n", perMinute, window, at.length, where(), stay, think,
        patienceMillis == 0 ? "unlimited" : patienceMillis / 1000 + " s");
    System.out.flush();
    Runtime.getRuntime().addShutdownHook(new Thread(this::summary, "summary"));
    long start = System.nanoTime();
    Thread arrivals = new Thread(() -> {
      for (long t : at) {
        long delay = t - (System.nanoTime() - start) / 1_000_000;
        if (delay > 0) {
          sleepMillis(delay);
        }
        if (!running || Thread.currentThread().isInterrupted()) {
          return;
        }
        Thread v = new Thread(this::oneVisit, "visitor");
        v.setDaemon(true);
        v.start();
      }
    }, "arrivals");
    arrivals.setDaemon(true);
    arrivals.start();
    long next = start;
    while (durationSeconds <= 0 || System.nanoTime() - start < durationSeconds * 1_000_000_000L) {
      next += reportSeconds * 1_000_000_000L;
      long sleep = (next - System.nanoTime()) / 1_000_000;
      if (durationSeconds > 0) {
        sleep = Math.min(sleep, (start + durationSeconds * 1_000_000_000L - System.nanoTime()) / 1_000_000);
      }
      if (sleep > 0) {
        Thread.sleep(sleep);
      }
      long seconds = Math.round((System.nanoTime() - start) / 1e9);
      System.out.printf(
          Locale.ROOT,
          "t=%4ds  arrived: %5d  in line: %4d  in the shop: %4d  admitted so far: %6d  gave up: %4d  errors: %d%n",
          seconds, arrived.sum(), inLine.get(), inShop.get(), admitted.sum(), gaveUp.sum(), errors.sum());
      interval(seconds);
    }
    running = false;
    arrivals.interrupt();
    summary();
  }

  private void oneVisit() {
    arrived.increment();
    try {
      visit();
    } catch (IOException e) {
      errors.increment();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run(int users, int durationSeconds, int reportSeconds) throws InterruptedException {
    System.out.printf(Locale.ROOT, "%d visitors at %s (stay %d s, a click every %d s)%n", users, where(), stay, think);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < users; i++) {
      Thread t = new Thread(this::visitorsOneAfterAnother, "visitor-" + i);
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(this::summary, "summary"));
    long start = System.nanoTime();
    while (durationSeconds <= 0 || System.nanoTime() - start < durationSeconds * 1_000_000_000L) {
      Thread.sleep(reportSeconds * 1000L);
      long seconds = (System.nanoTime() - start) / 1_000_000_000L;
      long wait = lastWaitMinutes.get();
      System.out.printf(
          Locale.ROOT,
          "t=%4ds  in line: %4d  in the shop: %4d  admitted so far: %6d  most ahead: %5d  estimate: %s"
              + "  lost sessions: %d  errors: %d%n",
          seconds, inLine.get(), inShop.get(), admitted.sum(), maxAhead.getAndSet(0),
          wait < 0 ? "unknown" : wait + " min", lostSessions.sum(), errors.sum());
      interval(seconds);
    }
    running = false;
    for (Thread t : threads) {
      t.interrupt();
    }
    summary();
  }

  private String where() {
    return urls.size() == 1 ? urls.get(0).toString() : urls.toString();
  }

  /** The end of a report interval: with {@code --csv}, its line; the page latencies start again. */
  private void interval(long seconds) {
    long[] ms;
    synchronized (pageMillis) {
      ms = pageMillis.stream().mapToLong(Long::longValue).sorted().toArray();
      pageMillis.clear();
    }
    Recorder r = record;
    if (r != null) {
      r.line(seconds, inLine.get(), inShop.get(), ms);
    }
  }

  /** Asks for the page, and times it when the shop answered (not the room's JSON status). */
  private StatusPage.@Nullable Status ask(StatusPage page, Map<String, String> cookies)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    StatusPage.Status s = page.ask(cookies);
    if (s == null) {
      pageMillis.add((System.nanoTime() - start) / 1_000_000);
    }
    return s;
  }

  private void summary() {
    if (!summarised.compareAndSet(false, true)) {
      return;
    }
    long n = admitted.sum();
    System.out.printf(
        Locale.ROOT,
        "admitted %d visitors; mean time in line %.1f s; errors %d%n",
        n, n == 0 ? 0.0 : waitedMillis.sum() / 1000.0 / n, errors.sum());
    long[] w;
    synchronized (lineWaits) {
      w = lineWaits.stream().mapToLong(Long::longValue).sorted().toArray();
    }
    System.out.printf(
        Locale.ROOT,
        "let in from the line %d: wait p50 %.1f s, p90 %.1f s, p99 %.1f s, max %.1f s; peak line %d; gave up %d;"
            + " still in line %d%n",
        w.length, quantile(w, 0.5), quantile(w, 0.9), quantile(w, 0.99), quantile(w, 1), peakLine.get(),
        gaveUp.sum(), inLine.get());
  }

  /** The {@code q} quantile (nearest rank) of sorted milliseconds, in seconds; 0 for none. */
  private static double quantile(long[] sortedMillis, double q) {
    if (sortedMillis.length == 0) {
      return 0;
    }
    int i = (int) Math.min(sortedMillis.length - 1, Math.max(0, Math.ceil(q * sortedMillis.length) - 1));
    return sortedMillis[i] / 1000.0;
  }

  private void visitorsOneAfterAnother() {
    // Spread the first arrivals over a second so they do not all land in the same instant.
    sleepMillis(ThreadLocalRandom.current().nextInt(1000));
    while (running) {
      try {
        visit();
      } catch (IOException e) {
        errors.increment();
        sleepMillis(1000);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** One visitor, from arrival to leaving. */
  private void visit() throws IOException, InterruptedException {
    Map<String, String> cookies = new LinkedHashMap<>();
    StatusPage page = pages.get(Math.floorMod(nextPage.getAndIncrement(), pages.size()));
    long arrived = System.nanoTime();
    boolean counted = false;
    try {
      StatusPage.Status s;
      while ((s = ask(page, cookies)) != null) {
        if (!counted) {
          peakLine.accumulateAndGet(inLine.incrementAndGet(), Math::max);
          counted = true;
        }
        maxAhead.accumulateAndGet(s.usersAhead(), Math::max);
        lastWaitMinutes.set(s.waitMinutes());
        long pause = Math.max(1, s.refreshSeconds()) * 1000L;
        if (patienceMillis > 0) {
          long left = patienceMillis - (System.nanoTime() - arrived) / 1_000_000;
          if (left <= 0) {
            gaveUp.increment();
            return;
          }
          if (left < pause) {
            Thread.sleep(left);
            gaveUp.increment();
            return;
          }
        }
        Thread.sleep(pause);
      }
    } finally {
      if (counted) {
        inLine.decrementAndGet();
      }
    }
    admitted.increment();
    long waited = (System.nanoTime() - arrived) / 1_000_000;
    waitedMillis.add(waited);
    if (counted) {
      lineWaits.add(waited);
    }
    inShop.incrementAndGet();
    try {
      long leave = System.nanoTime() + stay * 1_000_000_000L;
      while (System.nanoTime() + think * 1_000_000_000L < leave) {
        Thread.sleep(think * 1000L);
        if (ask(page, cookies) != null) {
          lostSessions.increment(); // should stay 0 while --think is shorter than the session
          break;
        }
      }
    } finally {
      inShop.decrementAndGet();
    }
  }

  private static void sleepMillis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
