package io.github.waitingroom.webflux;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.OperatorApi;
import io.github.waitingroom.http.OperatorContract;
import java.net.URI;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.netty.DisposableServer;

/**
 * The shared {@link OperatorContract} against {@link WaitingRoomDashboardWebFilter} on a real Reactor
 * Netty server on a free port, behind a {@link WaitingRoomWebFilter} that guards {@code /} and
 * bypasses the dashboard.
 */
class WebFluxOperatorContractTest extends OperatorContract {
  @Override
  protected Server start(WaitingRoom room, OperatorApi api) {
    WaitingRoomDashboardWebFilter dashboard = WaitingRoomDashboardWebFilter.of(api, PATH);
    WebHandler app = FluxFixture::answerPath;
    HttpHandler handler = WebHttpHandlerBuilder.webHandler(app)
        .filter(WaitingRoomWebFilter.builder(room).build().bypassing(dashboard::covers), dashboard)
        .build();
    DisposableServer netty = FluxFixture.bind(handler);
    return new Server() {
      @Override
      public URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + netty.port() + pathAndQuery);
      }

      @Override
      public void close() {
        netty.disposeNow();
      }
    };
  }
}
