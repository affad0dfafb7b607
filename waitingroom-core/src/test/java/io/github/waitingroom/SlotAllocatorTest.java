package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.allocation.BucketState;
import io.github.waitingroom.allocation.SlotAllocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The allocator is a seam a room can be given: every plan of every node is made by it, and the
 * line it plans from is reported in buckets of the room's bucket width.
 */
class SlotAllocatorTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  private static final RoomConfig CONFIG = RoomConfig.builder("allocator")
      .totalActiveUsers(10)
      .newUsersPerMinute(10)
      .sessionDuration(Duration.ofMinutes(10))
      .bucketWidth(Duration.ofSeconds(10))
      .build();

  /** Keeps the room at half its configured limits, by planning from a config that says so. */
  private static final SlotAllocator HALF = e -> SlotAllocator.PLAN.allocate(e.withConfig(e.config().toBuilder()
      .totalActiveUsers(e.config().totalActiveUsers() / 2)
      .newUsersPerMinute(e.config().newUsersPerMinute() / 2)
      .build()));

  @Test
  void everyPlanOfEveryNodeIsMadeByTheRoomsAllocator() {
    Cluster c = new Cluster(CONFIG, KEYS);
    c.allocator = HALF;
    List<WaitingRoom> nodes = List.of(c.add("eu", "a"), c.add("eu", "b"), c.add("us", "c"));
    c.warmUp();
    int admitted = 0;
    List<String> waiting = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      Decision d = nodes.get(i % 3).decide(null);
      if (d.letsThrough()) {
        admitted++;
      } else {
        waiting.add(d.ticket());
      }
      c.advance(Duration.ofSeconds(1));
    }
    for (int s = 0; s < 60; s++) {
      for (int i = 0; i < waiting.size(); i++) {
        Decision d = nodes.get(i % 3).decide(waiting.get(i));
        if (d.letsThrough()) {
          admitted++;
          waiting.set(i, null);
        } else if (d.ticket() != null) {
          waiting.set(i, d.ticket());
        }
      }
      waiting.removeIf(java.util.Objects::isNull);
      c.advance(Duration.ofSeconds(1));
    }
    assertThat(admitted).as("half the configured 10, sessions of 10 minutes").isEqualTo(5);
    assertThat(nodes.get(0).status().activeUsers()).isEqualTo(5);
  }

  @Test
  void theLineIsReportedInBucketsOfTheRoomsBucketWidth() {
    Cluster c = new Cluster(CONFIG, KEYS);
    WaitingRoom node = c.add("eu", "a");
    c.warmUp();
    long first = Long.MAX_VALUE;
    List<String> line = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      Decision d = node.decide(null);
      if (!d.letsThrough()) {
        line.add(d.ticket());
        first = Math.min(first, node.status().now());
      }
      if (i % 2 == 1) {
        c.advance(Duration.ofSeconds(1));
      }
    }
    for (int s = 0; s < 4; s++) {
      line.replaceAll(t -> {
        Decision d = node.decide(t);
        return d.ticket() != null ? d.ticket() : t;
      });
      c.advance(Duration.ofSeconds(1));
    }
    BucketState buckets = node.line();
    assertThat(buckets.bucketSeconds()).isEqualTo(10);
    assertThat(buckets.waiting()).as("everyone in line, counted once").isEqualTo(line.size()).isEqualTo(30);
    assertThat(buckets.buckets().size()).as("20 seconds of arrivals in buckets of 10 s").isBetween(2, 3);
    assertThat(buckets.buckets()).allSatisfy(b -> assertThat(b.startSecond() % 10).isZero());
    assertThat(buckets.buckets()).extracting(BucketState.Bucket::startSecond).isSorted().doesNotHaveDuplicates();
    assertThat(buckets.buckets().get(0).startSecond()).as("the bucket of the first in line").isEqualTo(first / 10 * 10);
  }
}
