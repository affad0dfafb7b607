package io.github.waitingroom.webflux;

import io.github.waitingroom.testsupport.ManualRooms;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/**
 * The set-up the WebFlux filter's tests share: {@link ManualRooms} (rooms on a manual clock without
 * background sync), and an application behind a filter on a real Reactor Netty server on a free port of
 * 127.0.0.1, all closed after each test, the last opened first. A test registers one with {@code
 * @RegisterExtension}; what a test checks stays in the test.
 */
final class FluxFixture extends ManualRooms {
  /** The application that answers {@code 200 app} to every request. */
  static final WebHandler APP = exchange -> answer(exchange.getResponse(), "app");

  private int port;

  /** Answers {@code 200} with {@code body}. */
  static Mono<Void> answer(ServerHttpResponse response, String body) {
    response.setStatusCode(HttpStatus.OK);
    return response.writeWith(Mono.just(response.bufferFactory().wrap(body.getBytes(StandardCharsets.UTF_8))));
  }

  /**
   * Answers {@code 200 app:<path>} as plain text: the application of the shared contracts, which
   * tells the test what it served.
   */
  static Mono<Void> answerPath(ServerWebExchange exchange) {
    ServerHttpResponse response = exchange.getResponse();
    response.setStatusCode(HttpStatus.OK);
    response.getHeaders().setContentType(new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8));
    byte[] body = ("app:" + exchange.getRequest().getPath().value()).getBytes(StandardCharsets.UTF_8);
    return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
  }

  /** Serves {@code handler} on a free port of 127.0.0.1 on Reactor Netty's own event loops; the caller disposes of it. */
  static DisposableServer bind(HttpHandler handler) {
    return HttpServer.create().host("127.0.0.1").port(0).handle(new ReactorHttpHandlerAdapter(handler)).bindNow();
  }

  /** Event loops of one thread, named {@code prefix}, disposed after the test. */
  LoopResources oneThreadLoop(String prefix) {
    LoopResources loop = LoopResources.create(prefix, 1, true);
    opened(loop::dispose);
    return loop;
  }

  /** Serves {@code app} behind {@code filter} on Reactor Netty's own event loops; see {@link #port}. */
  void start(WebHandler app, WebFilter filter) {
    start(app, filter, null);
  }

  /** Serves {@code app} behind {@code filter}, on {@code loop} when there is one; see {@link #port}. */
  void start(WebHandler app, WebFilter filter, @Nullable LoopResources loop) {
    HttpServer server = HttpServer.create().host("127.0.0.1").port(0);
    if (loop != null) {
      server = server.runOn(loop);
    }
    DisposableServer s =
        server.handle(new ReactorHttpHandlerAdapter(WebHttpHandlerBuilder.webHandler(app).filter(filter).build())).bindNow();
    opened(s::disposeNow);
    port = s.port();
  }

  /** The port of the server started last. */
  int port() {
    return port;
  }

  /** {@code pathAndQuery} on the server started last. */
  URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + port + pathAndQuery);
  }

  /** A {@code GET} of {@code pathAndQuery} that accepts {@code accept}, waiting 20 s at most. */
  HttpResponse<String> get(HttpClient client, String pathAndQuery, String accept) throws Exception {
    HttpRequest r = HttpRequest.newBuilder(uri(pathAndQuery)).header("Accept", accept).timeout(Duration.ofSeconds(20)).build();
    return client.send(r, HttpResponse.BodyHandlers.ofString());
  }
}
