package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.Transport;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Issue 42: whoever can write to the store but holds no keys cannot roll a room's settings back.
 * Sealed settings documents open on every node, an old one too: such a writer can delete the
 * current one and write an old one back, and a node that starts meanwhile reads only the old one.
 * Every report carries the highest settings version its publisher holds, so the starting node
 * knows that the room runs a newer one, and plans nothing until it reads it.
 */
class SettingsRollbackTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private static final String V1 = LiveSettings.NAME + 1;
  private static final String V2 = LiveSettings.NAME + 2;

  @Test
  void aNodeThatReadsAnOldSettingsDocumentPlansNothingUntilItReadsTheRoomsVersion() throws Exception {
    RoomConfig config = RoomConfig.builder("rollback").totalActiveUsers(20).newUsersPerMinute(20)
        .sessionDuration(Duration.ofMinutes(1)).build();
    Cluster c = new Cluster(config, KEYS);
    // What the store held of each settings document, sealed, as the writer could copy it.
    Map<String, byte[]> sealed = new ConcurrentHashMap<>();
    Transport recording = (room, publications, retention) -> {
      Map<String, Map<String, byte[]>> answer = c.store.exchange(room, publications, retention);
      answer.getOrDefault(Coordinator.GLOBAL_SCOPE, Map.of()).forEach((name, bytes) -> {
        if (name.startsWith(LiveSettings.NAME)) {
          sealed.putIfAbsent(name, bytes);
        }
      });
      return answer;
    };
    WaitingRoom a = c.add("eu", "a", recording);
    WaitingRoom b = c.add("eu", "b", recording);
    c.warmUp();
    a.updateSettings(RoomSettings.fromJson("{\"totalActiveUsers\": 20}", a.latestSettings()));
    c.advance(Duration.ofSeconds(5));
    // Version 2 closes the room: everyone who comes queues.
    a.updateSettings(RoomSettings.fromJson("{\"queueAll\": true}", a.latestSettings()));
    c.advance(Duration.ofSeconds(5));
    assertThat(b.settings().version()).isEqualTo(2);
    assertThat(sealed).containsKeys(V1, V2);

    // The writer deletes version 2 and writes version 1 back, in every answer the new node gets.
    boolean[] on = {true};
    Transport rolledBack = (room, publications, retention) -> {
      Map<String, Map<String, byte[]>> answer = c.store.exchange(room, publications, retention);
      if (!on[0]) {
        return answer;
      }
      Map<String, Map<String, byte[]>> out = new HashMap<>(answer);
      Map<String, byte[]> global = new HashMap<>(answer.getOrDefault(Coordinator.GLOBAL_SCOPE, Map.of()));
      global.remove(V2);
      global.put(V1, sealed.get(V1));
      out.put(Coordinator.GLOBAL_SCOPE, global);
      return out;
    };
    WaitingRoom late = c.add("eu", "late", rolledBack);
    int admitted = 0;
    for (int s = 0; s < 60; s++) {
      for (WaitingRoom n : new WaitingRoom[] {a, b, late}) {
        if (n.decide(null).outcome() == Decision.Outcome.ADMIT) {
          admitted++;
        }
      }
      c.advance(Duration.ofSeconds(1));
    }
    assertThat(late.settings().version()).as("the settings the late node read").isEqualTo(1);
    // Planning by version 1, the late node would let newcomers in while the room queues everyone.
    assertThat(admitted).as("newcomers let in within a minute by a room that queues everyone").isZero();

    // The writer stops: the late node reads version 2 and plans with the room again.
    on[0] = false;
    c.advance(Duration.ofSeconds(10));
    assertThat(late.settings().version()).isEqualTo(2);
    assertThat(late.status().plansStalled()).isFalse();
  }
}
