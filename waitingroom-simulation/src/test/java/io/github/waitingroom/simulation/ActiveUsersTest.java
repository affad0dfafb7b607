package io.github.waitingroom.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ActiveUsersTest {
  @Test
  void aClientCountsForOneSessionFromItsLastRequestLetThrough() {
    ActiveUsers active = new ActiveUsers(3, 60_000, -3000);
    assertThat(active.touch(0, 0)).isTrue();
    assertThat(active.touch(1, 10_000)).isTrue();
    assertThat(active.touch(0, 30_000)).isFalse(); // the same session, prolonged
    assertThat(active.count()).isEqualTo(2);

    active.expireUpTo(69_999);
    assertThat(active.count()).isEqualTo(2); // client 0's first expiry (60 s) is stale
    active.expireUpTo(70_000);
    assertThat(active.count()).isEqualTo(1);
    assertThat(active.isCounted(1)).isFalse();
    assertThat(active.expiry(0)).isEqualTo(90_000);

    assertThat(active.touch(1, 95_000)).isTrue(); // revived; expires client 0 first
    assertThat(active.isCounted(0)).isFalse();
    assertThat(active.count()).isEqualTo(1);
  }
}
