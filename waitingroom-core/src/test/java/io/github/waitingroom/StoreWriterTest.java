package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.coordinator.Coordinator;
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
    // Everyone let in stays: each clicks every 10 s on the node that let it in.
    // Newcomers wait as told, on the node they came to.
    List<String> active = new ArrayList<>();
    List<WaitingRoom> at = new ArrayList<>();
    List<String> waiting = new ArrayList<>();
    List<WaitingRoom> waitingAt = new ArrayList<>();
    List<Long> nextPoll = new ArrayList<>();
    int peak = 0;
    for (int s = 0; s < 600; s++) {
      for (WaitingRoom n : nodes) {
        if (s % 5 == 0) {
          waiting.add(null);
          waitingAt.add(n);
          nextPoll.add((long) s);
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
          waiting.remove(i);
          waitingAt.remove(i);
          nextPoll.remove(i);
          i--;
        } else {
          waiting.set(i, d.ticket() != null ? d.ticket() : waiting.get(i));
          nextPoll.set(i, s + (long) Math.max(1, d.refreshSeconds()));
        }
      }
      peak = Math.max(peak, active.size());
      if (s % 10 == 0) {
        for (int i = 0; i < active.size(); i++) {
          Decision d = at.get(i).decide(active.get(i));
          assertThat(d.letsThrough()).as("an active user clicking").isTrue();
          if (d.ticket() != null) {
            active.set(i, d.ticket());
          }
        }
      }
      c.advance(Duration.ofSeconds(1));
    }
    System.out.printf("%s: %d active at most in 10 minutes of attack, %d waiting; %s%n", attack, peak, waiting.size(),
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
}
