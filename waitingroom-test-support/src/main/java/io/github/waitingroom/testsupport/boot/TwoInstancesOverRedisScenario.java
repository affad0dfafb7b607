package io.github.waitingroom.testsupport.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomStatus;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.testsupport.HttpVisitor;
import io.github.waitingroom.testsupport.JsonTree;
import io.github.waitingroom.testsupport.LocalRedis;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Two instances of one Spring Boot application, each a real {@code SpringApplication} on its own
 * embedded server (port 0), over the real Redis at 127.0.0.1:6379, configured by properties alone
 * (a Redis URI, a key prefix of this test's own, one keyset from an environment variable, a node id
 * each): they share one room of one slot. Both see two nodes; a visitor let in on one is let in on
 * the other with the same cookie; once the one slot is taken, newcomers wait on both, and the other
 * instance counts none of them as its own. Two that keep the default node id count apart all the
 * same. Two whose keysets share no key stop planning and report {@code DOWN}.
 *
 * <p>The application serves {@value #HOME} at {@code /} and {@code ["tea","cups"]} at {@code
 * /api/items}, and has Spring Boot's Actuator. A subclass per Boot version starts it.
 */
public abstract class TwoInstancesOverRedisScenario {
  /** The body of the application's page at {@code /}. */
  protected static final String HOME = "shop home";

  private static final String ROOM = "two-instances";
  private static final String QUEUED = "You are in line";

  /** Creates the scenario; a subclass per Boot version. */
  protected TwoInstancesOverRedisScenario() {}

  /**
   * Starts one instance of the application with these command-line arguments, as a servlet
   * application on port 0 without a banner.
   */
  protected abstract RunningApp start(String... args);

  /** Checks that the test runs on the Boot version its module is for; called by each test. */
  protected abstract void checkBootVersion();

  /** The environment variable the instances read their keyset from; each module its own. */
  protected abstract String keysetVariable();

  private RunningApp startNode(String node, String prefix, String keyset, String... more) {
    List<String> args = new ArrayList<>(List.of(more));
    args.add("--waitingroom.node-id=" + node);
    return startRoom(1, prefix, keyset, args.toArray(String[]::new));
  }

  private RunningApp startRoom(int slots, String prefix, String keyset, String... more) {
    List<String> args = new ArrayList<>(List.of(
        "--waitingroom.room-id=" + ROOM,
        "--waitingroom.total-active-users=" + slots,
        "--waitingroom.new-users-per-minute=" + slots,
        "--waitingroom.session-duration=5m",
        "--waitingroom.refresh-interval=2s",
        "--waitingroom.store.redis-uri=" + LocalRedis.URI_STRING,
        "--waitingroom.store.key-prefix=" + prefix,
        "--waitingroom.keyset.env=" + keysetVariable(),
        // What the environment variable holds on each instance (Spring reads it as a property).
        "--" + keysetVariable() + "=" + keyset));
    args.addAll(List.of(more));
    return start(args.toArray(String[]::new));
  }

  /** Waits, a bounded number of syncs, for both instances to see the room as asked. */
  private static void awaitBoth(RunningApp a, RunningApp b, Predicate<RoomStatus> what, String description)
      throws InterruptedException {
    for (int i = 0; i < 300; i++) {
      if (what.test(a.status()) && what.test(b.status())) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("both instances never saw " + description + ": " + a.status() + " / " + b.status());
  }

  @Test
  void twoInstancesShareOneRoomThroughRedisFromPropertiesAlone() throws Exception {
    LocalRedis.require();
    checkBootVersion();
    String prefix = LocalRedis.uniquePrefix(ROOM);
    String keyset = TicketKeys.toJson(TicketKeys.generate());
    try (RunningApp a = startNode("a", prefix, keyset);
        RunningApp b = startNode("b", prefix, keyset)) {
      awaitBoth(a, b, s -> s.roomNodes() == 2 && !s.transportFailing(), "two live nodes");

      // One visitor, on instance a.
      HttpVisitor first = new HttpVisitor(a.port());
      HttpResponse<String> page = admit(first);

      // Both instances count that one visitor room-wide; the one slot is taken, so instance b's
      // first newcomer waits: b has let nobody in itself.
      awaitBoth(a, b, s -> s.activeUsers() == 1 && s.freeSlots() == 0, "the one active user and no free slot");
      assertThat(new HttpVisitor(b.port()).get("/").body()).contains(QUEUED);
      assertThat(b.status().localActiveUsers()).isZero();

      // The same cookie opens on instance b: one keyset, one room (cookies go by host, not port).
      HttpVisitor sameOnB = new HttpVisitor(b.port());
      List<String> cookies = page.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("wr_" + ROOM + "=")).toList();
      assertThat(cookies).isNotEmpty();
      String ticket = cookies.get(0).substring(0, cookies.get(0).indexOf(';'));
      assertThat(sameOnB.get("/", "Cookie", ticket).body()).isEqualTo(HOME);

      // Newcomers wait on both; the visitor let in goes on.
      assertThat(new HttpVisitor(b.port()).get("/").body()).contains(QUEUED);
      assertThat(new HttpVisitor(a.port()).get("/").body()).contains(QUEUED);
      assertThat(first.get("/api/items").body()).isEqualTo("[\"tea\",\"cups\"]");
    } finally {
      LocalRedis.deleteKeys(prefix);
    }
  }

  /**
   * Two instances that leave {@code waitingroom.node-id} at its default, as a first deployment
   * does: they must not count as one node (the core gives each process's reports a suffix of its
   * own), so each counts its own visitor and both see both.
   */
  @Test
  void twoInstancesWithTheDefaultNodeIdCountApart() throws Exception {
    LocalRedis.require();
    checkBootVersion();
    String prefix = LocalRedis.uniquePrefix(ROOM);
    String keyset = TicketKeys.toJson(TicketKeys.generate());
    try (RunningApp a = startRoom(2, prefix, keyset);
        RunningApp b = startRoom(2, prefix, keyset)) {
      awaitBoth(a, b, s -> s.roomNodes() == 2 && !s.transportFailing(), "two live nodes");
      admit(new HttpVisitor(a.port()));
      admit(new HttpVisitor(b.port()));
      awaitBoth(a, b, s -> s.activeUsers() == 2 && s.freeSlots() == 0, "both active users and no free slot");
      assertThat(a.status().localActiveUsers()).isEqualTo(1);
      assertThat(b.status().localActiveUsers()).isEqualTo(1);
      assertThat(new HttpVisitor(a.port()).get("/").body()).contains(QUEUED);
    } finally {
      LocalRedis.deleteKeys(prefix);
    }
  }

  /**
   * Issue 42: two instances whose keysets share no key (one rotated in one step) cannot open each
   * other's values in the store. Neither plans as if it were alone: both stop planning, and the
   * health indicator of each, read over HTTP from the Actuator, says {@code DOWN} with {@code
   * plansStalled}.
   */
  @Test
  void instancesWhoseKeysetsShareNoKeyStopPlanningAndReportDown() throws Exception {
    LocalRedis.require();
    checkBootVersion();
    String prefix = LocalRedis.uniquePrefix("two-keysets");
    String[] health = {
      "--management.health.waitingroom.enabled=true",
      "--management.endpoint.health.show-details=always",
      "--waitingroom.sync-interval=100ms"
    };
    try (RunningApp a = startNode("a", prefix, TicketKeys.toJson(TicketKeys.generate()), health);
        RunningApp b = startNode("b", prefix, TicketKeys.toJson(TicketKeys.generate()), health)) {
      for (int i = 0; i < 300 && !(down(a) && down(b)); i++) {
        Thread.sleep(100);
      }
      for (RunningApp app : List.of(a, b)) {
        HttpResponse<String> r = health(app);
        Map<String, Object> h = JsonTree.object(r.body());
        assertThat(h.get("status")).as(r.body()).isEqualTo("DOWN");
        assertThat(r.statusCode()).as("a DOWN health answers 503").isEqualTo(503);
        assertThat(JsonTree.at(h, "details", "plansStalled")).as(r.body()).isEqualTo(true);
        assertThat(JsonTree.at(h, "details", "storeFailing")).as(r.body()).isEqualTo(false);
      }
      assertThat(b.status().planEpoch()).as("b never planned").isEqualTo(Long.MIN_VALUE);
    } finally {
      LocalRedis.deleteKeys(prefix);
    }
  }

  /** Lets a visitor in: at once, or after a few polls while its instance's grant arrives. */
  private static HttpResponse<String> admit(HttpVisitor visitor) throws Exception {
    HttpResponse<String> page = visitor.get("/");
    for (int i = 0; i < 60 && !page.body().equals(HOME); i++) {
      assertThat(page.body()).contains(QUEUED);
      Thread.sleep(500);
      page = visitor.get("/");
    }
    assertThat(page.body()).isEqualTo(HOME);
    return page;
  }

  private static boolean down(RunningApp app) throws Exception {
    return "DOWN".equals(JsonTree.object(health(app).body()).get("status"));
  }

  private static HttpResponse<String> health(RunningApp app) throws Exception {
    return new HttpVisitor(app.port()).get("/actuator/health/waitingRoom", "Accept", "application/json");
  }
}
