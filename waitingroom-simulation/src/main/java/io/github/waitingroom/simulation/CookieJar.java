package io.github.waitingroom.simulation;

import io.github.waitingroom.Decision;
import org.jspecify.annotations.Nullable;

/**
 * The cookies every simulated client's browser holds, as the HTTP adapters set them: an answer
 * that lets the request through sets the session cookie, any other the place cookie (the place in
 * line is kept apart from the session, as the Gate keeps it), each with the max-age the answer
 * gives. The run decides when a cookie past its max-age is dropped ({@link #dropExpired}, or its
 * own rule).
 *
 * <p>Clients are numbered {@code 0..clients-1}, as the run numbers them.
 */
public final class CookieJar {
  private final @Nullable String[] session;
  private final long[] sessionExpires;
  private final @Nullable String[] place;
  private final long[] placeExpires;

  /** Empty cookie jars for {@code clients} clients. */
  public CookieJar(int clients) {
    this.session = new String[clients];
    this.sessionExpires = new long[clients];
    this.place = new String[clients];
    this.placeExpires = new long[clients];
  }

  /** Client {@code u}'s session cookie, or null. */
  public @Nullable String session(int u) {
    return session[u];
  }

  /** Client {@code u}'s place cookie, or null. */
  public @Nullable String place(int u) {
    return place[u];
  }

  /** Whether client {@code u} holds a session cookie whose max-age has passed at {@code at}. */
  public boolean sessionExpired(int u, long at) {
    return session[u] != null && at >= sessionExpires[u];
  }

  /** Whether client {@code u} holds a place cookie whose max-age has passed at {@code at}. */
  public boolean placeExpired(int u, long at) {
    return place[u] != null && at >= placeExpires[u];
  }

  /** When client {@code u}'s place cookie runs out. */
  public long placeExpires(int u) {
    return placeExpires[u];
  }

  /** Drops both cookies of client {@code u} that are past their max-age at {@code at}. */
  public void dropExpired(int u, long at) {
    if (sessionExpired(u, at)) {
      session[u] = null;
    }
    if (placeExpired(u, at)) {
      place[u] = null;
    }
  }

  /** Drops client {@code u}'s session cookie. */
  public void dropSession(int u) {
    session[u] = null;
  }

  /** Drops client {@code u}'s place cookie. */
  public void dropPlace(int u) {
    place[u] = null;
  }

  /** Keeps the cookie answer {@code d} sets, if any, as received at {@code at}. */
  public void keep(int u, Decision d, long at) {
    String t = d.ticket();
    if (t == null) {
      return;
    }
    if (d.letsThrough()) {
      session[u] = t;
      sessionExpires[u] = at + d.ticketMaxAgeSeconds() * 1000;
    } else {
      place[u] = t;
      placeExpires[u] = at + d.ticketMaxAgeSeconds() * 1000;
    }
  }

  /** Gives client {@code to} a copy of client {@code from}'s place cookie (a cloned ticket). */
  public void copyPlace(int from, int to) {
    place[to] = place[from];
    placeExpires[to] = placeExpires[from];
  }
}
