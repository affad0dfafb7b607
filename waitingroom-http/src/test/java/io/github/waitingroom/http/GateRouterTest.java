package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Routing among several rooms: the most specific prefix wins, whatever order the gates come in. */
class GateRouterTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private final List<WaitingRoom> rooms = new ArrayList<>();

  private Gate gate(String roomId, String prefix) {
    WaitingRoom room =
        WaitingRoom.builder(
                RoomConfig.builder(roomId)
                    .totalActiveUsers(1)
                    .newUsersPerMinute(1)
                    .sessionDuration(Duration.ofMinutes(1))
                    .build(),
                KEYS)
            .backgroundSync(false)
            .build();
    rooms.add(room);
    return Gate.builder(room).pathPrefix(prefix).build();
  }

  @AfterEach
  void close() {
    rooms.forEach(WaitingRoom::close);
  }

  @Test
  void theMostSpecificPrefixWinsInAnyOrder() {
    Gate shop = gate("shop", "/");
    Gate drop = gate("drop", "/drop");
    Gate vip = gate("vip", "/drop/vip");
    for (List<Gate> order : List.of(List.of(shop, drop, vip), List.of(vip, shop, drop), List.of(drop, vip, shop))) {
      GateRouter router = GateRouter.of(order);
      assertThat(router.gates()).containsExactly(vip, drop, shop);
      assertThat(router.route("/drop/x")).isSameAs(drop);
      assertThat(router.route("/drop")).isSameAs(drop);
      assertThat(router.route("/drop/vip/y")).isSameAs(vip);
      assertThat(router.route("/dropx")).isSameAs(shop);
      assertThat(router.route("/shop/y")).isSameAs(shop);
      assertThat(router.without(drop).route("/drop/x")).isSameAs(shop);
    }
    assertThat(GateRouter.of(List.of(drop)).route("/shop/y")).isNull();
    assertThat(GateRouter.empty().route("/")).isNull();
  }

  @Test
  void twoRoomsMayShareNeitherPrefixNorCookieName() {
    Gate shop = gate("shop", "/");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> GateRouter.of(List.of(shop, gate("other", "/"))))
        .withMessageStartingWith("pathPrefix '/' of room 'other' is already guarded by room 'shop'");
    Gate sameCookie = Gate.builder(rooms.get(0)).pathPrefix("/drop").build();
    assertThatIllegalArgumentException()
        .isThrownBy(() -> GateRouter.of(List.of(shop)).with(List.of(sameCookie)))
        .withMessageStartingWith("cookieName 'wr_shop' of room 'shop' is already used by room 'shop'");
  }

  @Test
  void eachRoomHasTwoCookieNamesAndNoNameOfOneMayBeANameOfAnother() {
    Gate shop = gate("shop", "/");
    assertThat(shop.cookieName()).isEqualTo("wr_shop");
    assertThat(shop.placeCookieName()).isEqualTo("wr_shop_q");
    // Room "shop_q" by default has the session cookie wr_shop_q: the shop's place cookie.
    Gate clashing = gate("shop_q", "/drop");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> GateRouter.of(List.of(shop, clashing)))
        .withMessageStartingWith("cookieName 'wr_shop_q' of room 'shop_q' is already used by room 'shop'")
        .withMessageContaining("cookie 'wr_shop_q'");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> GateRouter.of(List.of(clashing, shop)))
        .withMessageStartingWith("cookieName 'wr_shop' of room 'shop' is already used by room 'shop_q'")
        .withMessageContaining("cookie 'wr_shop_q'");
    // A prefix carries over to the place cookie.
    Gate host = Gate.builder(rooms.get(0)).cookieName("__Host-shop").build();
    assertThat(host.placeCookieName()).isEqualTo("__Host-shop_q");
    assertThat(GateRouter.of(List.of(gate("other", "/other"), gate("drop", "/drop"))).gates()).hasSize(2);
  }
}
