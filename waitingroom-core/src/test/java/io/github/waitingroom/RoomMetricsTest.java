package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.RoomMetrics.Rejection;
import io.github.waitingroom.RoomMetrics.SecondsHistogram;
import java.time.Duration;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/** What a node counts for metrics: decisions, admissions, rejected tickets, time in line, syncs. */
class RoomMetricsTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private final RoomConfig config = Cluster.shop(1, Duration.ofSeconds(30)).refreshInterval(Duration.ofSeconds(5)).build();
  private final Cluster cluster = new Cluster(config, KEYS);
  private final WaitingRoom room = cluster.warmNode();

  @Test
  void countsEveryDecisionAndTheTimeInLineOfThoseAdmittedFromIt() {
    RoomMetrics m = room.metrics();
    long syncsBefore = m.syncs();
    Decision in = room.decide(null);
    assertThat(in.outcome()).isEqualTo(Decision.Outcome.ADMIT);
    for (int i = 0; i < 3; i++) {
      assertThat(room.decide(in.ticket()).outcome()).isEqualTo(Decision.Outcome.PASS);
    }
    Decision waiting = room.decide(null);
    assertThat(waiting.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    long queuedAt = room.status().now();

    assertThat(m.decisions(Decision.Outcome.ADMIT)).isEqualTo(1);
    assertThat(m.decisions(Decision.Outcome.PASS)).isEqualTo(3);
    assertThat(m.decisions(Decision.Outcome.QUEUE)).isEqualTo(1);
    assertThat(m.admittedOnArrival()).isEqualTo(1);
    assertThat(m.arrivals()).isEqualTo(2);
    assertThat(m.waitShown().count() + m.waitUnknown()).as("the newcomer put in line was told a wait, or unknown").isEqualTo(1);

    // The first user leaves; the one in line polls when told until it is let in.
    long waits = 0;
    while (!waiting.letsThrough()) {
      cluster.advance(Duration.ofSeconds(waiting.refreshSeconds()));
      waiting = room.decide(waiting.ticket());
      waits++;
      assertThat(waits).as("let in once the first session ended").isLessThan(40);
    }
    long waited = room.status().now() - queuedAt;
    assertThat(m.admittedFromLine()).isEqualTo(1);
    assertThat(m.decisions(Decision.Outcome.WAIT)).isEqualTo(waits - 1);
    assertThat(m.decisions(Decision.Outcome.ADMIT)).isEqualTo(2);
    assertThat(m.timeInLine().count()).isEqualTo(1);
    assertThat(m.timeInLine().sumSeconds()).isEqualTo(waited);
    assertThat(m.syncs()).as("the cluster synced the node while time went by").isGreaterThan(syncsBefore);
    assertThat(m.syncFailures()).isZero();
    assertThat(m.storeOutages()).isZero();
  }

  @Test
  void countsRejectedTicketsByReason() {
    RoomMetrics m = room.metrics();
    String sealed = Objects.requireNonNull(room.decide(null).ticket());
    char flipped = sealed.charAt(40) == 'x' ? 'y' : 'x';
    room.decide(sealed.substring(0, 40) + flipped + sealed.substring(41));
    room.decide("not a ticket at all");
    room.decide("x".repeat(TicketCodec.MAX_SEALED_LENGTH + 1));
    long now = room.status().now();
    TicketState active = TicketState.waiting(Ticket.place(now, 1), now).admit(now);
    room.decide(new TicketCodec("other-room", KEYS).seal(active));
    assertThat(m.rejected(Rejection.FORGED)).as("tampered, garbage, oversized, another room's").isEqualTo(4);

    room.decide(new TicketCodec("shop", TicketKeys.generate()).seal(active));
    assertThat(m.rejected(Rejection.FOREIGN)).as("sealed with a key this keyset lacks").isEqualTo(1);

    assertThat(m.rejected(Rejection.EXPIRED)).isZero();
    cluster.advance(Duration.ofSeconds(60));
    assertThat(room.decide(sealed).outcome()).as("its session ran out").isNotEqualTo(Decision.Outcome.PASS);
    assertThat(m.rejected(Rejection.EXPIRED)).isEqualTo(1);
    assertThat(m.rejected(Rejection.TOO_FAST)).isZero();
    room.decide(null);
    assertThat(m.rejected(Rejection.FORGED)).as("no ticket is no rejection").isEqualTo(4);
  }

  @Test
  void aTicketUsedFarFasterThanABrowserIsCountedTooFast() {
    Cluster fast = new Cluster(config, KEYS);
    fast.maxRequestsPerTicket = 1;
    WaitingRoom r = fast.add("local", "node");
    fast.warmUp();
    String sealed = Objects.requireNonNull(r.decide(null).ticket());
    for (int i = 0; i < 30; i++) {
      r.decide(sealed);
    }
    assertThat(r.metrics().rejected(Rejection.TOO_FAST)).isEqualTo(30 - TicketRate.WINDOW_SECONDS);
  }

  @Test
  void aStoreOutageIsCountedOnceWithEveryFailedSync() {
    cluster.store.failing = true;
    for (int i = 0; i < 5; i++) {
      cluster.advance(Duration.ofMillis(500));
    }
    RoomMetrics m = room.metrics();
    assertThat(m.storeOutages()).isEqualTo(1);
    assertThat(m.syncFailures()).isGreaterThanOrEqualTo(5);
    cluster.store.failing = false;
    cluster.advance(Duration.ofSeconds(1));
    long failures = m.syncFailures();
    cluster.advance(Duration.ofSeconds(2));
    assertThat(m.syncFailures()).as("the store answers again").isEqualTo(failures);
    assertThat(m.storeOutages()).isEqualTo(1);
  }

  @Test
  void theHistogramInterpolatesItsQuantilesWithinBuckets() {
    SecondsHistogram h = new SecondsHistogram();
    assertThat(h.quantile(0.5)).isNaN();
    for (int i = 0; i < 10; i++) {
      h.record(12); // bucket (10, 15]
    }
    for (int i = 0; i < 10; i++) {
      h.record(100); // bucket (90, 120]
    }
    h.record(-3); // counts as 0
    h.record(100_000); // above the last bound
    assertThat(h.count()).isEqualTo(22);
    assertThat(h.sumSeconds()).isEqualTo(10 * 12 + 10 * 100 + 100_000);
    long[] bounds = SecondsHistogram.bounds();
    assertThat(h.countAtMost(0)).isEqualTo(1);
    assertThat(h.countAtMost(bounds.length)).isEqualTo(22);
    assertThat(h.quantile(0)).isEqualTo(0);
    // Rank 6.6 of 22: 5.6 of the 10 in (10, 15].
    assertThat(h.quantile(0.3)).isCloseTo(10 + 5 * 5.6 / 10, org.assertj.core.data.Offset.offset(1e-9));
    // Rank 16.5: 5.5 of the 10 in (90, 120].
    assertThat(h.quantile(0.75)).isCloseTo(90 + 30 * 5.5 / 10, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(h.quantile(1)).isEqualTo(bounds[bounds.length - 1]);
    assertThatThrownBy(() -> h.quantile(1.5)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1.5");
    assertThatThrownBy(() -> h.countAtMost(bounds.length + 1)).isInstanceOf(IndexOutOfBoundsException.class);
  }
}
