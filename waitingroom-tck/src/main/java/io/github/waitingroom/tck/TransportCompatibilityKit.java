package io.github.waitingroom.tck;

import static io.github.waitingroom.tck.Answers.clock;
import static io.github.waitingroom.tck.Answers.in;
import static io.github.waitingroom.tck.Answers.pub;
import static io.github.waitingroom.tck.Answers.scopes;
import static io.github.waitingroom.tck.Answers.text;
import static io.github.waitingroom.tck.Answers.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.coordinator.Transport.Publication;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/**
 * The {@link Transport} contract as JUnit 5 tests. Extend it and say how to reach your store:
 *
 * <pre>{@code
 * class MyTransportTest extends TransportCompatibilityKit {
 *   @Override protected Transport transport() { return new MyTransport(dataSource); }
 *   @Override protected void elapse(Duration d) { clock.advance(d); }   // optional
 *   @Override protected InstantSource storeClock() { return clock; }    // if not the system clock
 * }
 * }</pre>
 *
 * <p>Every test uses fresh room ids (see {@link #roomId}), so runs never see each other's values
 * even when they share one store. Transports this kit obtained are closed after each test if they
 * are {@link AutoCloseable}.
 *
 * <p>What it checks: values come back byte for byte; every publisher of a named scope is answered,
 * including the caller; a publisher's new value replaces its old one; only the named scopes are
 * answered; rooms, scopes and publishers never mix, whatever characters their names hold; large
 * and empty payloads survive; answers are copies; values expire after their retention, never
 * before, and republishing renews them; concurrent nodes lose nothing; an unreachable store throws
 * {@link IOException} in bounded time.
 *
 * <p><b>The store's clock</b> ({@link Transport#CLOCK_SCOPE}), which nodes keep the room's time
 * by, is checked in every answer of every test to a call that publishes anything: it must be
 * there, 8 bytes of epoch milliseconds under publisher {@code "now"}; never behind the clock of an
 * answer to a call (of the same room) that ended before this call began; and within {@link
 * #storeClockTolerance()} of the time {@link #storeClock()} tells around the call, so that it
 * follows the store's time (a clock in seconds, a constant, or the caller's own clock with a
 * store that keeps another fails). A node refuses a transport that breaks this.
 *
 * <p>This class holds the tests and what a subclass says about its store; the clock check that
 * wraps each node's transport is {@code StoreClockCheck}, and the reading of answers {@code Answers}.
 */
public abstract class TransportCompatibilityKit {
  private final Set<Object> opened = Collections.newSetFromMap(new IdentityHashMap<>());
  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private final StoreClockCheck clockCheck = new StoreClockCheck(this);

  /** For subclasses. */
  protected TransportCompatibilityKit() {}

  /**
   * A node's transport to the store under test. Each call stands for another node of the same
   * store; returning the same instance every time is fine for an in-process store, a transport
   * over the network should open a new connection so that the kit exercises several clients.
   */
  protected abstract Transport transport() throws Exception;

  /**
   * Makes the store behave as if {@code time} had passed: advance the clock the store expires
   * values by (an injected clock, or the stored expiry times). The default aborts the expiry tests
   * with a message, for a store whose time cannot be moved from a test.
   */
  protected void elapse(Duration time) throws Exception {
    throw new TestAbortedException(
        getClass().getSimpleName() + " cannot move the store's time: the expiry tests are skipped");
  }

  /**
   * A transport to a store that does not answer (a closed port, a paused proxy), or {@code null}
   * (the default) when there is no such thing, which skips the failure test.
   */
  protected @Nullable Transport unreachableTransport() throws Exception {
    return null;
  }

  /**
   * The clock the store under test keeps time by, as this test can read it: the time every
   * answer's store clock must be close to. The default, the system clock, fits a store on a
   * server whose clock is synchronized with this machine's (NTP); a store on an injected clock
   * (the one {@link #elapse} moves) returns that clock.
   */
  protected InstantSource storeClock() {
    return InstantSource.system();
  }

  /**
   * How far an answer's store clock may be from {@link #storeClock()} around the call. Default: 2
   * seconds, for a store server whose clock is synchronized with this machine's.
   */
  protected Duration storeClockTolerance() {
    return Duration.ofSeconds(2);
  }

  /** A room id unique to this test run, derived from {@code name}. */
  protected final String roomId(String name) {
    return "tck-" + name + "-" + run;
  }

  private Transport node() throws Exception {
    Transport t = transport();
    opened.add(t);
    return clockCheck.wrap(t);
  }

  /** Closes every transport the kit obtained, if it can be closed. */
  @AfterEach
  void closeTransports() throws Exception {
    for (Object t : opened) {
      if (t instanceof AutoCloseable c) {
        c.close();
      }
    }
    opened.clear();
  }

  private static final Duration MINUTE = Duration.ofMinutes(1);

  @Test
  void answersWithTheValueJustPublishedByteForByte() throws Exception {
    byte[] payload = new byte[512];
    for (int i = 0; i < payload.length; i++) {
      payload[i] = (byte) i;
    }
    Map<String, Map<String, byte[]>> answer =
        node().exchange(roomId("bytes"), List.of(new Publication("dc:a", "n1", payload)), MINUTE);
    assertThat(scopes(answer)).containsOnlyKeys("dc:a");
    assertThat(in(answer, "dc:a")).containsOnlyKeys("n1");
    assertThat(value(answer, "dc:a", "n1")).isEqualTo(payload);
  }

  @Test
  void answersEveryPublisherOfTheScope() throws Exception {
    String room = roomId("publishers");
    Transport a = node();
    Transport b = node();
    a.exchange(room, List.of(pub("dc:a", "n1", "one")), MINUTE);
    b.exchange(room, List.of(pub("dc:a", "n2", "two")), MINUTE);
    Map<String, Map<String, byte[]>> answer = a.exchange(room, List.of(pub("dc:a", "n3", "three")), MINUTE);
    assertThat(text(answer, "dc:a")).isEqualTo(Map.of("n1", "one", "n2", "two", "n3", "three"));
  }

  @Test
  void aNewValueReplacesThePublishersOldOne() throws Exception {
    String room = roomId("replace");
    Transport a = node();
    a.exchange(room, List.of(pub("dc:a", "n1", "old")), MINUTE);
    a.exchange(room, List.of(pub("dc:a", "n2", "other")), MINUTE);
    Map<String, Map<String, byte[]>> answer = node().exchange(room, List.of(pub("dc:a", "n1", "new")), MINUTE);
    assertThat(text(answer, "dc:a")).isEqualTo(Map.of("n1", "new", "n2", "other"));
  }

  @Test
  void answersOnlyTheNamedScopesAndAllOfThemInOneCall() throws Exception {
    String room = roomId("scopes");
    Transport a = node();
    a.exchange(room, List.of(pub("dc:b", "n9", "elsewhere")), MINUTE);
    Map<String, Map<String, byte[]>> answer =
        a.exchange(room, List.of(pub("dc:a", "n1", "node"), pub("global", "a", "dc sum")), MINUTE);
    assertThat(scopes(answer)).containsOnlyKeys("dc:a", "global");
    assertThat(text(answer, "dc:a")).isEqualTo(Map.of("n1", "node"));
    assertThat(text(answer, "global")).isEqualTo(Map.of("a", "dc sum"));
  }

  @Test
  void roomsNeverSeeEachOther() throws Exception {
    Transport a = node();
    a.exchange(roomId("room-1"), List.of(pub("global", "a", "first room")), MINUTE);
    Map<String, Map<String, byte[]>> answer =
        node().exchange(roomId("room-2"), List.of(pub("global", "b", "second room")), MINUTE);
    assertThat(text(answer, "global")).isEqualTo(Map.of("b", "second room"));
  }

  @Test
  void namesWithSeparatorsBracesAndUnicodeStayApart() throws Exception {
    String room = roomId("names");
    Transport a = node();
    a.exchange(room, List.of(pub("a:b", "c", "scope a:b")), MINUTE);
    a.exchange(room, List.of(pub("a", "b:c", "scope a")), MINUTE);
    a.exchange(room, List.of(pub("{x}", "}{", "braces")), MINUTE);
    Map<String, Map<String, byte[]>> answer =
        node()
            .exchange(
                room,
                List.of(pub("a:b", "c", "scope a:b"), pub("a", "b:c", "scope a"), pub("{x}", "東京 ß", "unicode")),
                MINUTE);
    assertThat(text(answer, "a:b")).isEqualTo(Map.of("c", "scope a:b"));
    assertThat(text(answer, "a")).isEqualTo(Map.of("b:c", "scope a"));
    assertThat(text(answer, "{x}")).isEqualTo(Map.of("}{", "braces", "東京 ß", "unicode"));
  }

  @Test
  void largeAndEmptyPayloadsSurvive() throws Exception {
    byte[] large = new byte[1 << 20];
    new Random(42).nextBytes(large);
    String room = roomId("sizes");
    node().exchange(room, List.of(new Publication("dc:a", "large", large)), MINUTE);
    Map<String, Map<String, byte[]>> answer =
        node().exchange(room, List.of(new Publication("dc:a", "empty", new byte[0])), MINUTE);
    assertThat(in(answer, "dc:a")).containsOnlyKeys("large", "empty");
    assertThat(value(answer, "dc:a", "large")).isEqualTo(large);
    assertThat(value(answer, "dc:a", "empty")).isEmpty();
  }

  @Test
  void storesAndAnswersCopies() throws Exception {
    String room = roomId("copies");
    Transport a = node();
    byte[] payload = "original".getBytes(StandardCharsets.UTF_8);
    Map<String, Map<String, byte[]>> first =
        a.exchange(room, List.of(new Publication("dc:a", "n1", payload)), MINUTE);
    payload[0] = 'X';
    value(first, "dc:a", "n1")[1] = 'X';
    Map<String, Map<String, byte[]>> second = a.exchange(room, List.of(pub("dc:a", "n2", "other")), MINUTE);
    assertThat(text(second, "dc:a")).containsEntry("n1", "original");
  }

  @Test
  void noPublicationsMeansAnEmptyAnswer() throws Exception {
    assertThat(scopes(node().exchange(roomId("nothing"), List.of(), MINUTE))).isEmpty();
  }

  @Test
  void everyAnswerCarriesTheStoresClockWhichFollowsTheStoresTime() throws Exception {
    String room = roomId("clock");
    Transport a = node();
    Transport b = node();
    long first = clock(a.exchange(room, List.of(pub("dc:a", "n1", "x")), MINUTE));
    long second = clock(b.exchange(room, List.of(pub("dc:a", "n2", "x")), MINUTE));
    try {
      elapse(Duration.ofSeconds(2)); // every answer is checked against storeClock(), which may move with it
    } catch (TestAbortedException e) {
      // a store whose time cannot be moved: its clock is checked as it runs
    }
    long third = clock(a.exchange(room, List.of(pub("global", "a", "y")), MINUTE));
    assertThat(first).as("epoch milliseconds of this century").isBetween(946_684_800_000L, 4_102_444_800_000L);
    assertThat(second).as("never back, whichever node asks").isGreaterThanOrEqualTo(first);
    assertThat(third).as("never back, whichever scope is named").isGreaterThanOrEqualTo(second);
  }

  @Test
  void aValueLivesForItsRetentionThenDisappearsByItself() throws Exception {
    String room = roomId("expiry");
    Transport a = node();
    a.exchange(room, List.of(pub("dc:a", "gone", "stops publishing")), Duration.ofSeconds(10));
    elapse(Duration.ofSeconds(9));
    Map<String, Map<String, byte[]>> answer =
        a.exchange(room, List.of(pub("dc:a", "alive", "keeps publishing")), Duration.ofSeconds(10));
    assertThat(text(answer, "dc:a"))
        .as("a value must never expire before its retention")
        .containsOnlyKeys("gone", "alive");
    elapse(Duration.ofSeconds(3));
    answer = a.exchange(room, List.of(pub("dc:a", "alive", "keeps publishing")), Duration.ofSeconds(10));
    assertThat(text(answer, "dc:a"))
        .as("a value must be gone a couple of seconds after its retention")
        .containsOnlyKeys("alive");
  }

  @Test
  void republishingRenewsTheRetention() throws Exception {
    String room = roomId("renew");
    Transport a = node();
    a.exchange(room, List.of(pub("dc:a", "n1", "v1")), Duration.ofSeconds(10));
    elapse(Duration.ofSeconds(8));
    a.exchange(room, List.of(pub("dc:a", "n1", "v2")), Duration.ofSeconds(10));
    elapse(Duration.ofSeconds(8));
    Map<String, Map<String, byte[]>> answer =
        node().exchange(room, List.of(pub("dc:a", "n2", "x")), Duration.ofSeconds(10));
    assertThat(text(answer, "dc:a")).isEqualTo(Map.of("n1", "v2", "n2", "x"));
  }

  @Test
  void eachValueKeepsTheRetentionItWasPublishedWith() throws Exception {
    String room = roomId("retentions");
    Transport a = node();
    a.exchange(room, List.of(pub("global", "long", "l")), Duration.ofSeconds(60));
    a.exchange(room, List.of(pub("global", "short", "s")), Duration.ofSeconds(5));
    elapse(Duration.ofSeconds(8));
    Map<String, Map<String, byte[]>> answer =
        a.exchange(room, List.of(pub("global", "probe", "p")), Duration.ofSeconds(5));
    assertThat(text(answer, "global")).containsOnlyKeys("long", "probe");
  }

  @Test
  void concurrentNodesLoseNothing() throws Exception {
    String room = roomId("concurrent");
    int nodes = 8;
    int rounds = 25;
    List<Transport> transports = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      transports.add(node());
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int i = 0; i < nodes; i++) {
        int n = i;
        done.add(
            pool.submit(
                () -> {
                  for (int r = 0; r < rounds; r++) {
                    Map<String, Map<String, byte[]>> answer =
                        transports.get(n).exchange(
                            room,
                            List.of(pub("dc:a", "n" + n, "round " + r), pub("global", "dc-" + n, "round " + r)),
                            MINUTE);
                    assertThat(text(answer, "dc:a")).containsEntry("n" + n, "round " + r);
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get(2, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    Map<String, Map<String, byte[]>> answer =
        node().exchange(room, List.of(pub("dc:a", "observer", "-")), MINUTE);
    Map<String, String> expected = new TreeMap<>();
    for (int i = 0; i < nodes; i++) {
      expected.put("n" + i, "round " + (rounds - 1));
    }
    expected.put("observer", "-");
    assertThat(text(answer, "dc:a")).isEqualTo(expected);
  }

  @Test
  void anUnreachableStoreThrowsIoExceptionInBoundedTime() throws Exception {
    Transport t = unreachableTransport();
    if (t == null) {
      Assumptions.abort(getClass().getSimpleName() + " offers no unreachable store: skipped");
      return;
    }
    opened.add(t);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<?> call = pool.submit(() -> t.exchange(roomId("down"), List.of(pub("dc:a", "n1", "x")), MINUTE));
      // Generous on purpose: the point is that the call returns at all, not how fast.
      assertThatThrownBy(() -> call.get(2, TimeUnit.MINUTES))
          .hasCauseInstanceOf(IOException.class);
    } finally {
      pool.shutdownNow();
    }
  }
}
