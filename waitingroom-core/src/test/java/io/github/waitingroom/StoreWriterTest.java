package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.InMemoryTransport;
import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 42: whoever can write to the store but holds no keys can delay admissions, never push the
 * room past its limits. Before, each node republished the others' remembered reports, saw them
 * silent, forgot them after the retention and planned as the room's only node: 20 active at once
 * against a limit of 5, either attack. Now a value that leaves the store before its time stops the
 * plans (no epoch is settled, as with a report that does not decode) until it is back. Here the writer works between every node's write and its read: each node
 * reads the other publishers' values deleted, or overwritten with bytes that do not open, for a
 * while; the nodes keep letting newcomers in wherever they can.
 */
class StoreWriterTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  enum Attack { DELETE, OVERWRITE }

  /** The store as a node reads it while the writer attacks: every other publisher's value gone or garbled. */
  private static Transport attacked(Transport store, Attack attack, boolean[] on) {
    return (room, publications, retention) -> {
      Map<String, Map<String, byte[]>> answer = store.exchange(room, publications, retention);
      if (!on[0]) {
        return answer;
      }
      Map<String, Map<String, byte[]>> out = new HashMap<>();
      answer.forEach((scope, values) -> {
        if (scope.equals(Transport.CLOCK_SCOPE)) {
          out.put(scope, values);
          return;
        }
        Map<String, byte[]> kept = new HashMap<>();
        values.forEach((who, bytes) -> {
          boolean mine = publications.stream().anyMatch(p -> p.scope().equals(scope) && p.publisher().equals(who));
          if (mine || who.startsWith(Coordinator.DOCUMENT)) {
            kept.put(who, bytes);
          } else if (attack == Attack.OVERWRITE) {
            kept.put(who, "not sealed".getBytes(StandardCharsets.US_ASCII));
          }
        });
        out.put(scope, kept);
      });
      return out;
    };
  }

  @ParameterizedTest
  @EnumSource(Attack.class)
  void aWriterWithoutTheKeysNeverPushesTheRoomPastItsLimit(Attack attack) throws IOException {
    // Reports are kept for two minutes (sessions of one, places for 30 s): the attack lasts five times that.
    RoomConfig config = RoomConfig.builder("writer").totalActiveUsers(5).newUsersPerMinute(5)
        .sessionDuration(Duration.ofMinutes(1)).refreshInterval(Duration.ofSeconds(5))
        .waitingTimeout(Duration.ofSeconds(30)).build();
    Cluster c = new Cluster(config, KEYS);
    boolean[] on = {false};
    List<WaitingRoom> nodes = new ArrayList<>();
    for (String id : List.of("a", "b", "c", "d")) {
      nodes.add(c.add(id.compareTo("b") <= 0 ? "eu" : "us", id, attacked(c.store, attack, on)));
    }
    c.warmUp();
    on[0] = true;
    Traffic traffic = new Traffic(c, config, 0);
    int peak = traffic.run(nodes, 600);
    System.out.printf("%s: %d active at most in 10 minutes of attack, %d waiting; %s%n", attack, peak, traffic.waiting(),
        nodes.get(0).status());
    assertThat(peak).as("users active at once during 10 minutes of attack").isLessThanOrEqualTo(5);
    // The writer stops: within seconds every value is back and the nodes plan together again.
    on[0] = false;
    c.advance(Duration.ofSeconds(10));
    for (WaitingRoom n : nodes) {
      assertThat(n.transportFailing()).as("%s failing after the attack", n.nodeId()).isFalse();
      assertThat(n.status().plansStalled()).as("%s plans stalled after the attack", n.nodeId()).isFalse();
      assertThat(n.status().roomNodes()).as("%s sees the room", n.nodeId()).isEqualTo(4);
    }
  }

  /**
   * The store as a node that the writer hides from the others reads it: everything, but what the
   * node writes lands where only it reads it, as if the writer deleted each of its values (or wrote
   * the value before it back) before anyone else read them.
   */
  private static Transport hidden(Cluster c, boolean[] on) {
    InMemoryTransport shadow = new InMemoryTransport(c.storeClock);
    return (room, publications, retention) -> {
      if (!on[0]) {
        return c.store.exchange(room, publications, retention);
      }
      Map<String, Map<String, byte[]>> own = shadow.exchange(room, publications, retention);
      List<Transport.Publication> reads = publications.stream().map(Transport.Publication::scope).distinct()
          .map(scope -> new Transport.Publication(scope, "", new byte[0])).toList();
      Map<String, Map<String, byte[]>> answer = new HashMap<>(c.store.exchange(room, reads, retention));
      own.forEach((scope, values) -> {
        if (!scope.equals(Transport.CLOCK_SCOPE)) {
          Map<String, byte[]> merged = new HashMap<>(answer.getOrDefault(scope, Map.of()));
          merged.putAll(values);
          answer.put(scope, merged);
        }
      });
      return answer;
    };
  }

  /**
   * A node the others never see: from the moment it joins, the writer deletes what it writes
   * before anyone else reads it, while it reads everyone. It joins a data center of the others
   * ({@code eu}) or one of its own ({@code ap}). Before reports said whom they counted, it planned
   * with every node's tallies and took its share of the slots, while the others planned without it
   * and took theirs: 7 active at once against a limit of 5 (in {@code eu}). Now it sees that the
   * others count other publishers than it does (not itself) and plans nothing; once the writer
   * stops, the others count it and it plans with them.
   */
  @ParameterizedTest
  @ValueSource(strings = {"eu", "ap"})
  void aNodeTheOthersCannotSeeGrantsNothing(String dataCenter) {
    RoomConfig config = RoomConfig.builder("unseen").totalActiveUsers(5).newUsersPerMinute(5)
        .sessionDuration(Duration.ofMinutes(1)).refreshInterval(Duration.ofSeconds(5))
        .waitingTimeout(Duration.ofSeconds(30)).build();
    Cluster c = new Cluster(config, KEYS);
    List<WaitingRoom> nodes = new ArrayList<>();
    for (String id : List.of("a", "b", "c")) {
      nodes.add(c.add(id.equals("c") ? "us" : "eu", id));
    }
    c.warmUp();
    boolean[] on = {true};
    WaitingRoom unseen = c.add(dataCenter, "v", hidden(c, on));
    nodes.add(unseen);
    Traffic traffic = new Traffic(c, config, 30);
    String log = Logs.during(() -> {
      c.warmUp();
      traffic.run(nodes, 300);
    });
    System.out.printf("hidden node in %s: %d active at most in 5 minutes, %d waiting; %s%n", dataCenter, traffic.peak,
        traffic.waiting(), unseen.status());
    assertThat(traffic.peak).as("users active at once while one node is hidden").isLessThanOrEqualTo(5);
    assertThat(unseen.status().planEpoch()).as("the hidden node's plans").isEqualTo(Long.MIN_VALUE);
    assertThat(nodes.get(0).status().nodeShares()).as("the nodes of eu that a counts").hasSize(2);
    assertThat(nodes.get(0).status().dataCenters()).as("the data centers a counts").hasSize(2);
    assertThat(log).containsOnlyOnce("other publishers count other nodes or data centers than this node");
    // The writer stops: the others count the node, and within seconds it plans with them.
    on[0] = false;
    traffic.peak = 0;
    traffic.run(nodes, 30);
    assertThat(traffic.peak).as("users active at once after the attack").isLessThanOrEqualTo(5);
    for (WaitingRoom n : nodes) {
      RoomStatus s = n.status();
      assertThat(s.plansStalled()).as("%s plans stalled after the attack", n.nodeId()).isFalse();
      assertThat(s.planEpoch()).as("%s plans", n.nodeId()).isEqualTo(unseen.status().planEpoch());
      assertThat(s.dataCenters()).as("the data centers %s counts", n.nodeId()).hasSize(dataCenter.equals("eu") ? 2 : 3);
      int inDataCenter = n == nodes.get(2) ? 1 : dataCenter.equals("eu") ? 3 : n == unseen ? 1 : 2;
      assertThat(s.nodeShares()).as("the nodes of its data center %s counts", n.nodeId()).hasSize(inDataCenter);
    }
  }

  /**
   * Newcomers every 5 s on each node, who wait as told on the node they came to; everyone let in
   * clicks every 10 s on the node that let them in, for {@code stay} seconds (for good if 0), and
   * counts as active until a session after their last click.
   */
  private static final class Traffic {
    private final Cluster c;
    private final long stay;
    private final long session;
    private final List<String> active = new ArrayList<>();
    private final List<WaitingRoom> at = new ArrayList<>();
    private final List<Long> admitted = new ArrayList<>();
    private final List<Long> lastClick = new ArrayList<>();
    /** The last clicks of those who left, while their sessions run. */
    private final List<Long> left = new ArrayList<>();
    private final List<String> waiting = new ArrayList<>();
    private final List<WaitingRoom> waitingAt = new ArrayList<>();
    private final List<Long> nextPoll = new ArrayList<>();
    private long second;
    int peak;

    Traffic(Cluster c, RoomConfig config, long stay) {
      this.c = c;
      this.stay = stay;
      this.session = config.sessionSeconds();
    }

    int waiting() {
      return waiting.size();
    }

    /** Runs {@code seconds} more; the most users active at once so far. */
    int run(List<WaitingRoom> nodes, int seconds) {
      for (long end = second + seconds; second < end; second++) {
        long s = second;
        for (WaitingRoom n : nodes) {
          if (s % 5 == 0) {
            waiting.add(null);
            waitingAt.add(n);
            nextPoll.add(s);
          }
        }
        for (int i = 0; i < waiting.size(); i++) {
          if (nextPoll.get(i) > s) {
            continue;
          }
          Decision d = waitingAt.get(i).decide(waiting.get(i));
          if (d.letsThrough()) {
            active.add(d.ticket());
            at.add(waitingAt.get(i));
            admitted.add(s);
            lastClick.add(s);
            waiting.remove(i);
            waitingAt.remove(i);
            nextPoll.remove(i);
            i--;
          } else {
            waiting.set(i, d.ticket() != null ? d.ticket() : waiting.get(i));
            nextPoll.set(i, s + (long) Math.max(1, d.refreshSeconds()));
          }
        }
        left.removeIf(last -> last + session <= s);
        peak = Math.max(peak, active.size() + left.size());
        for (int i = 0; i < active.size(); i++) {
          if (stay > 0 && s - admitted.get(i) >= stay) {
            left.add(lastClick.get(i));
            active.remove(i);
            at.remove(i);
            admitted.remove(i);
            lastClick.remove(i);
            i--;
          } else if (s % 10 == 0) {
            Decision d = at.get(i).decide(active.get(i));
            assertThat(d.letsThrough()).as("an active user clicking").isTrue();
            lastClick.set(i, s);
            if (d.ticket() != null) {
              active.set(i, d.ticket());
            }
          }
        }
        c.advance(Duration.ofSeconds(1));
      }
      return peak;
    }
  }
}
