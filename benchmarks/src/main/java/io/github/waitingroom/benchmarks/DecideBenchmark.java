package io.github.waitingroom.benchmarks;

import io.github.waitingroom.Decision;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@link WaitingRoom#decide} for each kind of request, on a full room (10 of 10 users active, one
 * user waiting, a plan applied) whose clock stands still, so each benchmark stays on its path:
 *
 * <ul>
 *   <li>{@link #activeUnchanged}: an admitted user whose ticket was checked in this slice: open
 *       the ticket, compare two numbers, pass. The hot path: most requests of a site are this.
 *   <li>{@link #activeUnchangedTimed}: the same with what the HTTP adapters add to every request
 *       the room lets through: the time taken before and after (two {@link System#nanoTime()}),
 *       told to the room ({@link WaitingRoom#originAnswered}, one atomic add into its latency
 *       histogram), as for an adaptive limit.
 *   <li>{@link #activeCheckIn}: an admitted user's request with a ticket of an earlier slice (the
 *       new-slice re-seal): open, look the place up (counted once per slice, so after the first
 *       call only a map read), seal a new ticket. Run it with {@code -t 2} for two threads.
 *   <li>{@link #waitingPoll}: a waiting user's poll: open, look the place up, check the plan's
 *       admitted places and cutoff (not called), record the poll, seal the polled ticket,
 *       estimate the wait.
 *   <li>{@link #newArrival}: no ticket, room full (no slot for new arrivals): draw a place, count
 *       the arrival, put it in line, seal a waiting ticket, estimate the wait ({@value #NEWCOMERS}
 *       newcomers into a fresh room per call: see {@link FullRoom}).
 * </ul>
 *
 * <p>The room is shared by every benchmark thread ({@code -t 2}), but each thread has tickets of
 * its own ({@link Tickets}), as two users would: two threads on one ticket would contend on that
 * ticket's request counter, which no real pair of users does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
// A room logs that it opened: newArrival opens one per call, which would bury JMH's output.
@Fork(jvmArgsAppend = "-Dorg.slf4j.simpleLogger.log.io.github.waitingroom.WaitingRoom=warn")
public class DecideBenchmark {
  /**
   * Whether the other nine sessions were ended by the application ({@link WaitingRoom#revoke}), so
   * that every request also looks its place up among revoked ones: {@code -p revokes=false,true}.
   */
  @Param({"false"})
  public boolean revokes;

  /** The most benchmark threads with tickets of their own. */
  static final int MAX_THREADS = 4;

  private WaitingRoom room;
  private final String[] activeNow = new String[MAX_THREADS];
  private final String[] activeLastSlice = new String[MAX_THREADS];
  private final String[] waiting = new String[MAX_THREADS];
  private final AtomicInteger threads = new AtomicInteger();

  /** One benchmark thread's tickets: an admitted user's (in this slice and the last) and a waiting one's. */
  @State(Scope.Thread)
  public static class Tickets {
    String activeNow;
    String activeLastSlice;
    String waiting;

    /** Takes the next unused set of the room's tickets. */
    @Setup
    public void take(DecideBenchmark b) {
      int i = b.threads.getAndIncrement();
      if (i >= MAX_THREADS) {
        throw new IllegalStateException("at most " + MAX_THREADS + " threads have tickets of their own");
      }
      activeNow = b.activeNow[i];
      activeLastSlice = b.activeLastSlice[i];
      waiting = b.waiting[i];
    }
  }

  /**
   * A room of 10 active users and 10 new a minute on {@code clock}, with its first plan applied:
   * its 10 free slots are for the next 10 newcomers.
   */
  static WaitingRoom openRoom(ManualClock clock) {
    RoomConfig config =
        RoomConfig.builder("bench")
            .totalActiveUsers(10)
            .newUsersPerMinute(10)
            .sessionDuration(Duration.ofMinutes(5))
            .build();
    // The clock stands still and one ticket is used millions of times: a limit the sketch can
    // never reach, so every use is counted (its cost is in the figure) and none is refused.
    WaitingRoom room = WaitingRoom.builder(config, TicketKeys.generate()).clock(clock).backgroundSync(false)
        .maxRequestsPerTicket(Integer.MAX_VALUE).build();
    // Epochs of 1 s, four syncs each: the first plan with slots comes after a settled epoch.
    for (int i = 0; i < 40 && room.status().freeSlots() == 0; i++) {
      clock.advance(Duration.ofMillis(250));
      room.sync();
    }
    return room;
  }

  /** Fills a room, queues one user and moves the clock so that each ticket is on its path. */
  @Setup
  public void setup() {
    ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:01Z"));
    room = openRoom(clock);
    String[] first = new String[MAX_THREADS];
    for (int i = 0; i < 10; i++) {
      String admitted = expect(room.decide(null), Decision.Outcome.ADMIT);
      if (i < MAX_THREADS) {
        first[i] = admitted;
      } else if (revokes && !room.revoke(admitted)) {
        throw new IllegalStateException("a session could not be ended");
      }
    }
    for (int i = 0; i < MAX_THREADS; i++) {
      waiting[i] = expect(room.decide(null), Decision.Outcome.QUEUE);
    }
    clock.advance(Duration.ofSeconds(12));
    for (int i = 0; i < MAX_THREADS; i++) {
      activeLastSlice[i] = expect(room.decide(first[i]), Decision.Outcome.PASS);
    }
    clock.advance(Duration.ofSeconds(10));
    for (int i = 0; i < MAX_THREADS; i++) {
      activeNow[i] = expect(room.decide(activeLastSlice[i]), Decision.Outcome.PASS);
    }
    for (int i = 0; i < 8; i++) {
      room.sync(); // tallies and plans at the still clock: nothing changes any more
    }
    for (int i = 0; i < MAX_THREADS; i++) {
      check(room.decide(activeNow[i]), Decision.Outcome.PASS, false);
      check(room.decide(activeLastSlice[i]), Decision.Outcome.PASS, true);
      check(room.decide(waiting[i]), Decision.Outcome.WAIT, true);
    }
    check(room.decide(null), Decision.Outcome.QUEUE, true);
  }

  private static String expect(Decision d, Decision.Outcome outcome) {
    check(d, outcome, true);
    String t = d.ticket();
    if (t == null) {
      throw new IllegalStateException("no ticket in " + d);
    }
    return t;
  }

  private static void check(Decision d, Decision.Outcome outcome, boolean newTicket) {
    if (d.outcome() != outcome || (d.ticket() != null) != newTicket) {
      throw new IllegalStateException("expected " + outcome + " (new ticket: " + newTicket + ") but got " + d);
    }
  }

  /** Stops nothing (no background sync) but keeps the room's life cycle honest. */
  @TearDown
  public void tearDown() {
    room.close();
  }

  /** The hot path: an admitted user, ticket already checked in this slice. */
  @Benchmark
  public Decision activeUnchanged(Tickets t) {
    return room.decide(t.activeNow);
  }

  /**
   * The hot path with the adapters' timing ({@code Gate.answered}): {@link System#nanoTime()}
   * once the room let the request through and once the application answered (here at once), and
   * the time told to the room. What it adds to {@link #activeUnchanged} is what timing costs
   * every admitted request.
   */
  @Benchmark
  public Decision activeUnchangedTimed(Tickets t) {
    Decision d = room.decide(t.activeNow);
    long start = System.nanoTime();
    room.originAnswered(System.nanoTime() - start, false);
    return d;
  }

  /**
   * The hot path as the HTTP adapters take it: the session and a leftover place cookie (two
   * cookies); the session is opened first and lets the request through, the place is never opened.
   */
  @Benchmark
  public Decision activeUnchangedWithPlace(Tickets t) {
    return room.decide(t.activeNow, t.waiting);
  }

  /** An admitted user's first request in a new slice: a new ticket is sealed. */
  @Benchmark
  public Decision activeCheckIn(Tickets t) {
    return room.decide(t.activeLastSlice);
  }

  /** A waiting user's poll after a refresh interval, turned away (no slot). */
  @Benchmark
  public Decision waitingPoll(Tickets t) {
    return room.decide(t.waiting);
  }

  /** How many newcomers {@link #newArrival} queues in one fresh room. */
  static final int NEWCOMERS = 10_000;

  /**
   * A full room of one's own for {@link #newArrival}, made anew for each call: every newcomer
   * stays in the node's line until the waiting timeout, which a still clock never reaches, so one
   * room for the whole run would hold millions of them and the figure would be the garbage
   * collector's copying of them. A node keeps as many as arrive within its waiting timeout (61 s
   * by default): 10,000 is a node taking about 160 newcomers a second.
   */
  @State(Scope.Thread)
  public static class FullRoom {
    WaitingRoom room;

    /** A room with its 10 slots taken (outside the measured time). */
    @Setup(Level.Invocation)
    public void fill() {
      room = openRoom(new ManualClock(Instant.parse("2026-11-30T10:00:01Z")));
      for (int i = 0; i < 10; i++) {
        expect(room.decide(null), Decision.Outcome.ADMIT);
      }
      check(room.decide(null), Decision.Outcome.QUEUE, true);
    }

    /** Closes the room. */
    @TearDown(Level.Invocation)
    public void close() {
      room.close();
    }
  }

  /**
   * Requests without a ticket to a full room: each is queued (its cost per newcomer, {@value
   * #NEWCOMERS} into one fresh room per call).
   */
  @Benchmark
  @OperationsPerInvocation(NEWCOMERS)
  public void newArrival(FullRoom full, Blackhole sink) {
    WaitingRoom r = full.room;
    for (int i = 0; i < NEWCOMERS; i++) {
      sink.consume(r.decide(null));
    }
  }

  /**
   * What reading the production clock costs per decision ({@code InstantSource.system()}, which
   * {@link WaitingRoom} uses unless told otherwise); the benchmarks above use a still clock.
   */
  @Benchmark
  public long systemClockSecond() {
    return InstantSource.system().instant().getEpochSecond();
  }
}
