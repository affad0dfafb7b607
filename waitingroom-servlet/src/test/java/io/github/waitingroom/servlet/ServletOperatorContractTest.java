package io.github.waitingroom.servlet;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.OperatorApi;
import io.github.waitingroom.http.OperatorContract;
import jakarta.servlet.DispatcherType;
import java.net.URI;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The shared {@link OperatorContract} against {@link WaitingRoomDashboard} on a real Jetty 12 on a
 * free port, behind a {@link WaitingRoomFilter} on {@code /*} that guards {@code /}.
 */
class ServletOperatorContractTest extends OperatorContract {
  @Override
  protected Server start(WaitingRoom room, OperatorApi api) throws Exception {
    org.eclipse.jetty.server.Server jetty = new org.eclipse.jetty.server.Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    context.addFilter(new FilterHolder(WaitingRoomFilter.builder(room).build()), "/*", EnumSet.of(DispatcherType.REQUEST));
    context.addServlet(new ServletHolder(DashboardServer.app()), "/");
    context.addServlet(new ServletHolder(WaitingRoomDashboard.of(api)), PATH + "/*");
    jetty.setHandler(context);
    jetty.start();
    int port = connector.getLocalPort();
    return new Server() {
      @Override
      public URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port + pathAndQuery);
      }

      @Override
      public void close() throws Exception {
        jetty.stop();
      }
    };
  }
}
