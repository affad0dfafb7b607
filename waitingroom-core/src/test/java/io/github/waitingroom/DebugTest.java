package io.github.waitingroom;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DebugTest {
  @Test
  void debug() {
    RoomConfig config = RoomConfig.builder("limits").totalActiveUsers(10).newUsersPerMinute(10).sessionDuration(Duration.ofMinutes(10)).refreshInterval(Duration.ofSeconds(10)).build();
    Cluster c = new Cluster(config, TicketKeys.generate());
    c.add("eu", "a");
    c.add("eu", "b");
    c.add("us", "c");
    c.warmUp();
    Crowd crowd = new Crowd(c, 3);
    crowd.browseSeconds = 600;
    for (int i = 0; i < 30; i++) {
      crowd.arrive(i % 3);
      crowd.act();
      c.advance(Duration.ofMillis(250));
      System.out.println("i=" + i + " admitted " + crowd.admissions.size());
    }
  }
}
