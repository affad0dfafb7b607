package io.github.waitingroom.examples;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.github.waitingroom.examples.Flags.Flag;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

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
 * <p>This is a demo tool that runs in real time; the benchmarks module holds the measured load runs.
 */
public final class LoadGenerator {
  static final List<Flag> FLAGS =
      List.of(
          new Flag("--url", "http://localhost:8080/", "page the visitors ask for"),
          new Flag("--users", "20", "visitors at the site at any time (1..1000)"),
          new Flag("--stay", "20", "seconds an admitted visitor keeps browsing before leaving"),
          new Flag("--think", "5", "seconds between two clicks of an admitted visitor"),
          new Flag("--duration", "0", "seconds to run; 0 runs until Ctrl-C"),
          new Flag("--report", "5", "seconds between two report lines"),
          new Flag("--rate", "0", "arrivals per minute instead of a fixed population: each visitor comes once"
              + " (waits, browses, leaves); 0 keeps --users visitors at the site"),
          new Flag("--arrive-for", "0", "with --rate: seconds during which visitors arrive; 0: all of --duration"),
          new Flag("--patience", "0", "with --rate: seconds a visitor waits in line before giving up; 0: never"),
          new Flag("--seed", "1", "with --rate: the seed of the arrival instants (the capacity planner's"
              + " --shape step --peak RATE --duration ARRIVE-FOR --seed SEED gives the same instants)"));

  private static final JsonFactory JSON = new JsonFactory();

  private final URI url;
  private final int stay;
  private final int think;
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).followRedirects(HttpClient.Redirect.NORMAL).build();

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

  private LoadGenerator(URI url, int stay, int think) {
    this.url = url;
    this.stay = stay;
    this.think = think;
  }

  /** Runs the crowd. */
  public static void main(String[] args) throws InterruptedException {
    Flags flags;
    try {
      flags = Flags.parse(args, FLAGS);
    } catch (Flags.HelpRequested e) {
      System.out.print(Flags.usage("LoadGenerator", FLAGS));
      return;
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.err.print(Flags.usage("LoadGenerator", FLAGS));
      System.exit(2);
      return;
    }
    int users = flags.intValue("--users");
    if (users < 1 || users > 1000) {
      System.err.println("error: --users must be between 1 and 1000 but was " + users);
      System.exit(2);
    }
    LoadGenerator g =
        new LoadGenerator(URI.create(flags.get("--url")), flags.intValue("--stay"), flags.intValue("--think"));
    int rate = flags.intValue("--rate");
    if (rate < 0 || flags.intValue("--arrive-for") < 0 || flags.intValue("--patience") < 0) {
      System.err.println("error: --rate, --arrive-for and --patience must not be negative");
      System.exit(2);
    }
    if (rate > 0) {
      long seed;
      try {
        seed = Long.parseLong(flags.get("--seed").trim());
      } catch (NumberFormatException e) {
        System.err.println("error: --seed must be a whole number but was '" + flags.get("--seed") + "'");
        System.exit(2);
        return;
      }
      g.patienceMillis = flags.intValue("--patience") * 1000L;
      g.runArrivals(rate, flags.intValue("--arrive-for"), flags.intValue("--duration"),
          Math.max(1, flags.intValue("--report")), seed);
      return;
    }
    g.run(users, flags.intValue("--duration"), Math.max(1, flags.intValue("--report")));
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
        + " patience %s)%n", perMinute, window, at.length, url, stay, think,
        patienceMillis == 0 ? "unlimited" : patienceMillis / 1000 + " s");
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
    System.out.printf(Locale.ROOT, "%d visitors at %s (stay %d s, a click every %d s)%n", users, url, stay, think);
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
    }
    running = false;
    for (Thread t : threads) {
      t.interrupt();
    }
    summary();
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
    long arrived = System.nanoTime();
    boolean counted = false;
    try {
      Status s;
      while ((s = ask(cookies)) != null) {
        if (!counted) {
          peakLine.accumulateAndGet(inLine.incrementAndGet(), Math::max);
          counted = true;
        }
        maxAhead.accumulateAndGet(s.usersAhead, Math::max);
        lastWaitMinutes.set(s.waitMinutes);
        long pause = Math.max(1, s.refreshSeconds) * 1000L;
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
        if (ask(cookies) != null) {
          lostSessions.increment(); // should stay 0 while --think is shorter than the session
          break;
        }
      }
    } finally {
      inShop.decrementAndGet();
    }
  }

  /** What the JSON status said. */
  private record Status(long usersAhead, long waitMinutes, long refreshSeconds) {}

  /** Asks for the page; the status when the visitor is (still) in line, otherwise null. */
  private @Nullable Status ask(Map<String, String> cookies)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).header("Accept", "application/json").GET();
    if (!cookies.isEmpty()) {
      StringBuilder c = new StringBuilder();
      cookies.forEach((k, v) -> c.append(c.length() == 0 ? "" : "; ").append(k).append('=').append(v));
      b.header("Cookie", c.toString());
    }
    HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    for (String set : r.headers().allValues("Set-Cookie")) {
      String pair = set.split(";", 2)[0];
      int eq = pair.indexOf('=');
      if (eq > 0) {
        if (set.contains("Max-Age=0")) {
          cookies.remove(pair.substring(0, eq).trim());
        } else {
          cookies.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
      }
    }
    if (r.statusCode() >= 500) {
      throw new IOException("HTTP " + r.statusCode());
    }
    boolean json = r.headers().firstValue("Content-Type").orElse("").startsWith("application/json");
    return json ? parse(r.body()) : null;
  }

  /** Reads the waiting room's JSON status; null when it says the visitor is not in line. */
  static @Nullable Status parse(String body) throws IOException {
    boolean inLine = false;
    long ahead = 0;
    long wait = -1;
    long refresh = 1;
    try (JsonParser p = JSON.createParser(body)) {
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        if (t != JsonToken.FIELD_NAME) {
          continue;
        }
        String name = p.currentName();
        JsonToken v = p.nextToken();
        switch (name) {
          case "inWaitingRoom" -> inLine = v == JsonToken.VALUE_TRUE;
          case "usersAhead" -> ahead = p.getLongValue();
          case "waitTime" -> wait = v == JsonToken.VALUE_NULL ? -1 : p.getLongValue();
          case "refreshIntervalSeconds" -> refresh = p.getLongValue();
          default -> {}
        }
      }
    }
    return inLine ? new Status(ahead, wait, refresh) : null;
  }

  private static void sleepMillis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
