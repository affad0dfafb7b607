package io.github.waitingroom.testsupport;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A private {@code redis-server} on a free port, for the tests that stop, restart or flush Redis:
 * those must never touch the shared server other runs use. Without persistence, as in production
 * caches: a restart comes back empty.
 */
public final class RedisServerProcess implements AutoCloseable {
  private final int port;
  private @Nullable Process process;

  private RedisServerProcess(int port) {
    this.port = port;
  }

  /** Starts one, or skips the test (fails when services are required) without the binary. */
  public static RedisServerProcess start() throws IOException, InterruptedException {
    String binary = findBinary();
    Services.assume(binary != null, "redis-server is not on the PATH: tests that stop or flush a private Redis need it");
    RedisServerProcess r = new RedisServerProcess(FreePorts.pick());
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

  /** Where it listens, as a Redis URI. */
  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /** The port it listens on. */
  public int port() {
    return port;
  }

  /** Starts the server (again, after {@link #stop}) on its port, and waits until it accepts connections. */
  public void startProcess() throws IOException, InterruptedException {
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
  public void stop() throws InterruptedException {
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
