package io.github.waitingroom.webflux;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.OperatorApi;
import io.github.waitingroom.http.OperatorContract;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The shared {@link OperatorContract} against {@link WaitingRoomDashboardWebFilter} on a real Reactor
 * Netty server on a free port, behind a {@link WaitingRoomWebFilter} that guards {@code /} and
 * bypasses the dashboard.
 */
class WebFluxOperatorContractTest extends OperatorContract {
  @Override
  protected Server start(WaitingRoom room, OperatorApi api) {
    WaitingRoomDashboardWebFilter dashboard = WaitingRoomDashboardWebFilter.of(api, PATH);
    WebHandler app =
        exchange -> {
          ServerHttpResponse response = exchange.getResponse();
          response.setStatusCode(HttpStatus.OK);
          response.getHeaders().setContentType(new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8));
          byte[] body = ("app:" + exchange.getRequest().getPath().value()).getBytes(StandardCharsets.UTF_8);
          return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
        };
    HttpHandler handler = WebHttpHandlerBuilder.webHandler(app)
        .filter(WaitingRoomWebFilter.builder(room).build().bypassing(dashboard::covers), dashboard)
        .build();
    DisposableServer netty =
        HttpServer.create().host("127.0.0.1").port(0).handle(new ReactorHttpHandlerAdapter(handler)).bindNow();
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
