package io.github.waitingroom.servlet;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.GateContract;
import jakarta.servlet.Filter;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * The shared {@link GateContract} against {@link WaitingRoomFilter} on a real Jetty 12: one filter
 * per room on {@code /*}, as an application guards several rooms, each with the bypass rule, in a
 * chain that supports asynchronous requests.
 */
class ServletGateContractTest extends GateContract {
  @Override
  protected Server start(List<WaitingRoom> rooms, List<Options> options) throws Exception {
    String bypassHeader = options.get(0).bypassHeader();
    List<Filter> filters = new ArrayList<>();
    for (int i = 0; i < rooms.size(); i++) {
      WaitingRoomFilter f = options.get(i).applyTo(WaitingRoomFilter.builder(rooms.get(i))).build();
      filters.add(bypassHeader == null ? f : f.bypassing(request -> request.getHeader(bypassHeader) != null));
    }
    TestServer jetty = TestServer.start(filters.toArray(Filter[]::new));
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
