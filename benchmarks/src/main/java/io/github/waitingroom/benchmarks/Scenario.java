package io.github.waitingroom.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import io.github.waitingroom.FailurePolicy;

/**
 * One run of the {@link SpikeSimulator}: the room's limits, the topology, how fast counts
 * propagate, who arrives when and from where, and how people behave.
 *
 * @param name short name, used for file names
 * @param description one line for the report
 * @param dataCenters how many data centers (each named {@code dc-<i>})
 * @param nodesPerDataCenter nodes (JVMs) per data center
 * @param syncInterval the room's epoch length ({@code Builder#syncInterval}); each node syncs
 *     four times per epoch, when its own {@code nextSyncDelay()} asks
 * @param globalLag how stale the other data centers' sums are when a node reads them
 * @param dataCenterLag how stale the other nodes of the own data center are when a node reads them
 * @param totalActiveUsers the room's limit on active users
 * @param newUsersPerMinute the room's limit on admissions per sliding minute
 * @param sessionDuration the room's session duration (counted after an admitted user's last request)
 * @param refreshInterval the room's configured refresh interval ({@code RoomConfig}); a page
 *     polls as each answer tells it, the other kinds of clients see {@link ClientKind}
 * @param waves who arrives, when and where
 * @param dataCenterWeights how arrivals not pinned to one data center spread over the data
 *     centers (relative weights, one per data center)
 * @param browseMean mean time an admitted user keeps making requests (exponential, at least 10 s)
 * @param thinkMin shortest pause between an active user's requests
 * @param thinkMax longest pause between an active user's requests
 * @param patienceMean mean time a {@linkplain ClientKind#LEAVER leaver} keeps polling before giving
 *     up (exponential); zero means nobody gives up. The other kinds of clients wait until they are
 *     let in or the run ends.
 * @param duration how much virtual time to simulate
 * @param seed the random seed of the run: the simulated traffic (arrivals, choices of node, think
 *     times, patience) and every node's own random choices (tie-break bits, draws, sync jitter), so
 *     that one seed gives one run, bit for bit
 * @param adversity the hostile or faulty conditions of the run ({@link Adversity#NONE} for none)
 * @param clientMix how waiting users poll: the shares of page clients, hidden tabs, frozen tabs,
 *     fixed-pace API clients and leavers ({@link ClientMix#DEFAULT} unless a scenario says otherwise)
 */
public record Scenario(
    String name,
    String description,
    int dataCenters,
    int nodesPerDataCenter,
    Duration syncInterval,
    Duration globalLag,
    Duration dataCenterLag,
    int totalActiveUsers,
    int newUsersPerMinute,
    Duration sessionDuration,
    Duration refreshInterval,
    List<Wave> waves,
    double[] dataCenterWeights,
    Duration browseMean,
    Duration thinkMin,
    Duration thinkMax,
    Duration patienceMean,
    Duration duration,
    long seed,
    Adversity adversity,
    ClientMix clientMix) {

  /** Checks the settings. */
  public Scenario {
    Objects.requireNonNull(name, "name");
    if (dataCenters < 1 || nodesPerDataCenter < 1) {
      throw new IllegalArgumentException(
          "dataCenters and nodesPerDataCenter must be positive but were " + dataCenters + " and "
              + nodesPerDataCenter);
    }
    if (dataCenterWeights.length != dataCenters) {
      throw new IllegalArgumentException(
          "dataCenterWeights must have one weight per data center (" + dataCenters + ") but has "
              + dataCenterWeights.length);
    }
    for (Wave w : waves) {
      if (w.onlyDataCenter() >= dataCenters) {
        throw new IllegalArgumentException("wave pinned to unknown data center " + w.onlyDataCenter());
      }
    }
    waves = List.copyOf(waves);
    dataCenterWeights = dataCenterWeights.clone();
    Objects.requireNonNull(adversity, "adversity");
    Objects.requireNonNull(clientMix, "clientMix");
  }

  /** A scenario with the {@link ClientMix#DEFAULT default client mix}. */
  public Scenario(
      String name,
      String description,
      int dataCenters,
      int nodesPerDataCenter,
      Duration syncInterval,
      Duration globalLag,
      Duration dataCenterLag,
      int totalActiveUsers,
      int newUsersPerMinute,
      Duration sessionDuration,
      Duration refreshInterval,
      List<Wave> waves,
      double[] dataCenterWeights,
      Duration browseMean,
      Duration thinkMin,
      Duration thinkMax,
      Duration patienceMean,
      Duration duration,
      long seed,
      Adversity adversity) {
    this(name, description, dataCenters, nodesPerDataCenter, syncInterval, globalLag, dataCenterLag,
        totalActiveUsers, newUsersPerMinute, sessionDuration, refreshInterval, waves, dataCenterWeights,
        browseMean, thinkMin, thinkMax, patienceMean, duration, seed, adversity, ClientMix.DEFAULT);
  }

  /**
   * Hostile clients and a faulty store: the blind spots of the first simulator.
   *
   * @param lockstep whether all nodes sync together (each twice in a row) at the same quarter
   *     epochs: a diagnostic that no real deployment has
   * @param coldStart whether every node starts at the same instant as the traffic (otherwise they
   *     join one by one before it, each once the previous one is visible)
   * @param sticky whether the load balancer sends each user to one node of their data center
   *     (otherwise every request goes to a random node of it)
   * @param parallelRequests requests a page sends at once with the same cookie (to random nodes of
   *     the user's data center); the browser keeps the Set-Cookie of the response that comes last
   * @param replayers how many admitted users also replay their first (admitted) ticket, ignoring
   *     every answer, for as long as they browse
   * @param replaysPerSecond how often each replayer replays
   * @param clones how many clients get a copy of one early waiting cookie
   * @param cloneAfter when (from the start of the run) the waiting cookie of the user at the
   *     front of the line is copied
   * @param maxSkew each node's clock is off by a uniform amount in [-maxSkew, +maxSkew]
   * @param failurePolicy the nodes' failure policy
   * @param faults what the store does wrong, and when (its clock, which every answer carries, is
   *     always right: a node refuses a store without one)
   */
  public record Adversity(
      boolean lockstep,
      boolean coldStart,
      boolean sticky,
      int parallelRequests,
      int replayers,
      int replaysPerSecond,
      int clones,
      Duration cloneAfter,
      Duration maxSkew,
      FailurePolicy failurePolicy,
      List<Fault> faults) {
    /** Honest clients, a healthy store, clocks in step. */
    public static final Adversity NONE =
        new Adversity(false, false, false, 1, 0, 0, 0, Duration.ZERO, Duration.ZERO, FailurePolicy.FAIL_CLOSED, List.of());

    /** Checks the settings. */
    public Adversity {
      if (parallelRequests < 1 || replayers < 0 || replaysPerSecond < 0 || clones < 0) {
        throw new IllegalArgumentException("counts must not be negative, parallelRequests at least 1");
      }
      Objects.requireNonNull(failurePolicy, "failurePolicy");
      faults = List.copyOf(faults);
    }

    Adversity withSticky() {
      return new Adversity(lockstep, coldStart, true, parallelRequests, replayers, replaysPerSecond, clones, cloneAfter, maxSkew, failurePolicy, faults);
    }

    Adversity withColdStart() {
      return new Adversity(lockstep, true, sticky, parallelRequests, replayers, replaysPerSecond, clones, cloneAfter, maxSkew, failurePolicy, faults);
    }

    Adversity withLockstep() {
      return new Adversity(true, coldStart, sticky, parallelRequests, replayers, replaysPerSecond, clones, cloneAfter, maxSkew, failurePolicy, faults);
    }

    Adversity withParallel(int n) {
      return new Adversity(lockstep, coldStart, sticky, n, replayers, replaysPerSecond, clones, cloneAfter, maxSkew, failurePolicy, faults);
    }

    Adversity withReplayers(int n, int perSecond) {
      return new Adversity(lockstep, coldStart, sticky, parallelRequests, n, perSecond, clones, cloneAfter, maxSkew, failurePolicy, faults);
    }

    Adversity withClones(int n, Duration after) {
      return new Adversity(lockstep, coldStart, sticky, parallelRequests, replayers, replaysPerSecond, n, after, maxSkew, failurePolicy, faults);
    }

    Adversity withSkew(Duration max) {
      return new Adversity(lockstep, coldStart, sticky, parallelRequests, replayers, replaysPerSecond, clones, cloneAfter, max, failurePolicy, faults);
    }

    Adversity withFaults(FailurePolicy policy, List<Fault> f) {
      return new Adversity(lockstep, coldStart, sticky, parallelRequests, replayers, replaysPerSecond, clones, cloneAfter, maxSkew, policy, f);
    }
  }

  /**
   * Something the store does wrong for a while.
   *
   * @param kind what goes wrong
   * @param start when, from the start of the run
   * @param length how long (ignored for a flush, which is one instant)
   */
  public record Fault(FaultKind kind, Duration start, Duration length) {
    boolean covers(long millis) {
      return millis >= start.toMillis() && millis < start.toMillis() + length.toMillis();
    }
  }

  /** The kinds of store faults. */
  public enum FaultKind {
    /** Every exchange throws {@link java.io.IOException}. */
    OUTAGE,
    /** The store loses everything it holds (a restart without persistence, a fail-over). */
    FLUSH,
    /** Answers miss about half of the other publishers' values. */
    PARTIAL,
    /** Answers carry one extra publisher per scope whose report has a newer format version. */
    NEWER_VERSION,
    /**
     * One exchange in ten is run by the store but its answer is lost (a command that timed out
     * after the store ran it): the node sees a failure, the others see what it published.
     */
    LOST_ANSWERS
  }

  /**
   * How a simulated waiting user polls. Every kind presents the cookies it holds; the room decides
   * whether a place is still valid.
   */
  public enum ClientKind {
    /** A page in front of its user: polls as each answer tells it ({@code Decision.refreshSeconds()}). */
    PAGE("page"),
    /**
     * A hidden browser tab: polls once a minute whatever it is told (Chrome runs a hidden tab's
     * timers once a minute).
     */
    HIDDEN("hidden"),
    /**
     * A tab that is frozen once (a phone that switched apps, a laptop lid): polls as told, but
     * once, at a uniform time in its first {@link #FREEZE_START_MAX_MINUTES} minutes of waiting,
     * goes silent for a uniform {@link #FREEZE_MIN_MINUTES}-{@link #FREEZE_MAX_MINUTES} minutes,
     * then comes back with the same cookies (even when their Max-Age has passed) and polls as told.
     */
    FROZEN("frozen"),
    /**
     * An API or app client on a timer: polls every N s, N uniform in {@link #API_MIN_SECONDS}-{@link
     * #API_MAX_SECONDS} and fixed per client, whatever it is told.
     */
    API("api"),
    /**
     * A page that polls as told and gives up after an exponential patience (the scenario's {@code
     * patienceMean}): the only kind that leaves the line by itself.
     */
    LEAVER("leaver");

    /** How often a hidden tab polls, in seconds. */
    public static final int HIDDEN_SECONDS = 60;
    /** A frozen tab's silence starts within this many minutes of its arrival. */
    public static final int FREEZE_START_MAX_MINUTES = 3;
    /** The shortest silence of a frozen tab. */
    public static final int FREEZE_MIN_MINUTES = 1;
    /** The longest silence of a frozen tab. */
    public static final int FREEZE_MAX_MINUTES = 10;
    /** The shortest period of an API client. */
    public static final int API_MIN_SECONDS = 10;
    /** The longest period of an API client. */
    public static final int API_MAX_SECONDS = 60;

    private final String label;

    ClientKind(String label) {
      this.label = label;
    }

    /** A short lower-case name, for reports. */
    public String label() {
      return label;
    }
  }

  /**
   * Which share of the arrivals is of which {@link ClientKind}; the shares sum to 1. Each arrival
   * draws its kind from the run's seed.
   *
   * @param page share of page clients (poll as told)
   * @param hidden share of hidden tabs (poll once a minute)
   * @param frozen share of tabs frozen once for 1-10 minutes
   * @param api share of fixed-pace API clients (every 10-60 s)
   * @param leaver share of pages that give up after an exponential patience
   */
  public record ClientMix(double page, double hidden, double frozen, double api, double leaver) {
    /**
     * The mix of every scenario unless it says otherwise: 55 % page clients, 15 % hidden tabs,
     * 10 % frozen tabs, 10 % API clients, 10 % leavers.
     */
    public static final ClientMix DEFAULT = new ClientMix(0.55, 0.15, 0.10, 0.10, 0.10);

    /** Every user a page that polls as told and gives up after its patience: the simulator before client kinds. */
    public static final ClientMix LEAVERS_ONLY = new ClientMix(0, 0, 0, 0, 1);

    /** Checks the shares. */
    public ClientMix {
      double[] shares = {page, hidden, frozen, api, leaver};
      double sum = 0;
      for (double v : shares) {
        if (!(v >= 0 && v <= 1)) {
          throw new IllegalArgumentException("shares must be within [0, 1]: " + java.util.Arrays.toString(shares));
        }
        sum += v;
      }
      if (Math.abs(sum - 1) > 1e-9) {
        throw new IllegalArgumentException("shares must sum to 1 but sum to " + sum);
      }
    }

    /** The share of one kind. */
    public double share(ClientKind kind) {
      return switch (kind) {
        case PAGE -> page;
        case HIDDEN -> hidden;
        case FROZEN -> frozen;
        case API -> api;
        case LEAVER -> leaver;
      };
    }

    /** The kind at {@code u} (uniform in [0, 1)) of the cumulative shares, in {@link ClientKind} order. */
    public ClientKind pick(double u) {
      double acc = 0;
      ClientKind last = ClientKind.PAGE;
      for (ClientKind k : ClientKind.values()) {
        double share = share(k);
        if (share > 0) {
          last = k;
          acc += share;
          if (u < acc) {
            return k;
          }
        }
      }
      return last;
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder();
      for (ClientKind k : ClientKind.values()) {
        if (share(k) > 0) {
          b.append(b.length() == 0 ? "" : " ").append(Math.round(share(k) * 100)).append("% ").append(k.label());
        }
      }
      return b.toString();
    }
  }

  /** How arrivals of a wave spread over its time span. */
  public enum Shape {
    /** A constant rate. */
    STEP,
    /** A rate that grows linearly from zero. */
    RAMP,
    /** Packed into the first second of every slice (10 s). */
    BURST_SLICE,
    /** Packed into the first second of every minute. */
    BURST_MINUTE
  }

  /**
   * A group of arrivals.
   *
   * @param start when the wave begins, from the start of the run
   * @param length how long it lasts
   * @param users how many users arrive in it
   * @param shape how they spread over the time span
   * @param onlyDataCenter the one data center they all come from, or -1 to spread them by the
   *     scenario's weights
   */
  public record Wave(Duration start, Duration length, int users, Shape shape, int onlyDataCenter) {}

  /** Scenarios that every report covers. */
  public static List<Scenario> standard() {
    return List.of(oneNode(), fiveByFour(), flashCrowd());
  }

  /**
   * The scenarios of issue 39 (real clients, the per-minute limit, short sessions, topologies,
   * lag, node clocks seconds apart), all on {@link #crowd} with the default client mix.
   */
  public static List<Scenario> clientScenarios() {
    return List.of(
        perMinute(),
        shortSessions(),
        topology(1, 1),
        topology(2, 2),
        topology(2, 6),
        topology(5, 4),
        topology(20, 5),
        lag("lag075", 750),
        lag("lag15", 1500),
        lag("lag3", 3000),
        clockSkew());
  }

  /** The names {@link #named} knows, in the order of the reports. */
  public static List<String> names() {
    List<String> names = new java.util.ArrayList<>();
    standard().forEach(s -> names.add(s.name()));
    names.add("smoke");
    adversarial().forEach(s -> names.add(s.name()));
    clientScenarios().forEach(s -> names.add(s.name()));
    names.addAll(List.of("load10", "load100", "load1000"));
    return List.copyOf(names);
  }

  /** A scenario by name. */
  public static Scenario named(String name) {
    for (List<Scenario> group : List.of(standard(), adversarial(), clientScenarios())) {
      for (Scenario s : group) {
        if (s.name.equals(name)) {
          return s;
        }
      }
    }
    return switch (name) {
      case "smoke" -> smoke(42);
      case "tiny-one-node" -> tiny(7);
      case "load10" -> storeLoad(2, 5);
      case "load100" -> storeLoad(10, 10);
      case "load1000" -> storeLoad(20, 50);
      default -> throw new IllegalArgumentException(
          "unknown scenario '" + name + "'; known: " + String.join(", ", names()));
    };
  }

  private static double[] zipf(int n) {
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      w[i] = 1.0 / (i + 1);
    }
    return w;
  }

  /**
   * One node: background of 100 users a minute, a step to 600 a minute for 10 minutes, then back;
   * 1,000 active users, 500 new users a minute.
   */
  public static Scenario oneNode() {
    return new Scenario(
        "one-node",
        "1 DC x 1 node, 1 s sync; step from 100 to 600 arrivals/min for 10 min",
        1,
        1,
        Duration.ofSeconds(1),
        Duration.ZERO,
        Duration.ZERO,
        1000,
        500,
        Duration.ofMinutes(2),
        Duration.ofSeconds(20),
        List.of(
            new Wave(Duration.ZERO, Duration.ofMinutes(40), 4000, Shape.STEP, -1),
            new Wave(Duration.ofMinutes(3), Duration.ofMinutes(10), 5000, Shape.STEP, -1)),
        new double[] {1},
        Duration.ofMinutes(4),
        Duration.ofSeconds(5),
        Duration.ofSeconds(25),
        Duration.ofMinutes(15),
        Duration.ofMinutes(40),
        1,
        Adversity.NONE);
  }

  /**
   * 5 data centers x 4 nodes, 2 s sync, 1 s lag between data centers (200 ms within one):
   * background of 150 a minute plus a ramp to about 2,000 a minute over 10 minutes.
   */
  public static Scenario fiveByFour() {
    return new Scenario(
        "dc5x4",
        "5 DCs x 4 nodes, 2 s sync, 1 s lag (200 ms in-DC); ramp to ~2,000 arrivals/min over 10 min",
        5,
        4,
        Duration.ofSeconds(2),
        Duration.ofSeconds(1),
        Duration.ofMillis(200),
        1000,
        500,
        Duration.ofMinutes(2),
        Duration.ofSeconds(20),
        List.of(
            new Wave(Duration.ZERO, Duration.ofMinutes(40), 6000, Shape.STEP, -1),
            new Wave(Duration.ofMinutes(3), Duration.ofMinutes(10), 10000, Shape.RAMP, -1)),
        zipf(5),
        Duration.ofMinutes(4),
        Duration.ofSeconds(5),
        Duration.ofSeconds(25),
        Duration.ofMinutes(15),
        Duration.ofMinutes(40),
        2,
        Adversity.NONE);
  }

  /**
   * 20 data centers x 5 nodes, 2 s sync, 1 s lag: 200,000 arrivals within one minute, all from one
   * data center, against 1,000 active users; background of 200 a minute everywhere.
   */
  public static Scenario flashCrowd() {
    return new Scenario(
        "flash20x5",
        "20 DCs x 5 nodes, 2 s sync, 1 s lag (200 ms in-DC); 200,000 arrivals in 1 min from dc-0",
        20,
        5,
        Duration.ofSeconds(2),
        Duration.ofSeconds(1),
        Duration.ofMillis(200),
        1000,
        500,
        Duration.ofMinutes(2),
        Duration.ofSeconds(20),
        List.of(
            new Wave(Duration.ZERO, Duration.ofMinutes(40), 8000, Shape.STEP, -1),
            new Wave(Duration.ofMinutes(5), Duration.ofMinutes(1), 200_000, Shape.STEP, 0)),
        zipf(20),
        Duration.ofMinutes(4),
        Duration.ofSeconds(5),
        Duration.ofSeconds(25),
        Duration.ofMinutes(10),
        Duration.ofMinutes(40),
        3,
        Adversity.NONE);
  }

  /** A tiny run for the build's tests: 2 DCs x 2 nodes, 1,400 arrivals in 8 minutes against 50 users. */
  public static Scenario smoke(long seed) {
    return new Scenario(
        "smoke",
        "2 DCs x 2 nodes, 1 s sync, 500 ms lag; 1,400 arrivals in 8 min against 50 active users",
        2,
        2,
        Duration.ofSeconds(1),
        Duration.ofMillis(500),
        Duration.ofMillis(100),
        50,
        50,
        Duration.ofMinutes(1),
        Duration.ofSeconds(10),
        List.of(
            new Wave(Duration.ZERO, Duration.ofMinutes(8), 200, Shape.STEP, -1),
            new Wave(Duration.ofMinutes(2), Duration.ofMinutes(2), 1200, Shape.RAMP, 1)),
        new double[] {2, 1},
        Duration.ofMinutes(1),
        Duration.ofSeconds(5),
        Duration.ofSeconds(15),
        Duration.ofMinutes(5),
        Duration.ofMinutes(8),
        seed,
        Adversity.NONE);
  }

  /**
   * The tiny run of {@code SpikeSimulatorTest}: 1 node, 1 s epochs, 40 active users, 30 new users a
   * minute, 1 min sessions, 10 s refresh; 1,000 arrivals in 8 minutes (800 of them in minute 1-2).
   */
  public static Scenario tiny(long seed) {
    Scenario s = smoke(seed);
    return new Scenario(
        "tiny-one-node",
        "1 node, 1,000 arrivals against 40 active users",
        1,
        1,
        Duration.ofSeconds(1),
        Duration.ZERO,
        Duration.ZERO,
        40,
        30,
        Duration.ofMinutes(1),
        Duration.ofSeconds(10),
        List.of(
            new Wave(Duration.ZERO, Duration.ofMinutes(8), 200, Shape.STEP, -1),
            new Wave(Duration.ofMinutes(1), Duration.ofMinutes(1), 800, Shape.STEP, -1)),
        new double[] {1},
        s.browseMean(),
        s.thinkMin(),
        s.thinkMax(),
        Duration.ofMinutes(3),
        Duration.ofMinutes(8),
        seed,
        Adversity.NONE);
  }

  /**
   * The base of the adversarial scenarios: 2 DCs x 2 nodes, 1 s epochs, 500 ms lag between DCs
   * (100 ms inside), 300 active users, 150 new users a minute, 2 min sessions; 60 arrivals a
   * minute in the background for 25 minutes and 2,500 more over minutes 2-10 (linear ramp), so a
   * line stands for most of the run.
   */
  public static Scenario hostileBase(String name, String description, Adversity adversity, List<Wave> waves) {
    return new Scenario(
        name,
        "2 DCs x 2 nodes, 1 s sync, 500 ms lag (100 ms in-DC); " + description,
        2,
        2,
        Duration.ofSeconds(1),
        Duration.ofMillis(500),
        Duration.ofMillis(100),
        300,
        150,
        Duration.ofMinutes(2),
        Duration.ofSeconds(20),
        waves,
        new double[] {2, 1},
        Duration.ofMinutes(4),
        Duration.ofSeconds(5),
        Duration.ofSeconds(25),
        Duration.ofMinutes(15),
        Duration.ofMinutes(25),
        8,
        adversity);
  }

  private static List<Wave> hostileWaves() {
    return List.of(
        new Wave(Duration.ZERO, Duration.ofMinutes(25), 1500, Shape.STEP, -1),
        new Wave(Duration.ofMinutes(2), Duration.ofMinutes(8), 2500, Shape.RAMP, -1));
  }

  private static List<Fault> storeFaults() {
    return List.of(
        new Fault(FaultKind.OUTAGE, Duration.ofMinutes(5), Duration.ofMinutes(4)),
        new Fault(FaultKind.FLUSH, Duration.ofMinutes(12), Duration.ZERO),
        new Fault(FaultKind.PARTIAL, Duration.ofMinutes(15), Duration.ofMinutes(2)),
        new Fault(FaultKind.NEWER_VERSION, Duration.ofMinutes(19), Duration.ofMinutes(2)),
        new Fault(FaultKind.LOST_ANSWERS, Duration.ofMinutes(22), Duration.ofMinutes(2)));
  }

  /** The adversarial scenarios: one blind spot of the first simulator each. */
  public static List<Scenario> adversarial() {
    Adversity none = Adversity.NONE;
    return List.of(
        hostileBase("hostile-base", "honest clients, healthy store (the reference)", none, hostileWaves()),
        hostileBase("parallel", "every page sends 4 requests at once with one cookie", none.withParallel(4), hostileWaves()),
        hostileBase("replay", "20 admitted clients replay their first ticket 10 times a second", none.withReplayers(20, 10), hostileWaves()),
        hostileBase("clone", "at minute 7 the waiting cookie at the front of the line is copied to 100 clients",
            none.withClones(100, Duration.ofMinutes(7)), hostileWaves()),
        hostileBase("skew", "node clocks off by up to +-5 s", none.withSkew(Duration.ofSeconds(5)), hostileWaves()),
        hostileBase("store-fail-open", "FAIL_OPEN; store down minutes 5-9, flushed at 12, partial answers 15-17, "
            + "a newer report version 19-21, one answer in ten lost 22-24", none.withFaults(FailurePolicy.FAIL_OPEN, storeFaults()), hostileWaves()),
        hostileBase("store-fail-closed", "FAIL_CLOSED; store down minutes 5-9, flushed at 12, partial answers 15-17, "
            + "a newer report version 19-21, one answer in ten lost 22-24", none.withFaults(FailurePolicy.FAIL_CLOSED, storeFaults()), hostileWaves()),
        hostileBase("burst", "arrivals packed into the first second of each slice (min 2-10) and of each minute (min 12-20)",
            none,
            List.of(
                new Wave(Duration.ZERO, Duration.ofMinutes(25), 1500, Shape.STEP, -1),
                new Wave(Duration.ofMinutes(2), Duration.ofMinutes(8), 1500, Shape.BURST_SLICE, -1),
                new Wave(Duration.ofMinutes(12), Duration.ofMinutes(8), 1500, Shape.BURST_MINUTE, -1))));
  }

  /**
   * Store load: the given topology, 1 s epochs, no lag, 2 virtual minutes with a line standing
   * from the first seconds (300 active users, 150 a minute, 200 a minute in the background and
   * 2,000 arrivals in the first 30 s).
   */
  public static Scenario storeLoad(int dataCenters, int nodesPerDataCenter) {
    int nodes = dataCenters * nodesPerDataCenter;
    double[] weights = new double[dataCenters];
    java.util.Arrays.fill(weights, 1);
    return new Scenario(
        "load" + nodes,
        dataCenters + " DCs x " + nodesPerDataCenter + " nodes, 1 s sync, no lag; store operations and bytes",
        dataCenters,
        nodesPerDataCenter,
        Duration.ofSeconds(1),
        Duration.ZERO,
        Duration.ZERO,
        300,
        150,
        Duration.ofMinutes(2),
        Duration.ofSeconds(20),
        List.of(
            new Wave(Duration.ZERO, Duration.ofMinutes(2), 400, Shape.STEP, -1),
            new Wave(Duration.ZERO, Duration.ofSeconds(30), 2000, Shape.STEP, -1)),
        weights,
        Duration.ofMinutes(4),
        Duration.ofSeconds(5),
        Duration.ofSeconds(25),
        Duration.ZERO,
        Duration.ofMinutes(2),
        9,
        Adversity.NONE);
  }

  /**
   * The crowd of the issue 39 scenarios, on the given topology: 300 active users, 150 new users a
   * minute, 2 min sessions, 20 s refresh; 600 arrivals over 10 minutes spread over the data
   * centers (Zipf weights) and a surge of 2,500 in minutes 1-3, all from dc-0; the default client
   * mix (leavers give up after 15 minutes on average). Ten minutes, so that a line stands from
   * the first minute on and the runs stay short (the nodes' report decoding grows with the line).
   */
  public static Scenario crowd(
      String name, String description, int dataCenters, int nodesPerDataCenter, Duration syncInterval,
      Duration globalLag, Duration dataCenterLag, Adversity adversity) {
    return new Scenario(
        name,
        dataCenters + " DCs x " + nodesPerDataCenter + " nodes, " + syncInterval.toMillis() + " ms sync, "
            + globalLag.toMillis() + " ms lag (" + dataCenterLag.toMillis() + " ms in-DC); " + description,
        dataCenters,
        nodesPerDataCenter,
        syncInterval,
        globalLag,
        dataCenterLag,
        300,
        150,
        Duration.ofMinutes(2),
        Duration.ofSeconds(20),
        List.of(
            new Wave(Duration.ZERO, Duration.ofMinutes(10), 600, Shape.STEP, -1),
            new Wave(Duration.ofMinutes(1), Duration.ofMinutes(2), 2500, Shape.STEP, 0)),
        zipf(dataCenters),
        Duration.ofMinutes(4),
        Duration.ofSeconds(5),
        Duration.ofSeconds(25),
        Duration.ofMinutes(15),
        Duration.ofMinutes(10),
        39,
        adversity,
        ClientMix.DEFAULT);
  }

  /** The {@link #crowd} on {@code dataCenters} x {@code nodes}: 2 s epochs, 1 s lag (200 ms in-DC). */
  public static Scenario topology(int dataCenters, int nodes) {
    return crowd("topo" + dataCenters + "x" + nodes, "the crowd of topo*", dataCenters, nodes,
        Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofMillis(200), Adversity.NONE);
  }

  /** The {@link #crowd} on 2 DCs x 2 nodes with 1 s epochs and {@code lagMillis} between data centers. */
  public static Scenario lag(String name, long lagMillis) {
    return crowd(name, String.format(Locale.ROOT, "lag of %.2f epochs between DCs", lagMillis / 1000.0), 2, 2,
        Duration.ofSeconds(1), Duration.ofMillis(lagMillis), Duration.ofMillis(100), Adversity.NONE);
  }

  /**
   * The {@link #crowd} on 1 DC x 3 nodes, 1 s epochs, 100 ms lag, node clocks off by up to +-2.5 s:
   * the nodes keep time by the store's clock, which every answer carries. (Issue 39 ran this with
   * a store that did not tell its clock, when the clock was optional: 45 admitted against a limit
   * of 30. A node now refuses such a store; see {@code StoreClockTest} in the core.)
   */
  public static Scenario clockSkew() {
    return crowd("clock-skew", "node clocks off by up to +-2.5 s, time kept by the store's clock", 1, 3,
        Duration.ofSeconds(1), Duration.ofMillis(100), Duration.ofMillis(100),
        Adversity.NONE.withSkew(Duration.ofMillis(2500)));
  }

  /**
   * The per-minute limit binds, not the total: 1,000 active users, 60 new users a minute, 5 min
   * sessions, users browsing 5 minutes on average (about 600 active at 60 a minute); 2 DCs x 2
   * nodes, 1 s epochs, 500 ms lag (100 ms in-DC); 300 arrivals over 10 minutes and 1,000 more in
   * minutes 1-4 (ramp).
   */
  public static Scenario perMinute() {
    return new Scenario(
        "perminute",
        "2 DCs x 2 nodes, 1 s sync, 500 ms lag (100 ms in-DC); the per-minute limit binds (1,000 active, 60/min,"
            + " 5 min sessions)",
        2,
        2,
        Duration.ofSeconds(1),
        Duration.ofMillis(500),
        Duration.ofMillis(100),
        1000,
        60,
        Duration.ofMinutes(5),
        Duration.ofSeconds(20),
        List.of(
            new Wave(Duration.ZERO, Duration.ofMinutes(10), 300, Shape.STEP, -1),
            new Wave(Duration.ofMinutes(1), Duration.ofMinutes(3), 1000, Shape.RAMP, -1)),
        new double[] {2, 1},
        Duration.ofMinutes(5),
        Duration.ofSeconds(5),
        Duration.ofSeconds(25),
        Duration.ofMinutes(15),
        Duration.ofMinutes(10),
        40,
        Adversity.NONE,
        ClientMix.DEFAULT);
  }

  /**
   * 20 s sessions (users browse a minute on average, a request every 2-8 s): the {@link #crowd} on 2
   * DCs x 2 nodes, 1 s epochs, 500 ms lag, with 300 new users a minute (as many as the total, the
   * most a room allows) so that the total limit binds (about 225 a minute get through).
   */
  public static Scenario shortSessions() {
    Scenario c = crowd("short-sessions", "20 s sessions, 300/min", 2, 2, Duration.ofSeconds(1),
        Duration.ofMillis(500), Duration.ofMillis(100), Adversity.NONE);
    return new Scenario(c.name, c.description, c.dataCenters, c.nodesPerDataCenter, c.syncInterval, c.globalLag,
        c.dataCenterLag, c.totalActiveUsers, 300, Duration.ofSeconds(20), c.refreshInterval, c.waves,
        c.dataCenterWeights, Duration.ofMinutes(1), Duration.ofSeconds(2), Duration.ofSeconds(8), c.patienceMean,
        c.duration, 41, c.adversity, c.clientMix);
  }

  /** This scenario with another seed (same name: a seed is a replay of the scenario). */
  public Scenario withSeed(long newSeed) {
    return new Scenario(name, description, dataCenters, nodesPerDataCenter, syncInterval, globalLag,
        dataCenterLag, totalActiveUsers, newUsersPerMinute, sessionDuration, refreshInterval, waves,
        dataCenterWeights, browseMean, thinkMin, thinkMax, patienceMean, duration, newSeed, adversity, clientMix);
  }

  /** This scenario with another client mix. */
  public Scenario withClientMix(ClientMix mix, String label) {
    return new Scenario(name + "+" + label, description + "; clients " + mix, dataCenters, nodesPerDataCenter,
        syncInterval, globalLag, dataCenterLag, totalActiveUsers, newUsersPerMinute, sessionDuration,
        refreshInterval, waves, dataCenterWeights, browseMean, thinkMin, thinkMax, patienceMean, duration, seed,
        adversity, mix);
  }

  /** This scenario without propagation lag (both lags zero), to tell lag from other causes. */
  public Scenario withoutLag() {
    return new Scenario(name + "+nolag", description + "; no lag", dataCenters, nodesPerDataCenter,
        syncInterval, Duration.ZERO, Duration.ZERO, totalActiveUsers, newUsersPerMinute,
        sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean, thinkMin, thinkMax,
        patienceMean, duration, seed, adversity, clientMix);
  }

  /** This scenario with nobody giving up, to tell abandonment from other causes. */
  public Scenario withoutAbandoning() {
    return new Scenario(name + "+patient", description + "; nobody gives up", dataCenters,
        nodesPerDataCenter, syncInterval, globalLag, dataCenterLag, totalActiveUsers,
        newUsersPerMinute, sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean,
        thinkMin, thinkMax, Duration.ZERO, duration, seed, adversity, clientMix);
  }

  /** This scenario with all nodes in one data center (same node count), to tell DCs from nodes. */
  public Scenario inOneDataCenter() {
    double[] one = {1};
    List<Wave> pinned = waves.stream()
        .map(w -> new Wave(w.start(), w.length(), w.users(), w.shape(), -1))
        .toList();
    return new Scenario(name + "+onedc", description + "; all nodes in one DC", 1,
        dataCenters * nodesPerDataCenter, syncInterval, globalLag, dataCenterLag, totalActiveUsers,
        newUsersPerMinute, sessionDuration, refreshInterval, pinned, one, browseMean, thinkMin,
        thinkMax, patienceMean, duration, seed, adversity, clientMix);
  }

  /** This scenario with every node syncing at the same instants (a diagnostic, see {@code lockstep}). */
  public Scenario inLockstep() {
    return new Scenario(name + "+lockstep", description + "; nodes sync in lock step", dataCenters,
        nodesPerDataCenter, syncInterval, globalLag, dataCenterLag, totalActiveUsers,
        newUsersPerMinute, sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean,
        thinkMin, thinkMax, patienceMean, duration, seed, adversity.withLockstep(), clientMix);
  }

  /** This scenario with sticky load balancing: each user always reaches the same node. */
  public Scenario withSticky() {
    return new Scenario(name + "+sticky", description + "; sticky load balancing", dataCenters,
        nodesPerDataCenter, syncInterval, globalLag, dataCenterLag, totalActiveUsers,
        newUsersPerMinute, sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean,
        thinkMin, thinkMax, patienceMean, duration, seed, adversity.withSticky(), clientMix);
  }

  /** This scenario with another sync interval (epoch), to find what a given lag needs. */
  public Scenario withSyncInterval(Duration interval) {
    return new Scenario(name + "+sync" + interval.toMillis() + "ms", description + "; " + interval.toMillis()
        + " ms sync", dataCenters, nodesPerDataCenter, interval, globalLag, dataCenterLag, totalActiveUsers,
        newUsersPerMinute, sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean,
        thinkMin, thinkMax, patienceMean, duration, seed, adversity, clientMix);
  }

  /** This scenario cut to its first {@code minutes} (waves past the end are dropped). */
  public Scenario truncated(int minutes) {
    return new Scenario(name + "+" + minutes + "min", description + "; first " + minutes + " min only",
        dataCenters, nodesPerDataCenter, syncInterval, globalLag, dataCenterLag, totalActiveUsers,
        newUsersPerMinute, sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean,
        thinkMin, thinkMax, patienceMean, Duration.ofMinutes(minutes), seed, adversity, clientMix);
  }

  /** This scenario with every node starting at the same instant as the traffic. */
  public Scenario withColdStart() {
    return new Scenario(name + "+cold", description + "; all nodes start at once", dataCenters,
        nodesPerDataCenter, syncInterval, globalLag, dataCenterLag, totalActiveUsers,
        newUsersPerMinute, sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean,
        thinkMin, thinkMax, patienceMean, duration, seed, adversity.withColdStart(), clientMix);
  }

  /** The scenario's headline settings, for reports. */
  public String settings() {
    return String.format(
        Locale.ROOT,
        "limit %d active, %d new/min, session %ds, refresh %ds, epoch %dms, lag %dms (in-DC %dms), clients %s, %s",
        totalActiveUsers,
        newUsersPerMinute,
        sessionDuration.getSeconds(),
        refreshInterval.getSeconds(),
        syncInterval.toMillis(),
        globalLag.toMillis(),
        dataCenterLag.toMillis(),
        clientMix,
        adversity);
  }
}
