package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.testsupport.HttpVisitor;
import java.net.http.HttpResponse;
import java.util.List;

/**
 * The visits that {@link SeveralRoomsServerTest} (servlet) and {@link ReactiveSeveralRoomsServerTest}
 * both make to an application with a {@code drop} room on {@code /drop} and a {@code shop} room
 * that holds {@code /shop}, one slot each: each request counts in its own room, and a full room
 * queues nobody in the other. What else each test checks stays in the test, between the two steps.
 */
final class DropAndShop {
  static final String QUEUED = "You are in line";

  private DropAndShop() {}

  /** The names of the cookies {@code r} sets. */
  static List<String> cookieNames(HttpResponse<String> r) {
    return r.headers().allValues("Set-Cookie").stream().map(c -> c.substring(0, c.indexOf('='))).toList();
  }

  /**
   * {@code a} takes the drop room's one slot at {@code /drop/x}, {@code b} waits in its line there,
   * and then takes the shop's one slot at {@code /shop/y}: the full drop room queued nobody in the shop.
   */
  static void fillTheDropThenTheShop(HttpVisitor a, HttpVisitor b) throws Exception {
    HttpResponse<String> aDrop = a.get("/drop/x");
    assertThat(aDrop.body()).isEqualTo("drop x");
    assertThat(cookieNames(aDrop)).containsExactly("wr_drop");
    HttpResponse<String> bDrop = b.get("/drop/x");
    assertThat(bDrop.body()).contains(QUEUED);
    assertThat(cookieNames(bDrop)).as("a place in line, in the drop room's place cookie").containsExactly("wr_drop_q");

    // The full drop room queues nobody in the shop: its one slot is still free.
    HttpResponse<String> bShop = b.get("/shop/y");
    assertThat(bShop.body()).isEqualTo("shop y");
    assertThat(cookieNames(bShop)).containsExactly("wr_shop");
  }

  /** With both rooms full: {@code c} waits at the drop, {@code a} and {@code b} go on in their rooms, {@code b} still waits in the drop's line. */
  static void eachRoomKeepsItsOwnLine(HttpVisitor a, HttpVisitor b, HttpVisitor c) throws Exception {
    assertThat(c.get("/drop/x").body()).contains(QUEUED);
    assertThat(a.get("/drop/y").body()).isEqualTo("drop y");
    assertThat(b.get("/shop/z").body()).isEqualTo("shop z");
    assertThat(b.get("/drop/x").body()).as("b still waits in the drop room").contains(QUEUED);
  }
}
