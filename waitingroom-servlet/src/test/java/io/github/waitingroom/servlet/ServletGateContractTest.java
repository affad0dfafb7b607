package io.github.waitingroom.servlet;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.GateContract;
import java.net.URI;

/** The shared {@link GateContract} against {@link WaitingRoomFilter} on a real Jetty 12. */
class ServletGateContractTest extends GateContract {
  @Override
  protected Server start(WaitingRoom room, Options o) throws Exception {
    WaitingRoomFilter.Builder b =
        WaitingRoomFilter.builder(room)
            .pathPrefix(o.pathPrefix())
            .ignorePaths(o.ignorePaths().toArray(String[]::new))
            .cookieSecure(o.cookieSecure())
            .cookieSameSite(o.cookieSameSite())
            .waitingStatus(o.waitingStatus())
            .corsPassThrough(o.corsPassThrough());
    String cookieName = o.cookieName();
    if (cookieName != null) {
      b.cookieName(cookieName);
    }
    io.github.waitingroom.http.HumanCheck check = o.humanCheck();
    if (check != null) {
      b.humanCheck(check);
    }
    TestServer jetty = TestServer.start(b.build());
    return new Server() {
      @Override
      public URI uri(String pathAndQuery) {
        return jetty.uri(pathAndQuery);
      }

      @Override
      public int appHits() {
        return jetty.appHits.get();
      }

      @Override
      public void close() throws Exception {
        jetty.close();
      }
    };
  }
}
