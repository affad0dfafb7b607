package io.github.waitingroom.http;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A request whose body never comes, for the contracts' checks of answers to a body left unread:
 * its head, with {@code Content-Length: 18}, on a raw socket, and nothing after it.
 */
final class HeadOnly {
  private HeadOnly() {}

  /**
   * Sends the head and reads the answer's status line and headers, lower case; waits 10 s at most.
   *
   * @param method the method
   * @param uri where to send it
   * @param headers more header lines, each ending in {@code \r\n}
   */
  static List<String> send(String method, URI uri, String headers) throws IOException {
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout(10_000);
      String head = method + " " + uri.getRawPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + "\r\n" + headers
          + "Content-Length: 18\r\n\r\n";
      socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
      List<String> lines = new ArrayList<>();
      for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
        lines.add(line.toLowerCase(Locale.ROOT));
      }
      return lines;
    }
  }
}
