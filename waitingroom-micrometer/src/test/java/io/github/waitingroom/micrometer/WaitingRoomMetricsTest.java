package io.github.waitingroom.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.Decision;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.InMemoryTransport;
import io.github.waitingroom.coordinator.Transport;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The gauges over a real room on a manual clock, in a real (simple) registry. The room's numbers
 * are chosen to differ from each other where they can, so a gauge that read the wrong field fails.
 */
class WaitingRoomMetricsTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<WaitingRoom> rooms = new ArrayList<>();

  @AfterEach
  void close() {
    rooms.forEach(WaitingRoom::close);
    registry.close();
  }

  private static RoomConfig config(String id, int total, int perMinute) {
    return RoomConfig.builder(id)
        .totalActiveUsers(total)
        .newUsersPerMinute(perMinute)
        .sessionDuration(Duration.ofMinutes(5))
        .refreshInterval(Duration.ofSeconds(10))
        .build();
  }

  private WaitingRoom room(String id, int total, int perMinute) {
    WaitingRoom room = WaitingRoom.builder(config(id, total, perMinute), KEYS).backgroundSync(false).clock(clock).build();
    rooms.add(room);
    return room;
  }

  private double gauge(String name, String... tags) {
    return registry.get(name).tags(tags).gauge().value();
  }

  @Test
  void theGaugesFollowTheRoomThroughAdmissionsTheLineAndSyncs() {
    WaitingRoom room = room("shop", 5, 4);
    new WaitingRoomMetrics(room).bindTo(registry);
    room.sync();

    assertThat(gauge("waitingroom.limit.active.users", "room", "shop")).isEqualTo(5);
    assertThat(gauge("waitingroom.limit.new.users.per.minute", "room", "shop")).isEqualTo(4);
    assertThat(gauge("waitingroom.nodes", "room", "shop")).isEqualTo(1);
    assertThat(gauge("waitingroom.store.failing", "room", "shop")).isZero();
    assertThat(gauge("waitingroom.slots.free", "room", "shop")).isEqualTo(4);

    // Four arrivals take the minute's four slots; three more are put in line.
    List<Decision> line = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      Decision d = room.decide(null);
      if (i < 4) {
        assertThat(d.outcome()).isEqualTo(Decision.Outcome.ADMIT);
      } else {
        assertThat(d.outcome()).isEqualTo(Decision.Outcome.QUEUE);
        line.add(d);
      }
    }
    // Before a sync the node knows its own four users; the room's view is still the last plan's.
    assertThat(gauge("waitingroom.users.active", "room", "shop", "scope", "node")).isEqualTo(4);
    assertThat(gauge("waitingroom.users.active", "room", "shop", "scope", "room")).isZero();
    assertThat(gauge("waitingroom.slots.free", "room", "shop")).isEqualTo(4);

    // The line polls and the node syncs: the plan now counts everyone.
    clock.advance(Duration.ofSeconds(3));
    for (Decision d : line) {
      assertThat(room.decide(d.ticket()).letsThrough()).isFalse();
    }
    room.sync();
    assertThat(gauge("waitingroom.users.active", "room", "shop", "scope", "room")).isEqualTo(4);
    assertThat(gauge("waitingroom.users.active", "room", "shop", "scope", "node")).isEqualTo(4);
    assertThat(gauge("waitingroom.users.waiting", "room", "shop")).isEqualTo(3);
    assertThat(gauge("waitingroom.slots.free", "room", "shop")).isZero();
    assertThat(gauge("waitingroom.admissions.rate", "room", "shop")).isEqualTo(4);

    // More than a minute later, with nobody polling: the four are still active (5-minute
    // sessions), the line has gone, nobody was admitted in the last minute, one slot is free.
    clock.advance(Duration.ofSeconds(70));
    room.sync();
    assertThat(gauge("waitingroom.users.active", "room", "shop", "scope", "room")).isEqualTo(4);
    assertThat(gauge("waitingroom.users.waiting", "room", "shop")).isZero();
    assertThat(gauge("waitingroom.admissions.rate", "room", "shop")).isZero();
    assertThat(gauge("waitingroom.slots.free", "room", "shop")).isEqualTo(1);
    assertThat(gauge("waitingroom.store.failing", "room", "shop")).isZero();
  }

  @Test
  void registersExactlyTheDocumentedMetersAllTaggedWithTheRoomItsDataCenterAndNode() {
    new WaitingRoomMetrics(room("shop", 5, 4)).bindTo(registry);
    List<String> ids = new ArrayList<>();
    for (Meter m : registry.getMeters()) {
      assertThat(m.getId().getTag("room")).isEqualTo("shop");
      assertThat(m.getId().getTag("dc")).isEqualTo("local");
      assertThat(m.getId().getTag("node")).isEqualTo("node");
      assertThat(m.getId().getDescription()).isNotBlank();
      StringBuilder id = new StringBuilder(m.getId().getType() + " " + m.getId().getName());
      for (String key : List.of("scope", "outcome", "from", "reason")) {
        String value = m.getId().getTag(key);
        if (value != null) {
          id.append('{').append(key).append('=').append(value).append('}');
        }
      }
      ids.add(id.toString());
    }
    assertThat(ids)
        .containsExactlyInAnyOrder(
            "GAUGE waitingroom.users.active{scope=room}",
            "GAUGE waitingroom.users.active{scope=node}",
            "GAUGE waitingroom.users.waiting",
            "GAUGE waitingroom.slots.free",
            "GAUGE waitingroom.admissions.rate",
            "GAUGE waitingroom.limit.active.users",
            "GAUGE waitingroom.limit.new.users.per.minute",
            "GAUGE waitingroom.store.failing",
            "GAUGE waitingroom.nodes",
            "GAUGE waitingroom.view.age",
            "GAUGE waitingroom.epoch.length",
            "GAUGE waitingroom.settings.version",
            "COUNTER waitingroom.decisions{outcome=pass}",
            "COUNTER waitingroom.decisions{outcome=admit}",
            "COUNTER waitingroom.decisions{outcome=queue}",
            "COUNTER waitingroom.decisions{outcome=wait}",
            "COUNTER waitingroom.decisions{outcome=challenge}",
            "COUNTER waitingroom.decisions{outcome=reject}",
            "COUNTER waitingroom.decisions{outcome=revoke}",
            "COUNTER waitingroom.arrivals",
            "COUNTER waitingroom.admissions{from=arrival}",
            "COUNTER waitingroom.admissions{from=line}",
            "COUNTER waitingroom.tickets.rejected{reason=expired}",
            "COUNTER waitingroom.tickets.rejected{reason=foreign}",
            "COUNTER waitingroom.tickets.rejected{reason=forged}",
            "COUNTER waitingroom.tickets.rejected{reason=too_fast}",
            "COUNTER waitingroom.tickets.rejected{reason=revoked}",
            "COUNTER waitingroom.wait.unknown",
            "COUNTER waitingroom.sync.failures",
            "COUNTER waitingroom.store.outages",
            "TIMER waitingroom.line.time",
            "TIMER waitingroom.wait.estimated",
            "TIMER waitingroom.sync");
    assertThat(registry.get("waitingroom.users.active").tag("scope", "room").gauge().getId().getBaseUnit()).isEqualTo("users");
  }

  @Test
  void theCountersAndTimersFollowWhatTheNodeDid() {
    WaitingRoom room = room("shop", 1, 1);
    new WaitingRoomMetrics(room).bindTo(registry);
    room.sync();
    Decision in = room.decide(null);
    room.decide(in.ticket());
    Decision waiting = room.decide(null);
    room.decide("forged");
    assertThat(counter("waitingroom.decisions", "outcome", "admit")).isEqualTo(1);
    assertThat(counter("waitingroom.decisions", "outcome", "pass")).as("a pass that changes no ticket counts too").isEqualTo(1);
    assertThat(counter("waitingroom.arrivals")).isEqualTo(3);
    assertThat(counter("waitingroom.admissions", "from", "arrival")).isEqualTo(1);
    assertThat(counter("waitingroom.tickets.rejected", "reason", "forged")).isEqualTo(1);
    // The session of the first ends (5 minutes, as the last request's slice ends); the line polls.
    for (int s = 0; s < 400 && !waiting.letsThrough(); s += 10) {
      clock.advance(Duration.ofSeconds(10));
      room.sync();
      waiting = room.decide(waiting.ticket());
    }
    assertThat(waiting.letsThrough()).isTrue();
    assertThat(counter("waitingroom.admissions", "from", "line")).isEqualTo(1);
    io.micrometer.core.instrument.FunctionTimer line = registry.get("waitingroom.line.time").functionTimer();
    assertThat(line.count()).isEqualTo(1);
    assertThat(line.totalTime(java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(room.metrics().timeInLine().sumSeconds()).isGreaterThan(290);
    assertThat(registry.get("waitingroom.sync").functionTimer().count()).isEqualTo(room.metrics().syncs()).isGreaterThan(30);
    assertThat(gauge("waitingroom.view.age", "room", "shop")).isBetween(0.0, 10.0);
  }

  @Test
  void theEpochLengthShowsARoomStretchingItsEpochsToStayWithinItsStoreBudget() {
    // One node reads 4 x 1 x (1 + 1) = 8 reports a second with epochs of 1 s: a budget of 2
    // stretches them to 4 s.
    WaitingRoom room = WaitingRoom.builder(config("paced", 5, 4), KEYS).backgroundSync(false).clock(clock)
        .storeBudget(2).build();
    rooms.add(room);
    new WaitingRoomMetrics(room).bindTo(registry);
    assertThat(gauge("waitingroom.epoch.length", "room", "paced")).isEqualTo(1.0);
    for (int s = 0; s < 4 * 40; s++) {
      clock.advance(Duration.ofMillis(250));
      room.sync();
    }
    assertThat(gauge("waitingroom.epoch.length", "room", "paced")).isEqualTo(4.0);
  }

  @Test
  void theLimitsAndTheSettingsVersionFollowALiveChange() {
    WaitingRoom room = room("sale", 5, 4);
    new WaitingRoomMetrics(room).bindTo(registry);
    room.updateSettings(io.github.waitingroom.RoomSettings.fromJson(
        "{\"totalActiveUsers\": 9, \"newUsersPerMinute\": 6, \"queueingMethod\": \"reject\"}", room.latestSettings()));
    assertThat(gauge("waitingroom.settings.version", "room", "sale")).isZero();
    for (int s = 0; s < 12; s++) {
      clock.advance(Duration.ofMillis(250));
      room.sync();
    }
    assertThat(gauge("waitingroom.settings.version", "room", "sale")).isEqualTo(1);
    assertThat(gauge("waitingroom.limit.active.users", "room", "sale")).isEqualTo(9);
    assertThat(gauge("waitingroom.limit.new.users.per.minute", "room", "sale")).isEqualTo(6);
    // An adaptive limit whose min is above the settings' 9 starts at 12, and scales the 6 a minute with it.
    room.updateSettings(io.github.waitingroom.RoomSettings.fromJson("{\"adaptiveLimit\": {\"min\": 12, \"max\": 40,"
        + " \"latency\": \"PT1S\", \"scaleNewUsersPerMinute\": true}}", room.latestSettings()));
    for (int s = 0; s < 12; s++) {
      clock.advance(Duration.ofMillis(250));
      room.sync();
    }
    assertThat(gauge("waitingroom.limit.active.users", "room", "sale")).isEqualTo(12);
    assertThat(gauge("waitingroom.limit.new.users.per.minute", "room", "sale")).as("6 * 12 / 9").isEqualTo(8);
    room.decide(null);
    assertThat(counter("waitingroom.decisions", "outcome", "reject")).isEqualTo(1);
  }

  private double counter(String name, String... tags) {
    return registry.get(name).tags(tags).functionCounter().count();
  }

  @Test
  void twoRoomsInOneRegistryAreTwoSetsOfGaugesWithTheirOwnValues() {
    new WaitingRoomMetrics(room("drop", 2, 1)).bindTo(registry);
    new WaitingRoomMetrics(room("shop", 5, 4)).bindTo(registry);
    assertThat(gauge("waitingroom.limit.active.users", "room", "drop")).isEqualTo(2);
    assertThat(gauge("waitingroom.limit.active.users", "room", "shop")).isEqualTo(5);
    assertThat(registry.find("waitingroom.users.waiting").gauges()).hasSize(2);
  }

  @Test
  void extraTagsGoOnEveryMeterButTheRoomTagIsTheRoomsOwn() {
    new WaitingRoomMetrics(room("shop", 5, 4), Tags.of("region", "eu")).bindTo(registry);
    assertThat(registry.getMeters()).isNotEmpty().allSatisfy(m -> assertThat(m.getId().getTag("region")).isEqualTo("eu"));
    assertThat(gauge("waitingroom.limit.active.users", "room", "shop", "region", "eu")).isEqualTo(5);

    WaitingRoom other = room("other", 5, 4);
    for (String own : List.of("room", "dc", "node")) {
      assertThatThrownBy(() -> new WaitingRoomMetrics(other, List.of(Tag.of(own, "x"))))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + own + "'");
    }
  }

  @Test
  void aFailingStoreReadsOneUntilASyncReachesItAgain() throws IOException {
    AtomicBoolean down = new AtomicBoolean();
    InMemoryTransport store = new InMemoryTransport(clock);
    Transport flaky =
        (roomId, publications, retention) -> {
          if (down.get()) {
            throw new IOException("store down");
          }
          return store.exchange(roomId, publications, retention);
        };
    WaitingRoom room =
        WaitingRoom.builder(config("shop", 5, 4), KEYS).backgroundSync(false).clock(clock).transport(flaky).build();
    rooms.add(room);
    new WaitingRoomMetrics(room).bindTo(registry);
    room.sync();
    assertThat(gauge("waitingroom.store.failing", "room", "shop")).isZero();
    down.set(true);
    clock.advance(Duration.ofSeconds(5));
    room.sync();
    assertThat(gauge("waitingroom.store.failing", "room", "shop")).isEqualTo(1);
    down.set(false);
    clock.advance(Duration.ofSeconds(5));
    room.sync();
    assertThat(gauge("waitingroom.store.failing", "room", "shop")).isZero();
  }

  @Test
  void theGaugesKeepTheRoomAndKeepReadingAfterAGarbageCollection() throws InterruptedException {
    // Only the registry holds this room: Micrometer's default weak reference would let it go and
    // the gauges would read NaN.
    WeakReference<WaitingRoom> ref = bindUnreferencedRoom();
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertThat(ref.get()).as("the room, held by its gauges").isNotNull();
    assertThat(gauge("waitingroom.limit.active.users", "room", "gc")).isEqualTo(3);
    assertThat(gauge("waitingroom.users.active", "room", "gc", "scope", "node")).isZero();
    assertThat(gauge("waitingroom.nodes", "room", "gc")).isEqualTo(1);
    assertThat(registry.get("waitingroom.sync").tag("room", "gc").functionTimer().count()).as("held by the gauges: the sync at build and the test's").isEqualTo(2);
  }

  private WeakReference<WaitingRoom> bindUnreferencedRoom() {
    WaitingRoom room = WaitingRoom.builder(config("gc", 3, 2), KEYS).backgroundSync(false).clock(clock).build();
    room.sync();
    new WaitingRoomMetrics(room).bindTo(registry);
    return new WeakReference<>(room);
  }
}
