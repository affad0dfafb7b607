package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two rooms in one application on a real Jetty: a loose {@code shop} room on {@code /} and a tight
 * {@code drop} room on {@code /drop}, one filter each. The shop filter is registered first, so it
 * runs first on every request: {@code /drop/x} must still belong to the drop room alone.
 */
class SeveralRoomsTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private final List<WaitingRoom> rooms = new ArrayList<>();
  private final List<TestServer> servers = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (TestServer s : servers) {
      s.close();
    }
    rooms.forEach(WaitingRoom::close);
  }

  private WaitingRoom room(String id, int totalActiveUsers) {
    RoomConfig config =
        RoomConfig.builder(id)
            .totalActiveUsers(totalActiveUsers)
            .newUsersPerMinute(totalActiveUsers)
            .sessionDuration(Duration.ofSeconds(60))
            .build();
    WaitingRoom r = WaitingRoom.builder(config, KEYS).clock(clock).backgroundSync(false).build();
    rooms.add(r);
    return r;
  }

  private TestServer start(WaitingRoom shop, WaitingRoom drop) throws Exception {
    TestServer s =
        TestServer.start(
            WaitingRoomFilter.builder(shop).build(),
            WaitingRoomFilter.builder(drop).pathPrefix("/drop").ignorePaths("/drop/static/").build());
    servers.add(s);
    return s;
  }

  private static boolean inApp(HttpResponse<String> r) {
    return r.statusCode() == 200 && r.body().startsWith("app:");
  }

  private static boolean onWaitingPage(HttpResponse<String> r) {
    return r.body().contains("<h1>You are in line</h1>");
  }

  private static List<String> cookieNames(HttpResponse<String> r) {
    return r.headers().allValues("Set-Cookie").stream().map(c -> c.substring(0, c.indexOf('='))).toList();
  }

  private void syncAll() {
    clock.advance(Duration.ofSeconds(10));
    rooms.forEach(WaitingRoom::sync);
  }

  @Test
  void aRequestCountsInTheMostSpecificRoomThatCoversItOnly() throws Exception {
    WaitingRoom shop = room("shop", 5);
    WaitingRoom drop = room("drop", 5);
    TestServer server = start(shop, drop);

    HttpResponse<String> toDrop = new Visitor(server).get("/drop/x");
    HttpResponse<String> toShop = new Visitor(server).get("/shop/y");
    HttpResponse<String> dropAsset = new Visitor(server).get("/drop/static/app.css");

    assertThat(inApp(toDrop)).isTrue();
    assertThat(cookieNames(toDrop)).containsExactly("wr_drop");
    assertThat(toDrop.headers().firstValue("Set-Cookie")).hasValueSatisfying(c -> assertThat(c).contains("; Path=/drop;"));
    assertThat(inApp(toShop)).isTrue();
    assertThat(cookieNames(toShop)).containsExactly("wr_shop");
    // Ignored by the room it belongs to, and so counted by neither.
    assertThat(inApp(dropAsset)).isTrue();
    assertThat(cookieNames(dropAsset)).isEmpty();
    syncAll();
    assertThat(drop.status().activeUsers()).isEqualTo(1);
    assertThat(shop.status().activeUsers()).isEqualTo(1);
  }

  @Test
  void fillingOneRoomDoesNotQueueTheOther() throws Exception {
    WaitingRoom shop = room("shop", 1);
    WaitingRoom drop = room("drop", 1);
    TestServer server = start(shop, drop);
    Visitor a = new Visitor(server);
    Visitor b = new Visitor(server);
    Visitor c = new Visitor(server);

    assertThat(inApp(a.get("/shop/y"))).isTrue();
    assertThat(onWaitingPage(b.get("/shop/z"))).as("the shop is full").isTrue();
    assertThat(inApp(b.get("/drop/x"))).as("the drop is not").isTrue();
    assertThat(onWaitingPage(c.get("/drop/x"))).as("now the drop is full").isTrue();
    assertThat(onWaitingPage(c.get("/"))).as("and the shop still is").isTrue();
    assertThat(inApp(a.get("/shop/y"))).isTrue();
    assertThat(inApp(b.get("/drop/x"))).isTrue();
    assertThat(server.appHits.get()).isEqualTo(4);
  }

  @Test
  void containerCreatedFiltersShareTheApplicationAsWebXmlDeclaresThem(@TempDir Path dir) throws Exception {
    Path keyset = dir.resolve("keyset.json");
    Files.writeString(keyset, TicketKeys.toJson(KEYS));
    Map<String, String> shop = initParams("shop", "/", keyset);
    Map<String, String> drop = initParams("drop", "/drop", keyset);
    TestServer server = TestServer.startWithInitParams(List.of(shop, drop));
    servers.add(server);
    Visitor a = new Visitor(server);
    Visitor b = new Visitor(server);

    HttpResponse<String> first = a.get("/drop/x");
    assertThat(inApp(first)).isTrue();
    assertThat(cookieNames(first)).containsExactly("wr_drop");
    HttpResponse<String> second = b.get("/drop/x");
    assertThat(onWaitingPage(second)).isTrue();
    assertThat(cookieNames(second)).as("a place in line, in the drop room's place cookie").containsExactly("wr_drop_q");
    HttpResponse<String> shopVisit = b.get("/shop/y");
    assertThat(inApp(shopVisit)).isTrue();
    assertThat(cookieNames(shopVisit)).containsExactly("wr_shop");
  }

  @Test
  void twoRoomsOnOnePrefixStopTheApplication() {
    WaitingRoom shop = room("shop", 5);
    WaitingRoom other = room("other", 5);

    assertThatThrownBy(
            () -> servers.add(TestServer.start(WaitingRoomFilter.builder(shop).build(), WaitingRoomFilter.builder(other).build())))
        .hasStackTraceContaining("pathPrefix '/' of room 'other' is already guarded by room 'shop'");
  }

  @Test
  void twoRoomsWithOneCookieNameStopTheApplication() {
    WaitingRoom shop = room("shop", 5);
    WaitingRoom drop = room("drop", 5);

    assertThatThrownBy(
            () ->
                servers.add(
                    TestServer.start(
                        WaitingRoomFilter.builder(shop).cookieName("wr").build(),
                        WaitingRoomFilter.builder(drop).pathPrefix("/drop").cookieName("wr").build())))
        .hasStackTraceContaining("cookieName 'wr' of room 'drop' is already used by room 'shop'");
  }

  @Test
  void checkDistinctRefusesTwoRoomsOnOnePrefixBeforeAnyContainerStarts() {
    WaitingRoomFilter shop = WaitingRoomFilter.builder(room("shop", 5)).build();
    WaitingRoomFilter drop = WaitingRoomFilter.builder(room("drop", 5)).pathPrefix("/drop/").build();
    WaitingRoomFilter alsoDrop = WaitingRoomFilter.builder(room("drop2", 5)).pathPrefix("/drop").build();

    WaitingRoomFilter.checkDistinct(List.of(shop, drop));
    assertThatThrownBy(() -> WaitingRoomFilter.checkDistinct(List.of(shop, drop, alsoDrop)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("pathPrefix '/drop' of room 'drop2' is already guarded by room 'drop'");
  }

  private static Map<String, String> initParams(String roomId, String pathPrefix, Path keyset) {
    return Map.of(
        "roomId", roomId,
        "totalActiveUsers", "1",
        "newUsersPerMinute", "1",
        "sessionDuration", "300",
        "keysetFile", keyset.toString(),
        "pathPrefix", pathPrefix);
  }
}
