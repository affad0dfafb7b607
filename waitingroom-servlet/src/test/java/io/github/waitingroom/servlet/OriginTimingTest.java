package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.allocation.Tally;
import io.github.waitingroom.testsupport.HttpVisitor;
import io.github.waitingroom.testsupport.PublishedTallies;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The filter times every request the room lets through, from its answer to the application's
 * response, and tells the room ({@code WaitingRoom#originAnswered}): seen here the way the room
 * publishes it, in the tallies its coordinator exchanges ({@link Tally#origin()}), on a real Jetty
 * in front of an application that sleeps, fails, throws or answers asynchronously as told. Requests
 * the room answers itself (the waiting page, the JSON status) or never decides (ignored paths,
 * bypass rules) are not timed. Time is asserted only as a lower bound: a handler that sleeps 50 ms
 * is measured at 50 ms or more.
 */
class OriginTimingTest {
  @RegisterExtension final RoomFixture fixture = new RoomFixture();
  private final PublishedTallies published = new PublishedTallies();
  private final WaitingRoom room =
      fixture.room(RoomFixture.oneSlot(Duration.ofMinutes(10)), b -> b.coordinator(published));
  private final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
  private int port;

  OriginTimingTest() throws Exception {
    fixture.opened(later::shutdownNow);
    start();
  }

  /**
   * The application, by path: {@code /sleep?ms=N} answers 200 after N ms; {@code /status?code=N}
   * answers N; {@code /send-error} answers 503 by {@code sendError}; {@code /throw} throws; {@code
   * /async?ms=N&code=C} answers C (200 by default) asynchronously after N ms; {@code
   * /async-timeout} goes asynchronous and never answers (the container times it out after 100 ms);
   * anything else 200.
   */
  private static final class App extends HttpServlet {
    private final ScheduledExecutorService later;

    App(ScheduledExecutorService later) {
      this.later = later;
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException, ServletException {
      String path = req.getRequestURI();
      switch (path) {
        case "/sleep" -> {
          sleep(Long.parseLong(req.getParameter("ms")));
          res.getWriter().write("slept");
        }
        case "/status" -> res.setStatus(Integer.parseInt(req.getParameter("code")));
        case "/send-error" -> res.sendError(503);
        case "/throw" -> throw new ServletException("the application failed (on purpose)");
        case "/async" -> {
          AsyncContext async = req.startAsync();
          String code = req.getParameter("code");
          later.schedule(() -> {
            ((HttpServletResponse) async.getResponse()).setStatus(code == null ? 200 : Integer.parseInt(code));
            async.complete();
          }, Long.parseLong(req.getParameter("ms")), TimeUnit.MILLISECONDS);
        }
        case "/async-timeout" -> req.startAsync().setTimeout(100);
        default -> res.getWriter().write("app:" + path);
      }
    }

    private static void sleep(long millis) throws ServletException {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ServletException(e);
      }
    }
  }

  /** Jetty on a free port: the room's filter (static files ignored, {@code X-Ops} bypassing) before the app, async supported. */
  private void start() throws Exception {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    WaitingRoomFilter filter = WaitingRoomFilter.builder(room).ignorePaths("/static/").build()
        .bypassing(request -> request.getHeader("X-Ops") != null);
    FilterHolder holder = new FilterHolder(filter);
    holder.setAsyncSupported(true);
    context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST));
    ServletHolder app = new ServletHolder(new App(later));
    app.setAsyncSupported(true);
    context.addServlet(app, "/");
    server.setHandler(context);
    server.start();
    fixture.opened(server::stop);
    port = connector.getLocalPort();
  }

  /** A visitor whom the room lets in (its one slot): its first request answers 200. */
  private HttpVisitor admitted() throws Exception {
    HttpVisitor v = new HttpVisitor(port);
    assertThat(v.get("/first").body()).isEqualTo("app:/first");
    return v;
  }

  @Test
  void timesEveryRequestTheRoomLetsThroughAndNothingElse() throws Exception {
    HttpVisitor in = admitted();
    for (int i = 0; i < 4; i++) {
      assertThat(in.get("/sleep?ms=50").body()).isEqualTo("slept");
    }
    // Not timed: the JSON status the page polls, an ignored path, a bypassed request, a waiting visitor.
    assertThat(in.get("/?waitingRoomStatus=1", "Accept", "application/json").body()).contains("\"inWaitingRoom\":false");
    assertThat(in.get("/static/logo.svg").statusCode()).isEqualTo(200);
    assertThat(in.get("/ops", "X-Ops", "1").statusCode()).isEqualTo(200);
    HttpVisitor waiting = new HttpVisitor(port);
    assertThat(waiting.get("/sleep?ms=50").body()).contains("You are in line");
    assertThat(waiting.get("/?waitingRoomStatus=1", "Accept", "application/json").body()).contains("\"inWaitingRoom\":true");

    Tally.Origin o = published.origin(room, fixture.clock, 5);
    assertThat(o.requests()).as("the first request and four sleeps").isEqualTo(5);
    assertThat(o.failures()).isZero();
    assertThat(o.quantileMicros(0.5)).as("the median of five requests, four of them sleeping 50 ms")
        .isGreaterThanOrEqualTo(50_000);
  }

  @Test
  void countsServerErrorsAndThrowsAsFailures() throws Exception {
    HttpVisitor in = admitted();
    assertThat(in.get("/status?code=500").statusCode()).isEqualTo(500);
    assertThat(in.get("/send-error").statusCode()).isEqualTo(503);
    assertThat(in.get("/throw").statusCode()).isEqualTo(500);
    assertThat(in.get("/status?code=404").statusCode()).as("a client error is an answer").isEqualTo(404);
    assertThat(in.get("/status?code=204").statusCode()).isEqualTo(204);

    Tally.Origin o = published.origin(room, fixture.clock, 6);
    assertThat(o.requests()).isEqualTo(6);
    assertThat(o.failures()).as("500, 503 and the throw").isEqualTo(3);
  }

  @Test
  void timesAnAsynchronousRequestToItsEnd() throws Exception {
    HttpVisitor in = admitted();
    assertThat(in.get("/async?ms=80").statusCode()).isEqualTo(200);

    Tally.Origin o = published.origin(room, fixture.clock, 2);
    assertThat(o.requests()).isEqualTo(2);
    assertThat(o.failures()).isZero();
    assertThat(o.quantileMicros(1.0)).as("the slowest request: the asynchronous one of 80 ms").isGreaterThanOrEqualTo(80_000);
  }

  @Test
  void countsAnAsynchronousTimeoutOrServerErrorOnceAsAFailure() throws Exception {
    HttpVisitor in = admitted();
    assertThat(in.get("/async-timeout").statusCode()).isEqualTo(500);
    assertThat(in.get("/async?ms=10&code=502").statusCode()).isEqualTo(502);

    Tally.Origin o = published.origin(room, fixture.clock, 3);
    assertThat(o.requests()).as("the timeout counted once, not again at its completion").isEqualTo(3);
    assertThat(o.failures()).isEqualTo(2);
    assertThat(o.quantileMicros(1.0)).as("the timeout, after 100 ms").isGreaterThanOrEqualTo(100_000);
  }
}
