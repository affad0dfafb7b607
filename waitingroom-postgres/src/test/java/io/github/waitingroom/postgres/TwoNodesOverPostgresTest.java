package io.github.waitingroom.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.RoomStatus;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two nodes of one room, in two data centers, each with its own transport over the real
 * PostgreSQL, keeping time by the database's clock as in production: a flash crowd on both admits
 * no more than the room's limit between them, and each node soon counts the other's admissions.
 * Syncs run on the test's thread, a quarter epoch apart in real time.
 */
class TwoNodesOverPostgresTest {
  private static final Duration EPOCH = Duration.ofMillis(400);
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private static TestPool pool;
  private static String schema = "";

  @BeforeAll
  static void connect() throws Exception {
    pool = new TestPool(LocalPostgres.require());
    schema = LocalPostgres.createSchema(pool, "nodes");
  }

  @AfterAll
  static void cleanUp() throws Exception {
    if (pool != null) {
      pool.close();
      if (!schema.isEmpty()) {
        LocalPostgres.dropSchema(LocalPostgres.dataSource(), schema);
      }
    }
  }

  private static WaitingRoom node(RoomConfig config, String dataCenter, String id) {
    return WaitingRoom.builder(config, KEYS)
        .transport(PostgresTransport.builder(pool).table(schema + ".waitingroom_values").build())
        .dataCenter(dataCenter)
        .nodeId(id)
        .syncInterval(EPOCH)
        .backgroundSync(false)
        .build();
  }

  private static void syncBoth(List<WaitingRoom> nodes) throws InterruptedException {
    Thread.sleep(EPOCH.toMillis() / 4);
    for (WaitingRoom n : nodes) {
      n.sync();
    }
  }

  @Test
  void twoNodesShareOneRoomsLimitAndEachCountsTheOthersAdmissions() throws Exception {
    RoomConfig config = RoomConfig.builder("two-" + UUID.randomUUID().toString().substring(0, 8))
        .totalActiveUsers(20)
        .newUsersPerMinute(20)
        .sessionDuration(Duration.ofMinutes(1))
        .build();
    try (WaitingRoom eu = node(config, "eu", "eu-1");
        WaitingRoom us = node(config, "us", "us-1")) {
      List<WaitingRoom> nodes = List.of(eu, us);
      int admittedEu = 0;
      int admittedUs = 0;
      // A flash crowd: 50 arrivals at each node between syncs, for four epochs.
      for (int s = 0; s < 16; s++) {
        syncBoth(nodes);
        for (int a = 0; a < 50; a++) {
          admittedEu += eu.decide(null).letsThrough() ? 1 : 0;
          admittedUs += us.decide(null).letsThrough() ? 1 : 0;
        }
      }
      int admitted = admittedEu + admittedUs;
      assertThat(admitted).as("admitted by both nodes (eu %s, us %s)", admittedEu, admittedUs)
          .isPositive()
          .isLessThanOrEqualTo(20);
      // Each node counts the room's admissions, its own and the other's, within a few epochs.
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (System.nanoTime() < deadline
          && (eu.status().activeUsers() != admitted || us.status().activeUsers() != admitted)) {
        syncBoth(nodes);
      }
      for (WaitingRoom n : nodes) {
        RoomStatus status = n.status();
        assertThat(status.activeUsers()).as("active users as a node counts them").isEqualTo(admitted);
        assertThat(status.dataCenters()).containsExactlyInAnyOrder("eu", "us");
        assertThat(status.roomNodes()).isEqualTo(2);
        assertThat(status.transportFailing()).isFalse();
      }
      assertThat(eu.status().localActiveUsers()).isEqualTo(admittedEu);
      assertThat(us.status().localActiveUsers()).isEqualTo(admittedUs);
    }
  }
}
