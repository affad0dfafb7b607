package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.coordinator.InMemoryTransport;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.jspecify.annotations.Nullable;

/**
 * Nodes that sync in lock step (every node sees every other node's latest counts before it
 * spends a budget) never admit more users than the limit, however the users spread over the
 * nodes and data centers.
 */
class LockstepNodesProperties {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  static final class User {
    @Nullable String ticket;
    boolean active;
    long leaveAt;
    long giveUpAt;
    boolean gone;
  }

  @Property(tries = 8)
  void lockstepNodesNeverExceedTheLimit(
      @ForAll @IntRange(min = 1, max = 3) int dataCenters,
      @ForAll @IntRange(min = 1, max = 4) int nodesPerDc,
      @ForAll @IntRange(min = 5, max = 40) int limit,
      @ForAll long seed) {
    ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
    InMemoryTransport transport = new InMemoryTransport(clock);
    RoomConfig config =
        RoomConfig.builder("lockstep")
            .totalActiveUsers(limit)
            .newUsersPerMinute(limit)
            .sessionDuration(Duration.ofSeconds(60))
            .refreshInterval(Duration.ofSeconds(10))
            .build();
    List<WaitingRoom> nodes = new ArrayList<>();
    for (int d = 0; d < dataCenters; d++) {
      for (int n = 0; n < nodesPerDc; n++) {
        nodes.add(
            WaitingRoom.builder(config, KEYS).clock(clock).transport(transport)
                .dataCenter("dc" + d).nodeId("n" + n).backgroundSync(false).build());
      }
    }
    Random random = new Random(seed);
    List<User> users = new ArrayList<>();
    long start = clock.instant().getEpochSecond();
    for (int second = 0; second < 300; second++) {
      long now = start + second;
      if (second % 2 == 0) {
        for (int round = 0; round < 3; round++) {
          nodes.forEach(WaitingRoom::sync);
        }
      }
      int arrivals = random.nextInt(3);
      for (int a = 0; a < arrivals; a++) {
        User u = new User();
        u.giveUpAt = now + 20 + random.nextInt(300);
        users.add(u);
      }
      for (User u : users) {
        if (u.gone) {
          continue;
        }
        if (u.active && now >= u.leaveAt) {
          u.gone = true;
          continue;
        }
        if (!u.active && u.ticket != null && now >= u.giveUpAt) {
          u.gone = true;
          continue;
        }
        boolean due = u.ticket == null || u.active ? random.nextInt(5) == 0 : random.nextInt(10) == 0;
        if (!due) {
          continue;
        }
        WaitingRoom node = nodes.get(random.nextInt(nodes.size()));
        Decision d = node.decide(u.ticket);
        if (d.ticket() != null) {
          u.ticket = d.ticket();
        }
        if (d.letsThrough() && !u.active) {
          u.active = true;
          u.leaveAt = now + 5 + random.nextInt(60);
        }
      }
      clock.advance(Duration.ofSeconds(1));
      long active = countActive(users, config, now + 1);
      assertThat(active).as("active users at second %d", second).isLessThanOrEqualTo(limit);
    }
  }

  /** Users whose last counted check-in still lies within the session, as the room counts them. */
  private static long countActive(List<User> users, RoomConfig config, long now) {
    TicketCodec codec = new TicketCodec(config.roomId(), KEYS);
    long n = 0;
    for (User u : users) {
      Ticket t = u.ticket == null ? null : codec.open(u.ticket, now);
      if (u.active && t != null && t.isActive() && config.sliceOf(t.lastCheckIn()) >= config.firstActiveSlice(now)) {
        n++;
      }
    }
    return n;
  }
}
