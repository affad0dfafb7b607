package io.github.waitingroom.webflux;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.Gate;
import io.github.waitingroom.http.GateContract;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.netty.DisposableServer;

/**
 * The shared {@link GateContract} against {@link WaitingRoomWebFilter} on a real Reactor Netty
 * server on a free port: a plain {@link WebHandler} behind {@link WebHttpHandlerBuilder}, no Spring
 * Boot; one filter over all the rooms, as WebFlux guards several.
 */
class WebFluxGateContractTest extends GateContract {
  @Override
  protected Server start(List<WaitingRoom> rooms, List<Options> options) {
    WaitingRoomWebFilter filter;
    if (rooms.size() == 1) {
      filter = options.get(0).applyTo(WaitingRoomWebFilter.builder(rooms.get(0))).build();
    } else {
      List<Gate> gates = new ArrayList<>();
      for (int i = 0; i < rooms.size(); i++) {
        gates.add(options.get(i).applyTo(Gate.builder(rooms.get(i))).build());
      }
      filter = WaitingRoomWebFilter.of(gates, request -> false, WaitingRoomWebFilter.DEFAULT_ORDER);
    }
    String bypassHeader = options.get(0).bypassHeader();
    if (bypassHeader != null) {
      filter = filter.bypassing(exchange -> exchange.getRequest().getHeaders().getFirst(bypassHeader) != null);
    }
    AtomicInteger hits = new AtomicInteger();
    WebHandler app =
        exchange -> {
          hits.incrementAndGet();
          ServerHttpResponse response = exchange.getResponse();
          List<String> headers = exchange.getRequest().getQueryParams().get("appSetHeader");
          if (headers != null) {
            for (String h : headers) {
              int colon = h.indexOf(':');
              response.getHeaders().set(h.substring(0, colon), h.substring(colon + 1));
            }
          }
          return FluxFixture.answerPath(exchange);
        };
    DisposableServer netty = FluxFixture.bind(WebHttpHandlerBuilder.webHandler(app).filter(filter).build());
    return new Server() {
      @Override
      public URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + netty.port() + pathAndQuery);
      }

      @Override
      public int appHits() {
        return hits.get();
      }

      @Override
      public void close() {
        netty.disposeNow();
      }
    };
  }
}
