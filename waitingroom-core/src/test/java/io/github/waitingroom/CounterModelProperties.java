package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.allocation.BucketState;
import io.github.waitingroom.allocation.RoomView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jspecify.annotations.Nullable;

/**
 * The windowed, per-slice counters behind a room must equal a naive model that remembers every
 * user's own timestamps, at every instant of generated arrival / check-in / abandon sequences.
 */
class CounterModelProperties {
  private static final RoomConfig CONFIG =
      RoomConfig.builder("model")
          .totalActiveUsers(5)
          .newUsersPerMinute(4)
          .sessionDuration(Duration.ofSeconds(60))
          .bucketWidth(Duration.ofSeconds(60))
          .sliceWidth(Duration.ofSeconds(10))
          .refreshInterval(Duration.ofSeconds(10))
          .waitingTimeout(Duration.ofSeconds(40))
          .build();

  enum Kind { ARRIVE, REQUEST, ABANDON }

  record Action(Kind kind, int user, int advanceSeconds) {}

  /** One user as the naive model sees them: their own times, no slices. */
  static final class User {
    @Nullable String ticket;
    boolean active;
    boolean abandoned;
    long bucket;
    long lastSeen = Long.MIN_VALUE / 2;

    boolean countsActive(long now) {
      return active && now < CONFIG.sliceOf(lastSeen) + CONFIG.sliceSeconds() + CONFIG.sessionSeconds();
    }

    boolean countsWaiting(long now) {
      return !active && ticket != null
          && now < CONFIG.sliceOf(lastSeen) + CONFIG.sliceSeconds() + CONFIG.waitingTimeoutSeconds();
    }
  }

  @Provide
  Arbitrary<List<Action>> actions() {
    Arbitrary<Action> action =
        Combinators.combine(
                Arbitraries.frequencyOf(
                    net.jqwik.api.Tuple.of(3, Arbitraries.just(Kind.ARRIVE)),
                    net.jqwik.api.Tuple.of(8, Arbitraries.just(Kind.REQUEST)),
                    net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.ABANDON))),
                Arbitraries.integers().between(0, 40),
                Arbitraries.frequencyOf(
                    net.jqwik.api.Tuple.of(6, Arbitraries.integers().between(0, 3)),
                    net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(4, 15)),
                    net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(16, 90))))
            .as(Action::new);
    return action.list().ofMinSize(1).ofMaxSize(120);
  }

  @Property(tries = 300)
  void countersEqualTheNaiveModelAtEveryInstant(@ForAll("actions") List<Action> actions) {
    ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:03Z"));
    WaitingRoom room =
        WaitingRoom.builder(CONFIG, TicketKeys.generate()).clock(clock).backgroundSync(false).build();
    List<User> users = new ArrayList<>();
    List<Long> admissions = new ArrayList<>();
    for (Action a : actions) {
      long now = clock.advance(Duration.ofSeconds(a.advanceSeconds())).getEpochSecond();
      if (a.kind() == Kind.ARRIVE || users.isEmpty()) {
        User u = new User();
        users.add(u);
        apply(u, room.decide(null), now, admissions);
      } else {
        User u = users.get(a.user() % users.size());
        if (a.kind() == Kind.ABANDON) {
          u.abandoned = true;
        } else if (!u.abandoned) {
          apply(u, room.decide(u.ticket), now, admissions);
        }
      }
      room.sync();
      check(room.view(), users, admissions, now);
    }
  }

  private static void apply(User u, Decision d, long now, List<Long> admissions) {
    boolean wasActive = u.countsActive(now);
    boolean wasWaiting = u.countsWaiting(now);
    switch (d.outcome()) {
      case PASS -> assertThat(wasActive).as("only a live session passes").isTrue();
      case WAIT -> assertThat(wasWaiting).as("only a live place keeps waiting").isTrue();
      case QUEUE -> {
        assertThat(wasActive || wasWaiting).as("a live ticket is never queued anew").isFalse();
        u.bucket = CONFIG.bucketOf(now);
      }
      case ADMIT -> {
        assertThat(wasActive).as("an active user is not admitted twice").isFalse();
        admissions.add(now);
      }
    }
    u.active = d.letsThrough();
    u.lastSeen = now;
    if (d.ticket() != null) {
      u.ticket = d.ticket();
    }
  }

  private static void check(RoomView view, List<User> users, List<Long> admissions, long now) {
    long active = users.stream().filter(u -> u.countsActive(now)).count();
    Map<Long, Long> waiting = new TreeMap<>();
    users.stream().filter(u -> u.countsWaiting(now)).forEach(u -> waiting.merge(u.bucket, 1L, Long::sum));
    // Admissions in the last 60 s, those of the slice that straddles its start by the part inside.
    long oldest = CONFIG.sliceOf(now - 60);
    double part = (oldest + CONFIG.sliceSeconds() - (now - 60)) / (double) CONFIG.sliceSeconds();
    double weighted = 0;
    for (long t : admissions) {
      long slice = CONFIG.sliceOf(t);
      weighted += slice > oldest && t <= now ? 1 : slice == oldest ? part : 0;
    }
    long lastMinute = (long) Math.ceil(weighted - 1e-9);

    assertThat(view.activeUsers()).as("active users at %d", now).isEqualTo(active);
    Map<Long, Long> counted = new TreeMap<>();
    for (BucketState b : view.buckets()) {
      counted.put(b.bucketId(), b.waiting());
    }
    assertThat(counted).as("waiting users by bucket at %d", now).isEqualTo(waiting);
    assertThat(view.admittedLastMinute()).as("admitted in the last minute at %d", now).isEqualTo(lastMinute);
    assertThat(active).as("never more active than the limit").isLessThanOrEqualTo(CONFIG.totalActiveUsers());
  }
}
