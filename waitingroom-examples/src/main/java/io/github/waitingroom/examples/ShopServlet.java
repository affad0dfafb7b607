package io.github.waitingroom.examples;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.RoomStatus;
import io.github.waitingroom.WaitingRoom;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The demo's application: a ticket shop with a few pages. It knows nothing of the waiting room
 * except that it shows the room's current counts in its footer. Only a {@code POST} to {@code
 * /checkout} books (and, with {@code --revoke}, ends the session); an {@code OPTIONS} is answered
 * without acting. With {@code --origin-servers} every page (not {@code /health}) first goes
 * through the {@link SlowOrigin}'s few slow servers, so its latency grows with the load.
 */
final class ShopServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  private record Concert(String name, String date, int price) {}

  private static final List<Concert> CONCERTS =
      List.of(
          new Concert("The Buckets", "Fri 12 June", 45),
          new Concert("Sliding Windows", "Sat 13 June", 60),
          new Concert("Encrypted Cookies", "Sun 14 June", 35));

  private final transient WaitingRoom room;
  private final String node;
  private final String dataCenter;
  /** Whether a checkout ends the visitor's session (the filter's revoke must be on too). */
  private final boolean revoke;
  /** The slow servers of {@code --origin-servers} every page goes through, or null: answered at once. */
  private final transient @Nullable SlowOrigin origin;

  ShopServlet(WaitingRoom room, String node, String dataCenter, boolean revoke) {
    this(room, node, dataCenter, revoke, null);
  }

  ShopServlet(WaitingRoom room, String node, String dataCenter, boolean revoke, @Nullable SlowOrigin origin) {
    this.room = room;
    this.node = node;
    this.dataCenter = dataCenter;
    this.revoke = revoke;
    this.origin = origin;
  }

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
    String path = req.getRequestURI();
    String method = req.getMethod();
    if ("OPTIONS".equals(method)) {
      // Nothing acts on an OPTIONS (a CORS preflight never gets here: the filter answers those).
      res.setStatus(HttpServletResponse.SC_NO_CONTENT);
      res.setHeader("Allow", path.equals("/checkout") ? "POST, OPTIONS" : "GET, HEAD, OPTIONS");
      return;
    }
    if (path.equals("/checkout") && !"POST".equals(method)) {
      // Only the form's POST books a ticket.
      res.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
      res.setHeader("Allow", "POST, OPTIONS");
      return;
    }
    if (path.equals("/health")) {
      res.setContentType("text/plain;charset=UTF-8");
      res.getWriter().write("ok");
      return;
    }
    if (origin != null) {
      try {
        origin.serve();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        res.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        return;
      }
    }
    StringBuilder body = new StringBuilder();
    int status = HttpServletResponse.SC_OK;
    if (path.equals("/")) {
      body.append("<h1>Ticket shop</h1><p><strong>You are in.</strong> Pick a concert:</p><ul>");
      for (int i = 0; i < CONCERTS.size(); i++) {
        Concert c = CONCERTS.get(i);
        body.append("<li><a href=\"/concert/").append(i).append("\">").append(c.name()).append("</a>, ")
            .append(c.date()).append("</li>");
      }
      body.append("</ul>");
    } else if (path.startsWith("/concert/")) {
      Concert c = concert(path.substring("/concert/".length()));
      if (c == null) {
        status = HttpServletResponse.SC_NOT_FOUND;
        body.append("<h1>No such concert</h1><p><a href=\"/\">Back to the shop</a></p>");
      } else {
        body.append("<h1>").append(c.name()).append("</h1><p>").append(c.date()).append(", ").append(c.price())
            .append(" EUR</p><form method=\"post\" action=\"/checkout\"><button>Buy a ticket</button></form>")
            .append("<p><a href=\"/\">Back to the shop</a></p>");
      }
    } else if (path.equals("/checkout")) {
      body.append("<h1>Thank you</h1><p>Your (pretend) ticket is booked.</p>");
      if (revoke) {
        // The filter takes this header out, ends the session and deletes its cookie.
        res.setHeader("X-WaitingRoom-Revoke", "1"); // ResponseHeaders.REVOKE_HEADER
        body.append("<p>Your session has ended: the next person in line gets your place.</p>");
      }
      body.append("<p><a href=\"/\">Back to the shop</a></p>");
    } else {
      status = HttpServletResponse.SC_NOT_FOUND;
      body.append("<h1>Not found</h1><p><a href=\"/\">Back to the shop</a></p>");
    }
    RoomStatus v = room.status();
    RoomConfig c = room.config();
    body.append("<footer><p>Room <code>").append(c.roomId()).append("</code> on node <code>").append(node)
        .append("</code> (").append(dataCenter).append("): ").append(v.activeUsers()).append(" of ")
        .append(room.settings().totalActiveUsers()).append(" active, ").append(v.waitingUsers()).append(" waiting.")
        .append(" Your session lasts while you click and ends ").append(room.settings().sessionDuration().getSeconds())
        .append(" s after your last request; then the next person in line gets your place.</p></footer>");
    res.setStatus(status);
    res.setContentType("text/html;charset=UTF-8");
    res.getWriter()
        .write("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Ticket shop</title>"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            + "<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;"
            + "line-height:1.5}footer{margin-top:3rem;font-size:.9rem;opacity:.75}</style></head><body><main>"
            + body
            + "</main></body></html>");
  }

  private static @Nullable Concert concert(String id) {
    try {
      int i = Integer.parseInt(id);
      return i >= 0 && i < CONCERTS.size() ? CONCERTS.get(i) : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
