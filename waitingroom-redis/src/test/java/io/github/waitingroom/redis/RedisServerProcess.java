package io.github.waitingroom.redis;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;

/**
 * A private {@code redis-server} on a free port, for the tests that stop, restart or flush Redis:
 * those must never touch the shared server other runs use. Without persistence, as in production
 * caches: a restart comes back empty.
 */
final class RedisServerProcess implements AutoCloseable {
  private final int port;
  private @Nullable Process process;

  private RedisServerProcess(int port) {
    this.port = port;
  }

  /** Starts one, or skips the test (fails when services are required) without the binary. */
  static RedisServerProcess start() throws IOException, InterruptedException {
    String binary = findBinary();
    if (binary == null) {
      String message = "redis-server is not on the PATH";
      if (RedisSupport.servicesRequired()) {
        throw new AssertionError(message + " and WAITINGROOM_REQUIRE_SERVICES demands it");
      }
      Assumptions.abort(message + ": tests that stop or flush a private Redis are skipped");
    }
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    RedisServerProcess r = new RedisServerProcess(port);
    r.startProcess();
    return r;
  }

  private static @Nullable String findBinary() {
    String path = System.getenv("PATH");
    for (String dir : (path == null ? "/usr/bin:/usr/local/bin" : path).split(File.pathSeparator)) {
      File f = new File(dir, "redis-server");
      if (f.canExecute()) {
        return f.getPath();
      }
    }
    return null;
  }

  String uri() {
    return "redis://127.0.0.1:" + port;
  }

  int port() {
    return port;
  }

  void startProcess() throws IOException, InterruptedException {
    String binary = findBinary();
    process =
        new ProcessBuilder(
                List.of(String.valueOf(binary), "--port", String.valueOf(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no"))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException e) {
        Thread.sleep(20); // polling for the port to open, not waiting for time to pass
      }
    }
    throw new IOException("redis-server did not open port " + port);
  }

  /** Kills the server, as a crash or a restart would. */
  void stop() throws InterruptedException {
    Process p = process;
    if (p != null) {
      p.destroyForcibly();
      p.waitFor(20, TimeUnit.SECONDS);
      process = null;
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
