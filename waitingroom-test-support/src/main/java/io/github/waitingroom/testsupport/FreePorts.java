package io.github.waitingroom.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Ports on the loopback address for the servers a test starts or points at. */
public final class FreePorts {
  private FreePorts() {}

  /**
   * A port that was free a moment ago: the system's choice for a socket that is closed again at
   * once. A server started on it right away gets it in practice; one that can bind port 0 itself
   * should do that instead.
   */
  public static int pick() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A port on 127.0.0.1 where nothing listens: connecting to it is refused at once. */
  public static int closed() {
    return pick();
  }
}
